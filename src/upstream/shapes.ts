/**
 * The shapes of what an upstream of either era sends, read without zod: each check walks a fixed, shallow path (one
 * loop over a list at most, never the upstream's data as a whole, never recursively) and names the first thing
 * wrong, so a malformed answer costs a few property reads per entry and fails with a message a person can act on.
 * Nested values the gateway does not read here (structured content, schemas, `_meta`) pass on unread; the call
 * stages bound them where they are read.
 */
import { isRecord } from '../shared/index.ts';

/** Names the first problem of a value, or undefined when it has the shape. */
export type ShapeCheck = (value: unknown) => string | undefined;

const CONTENT_TYPES: Readonly<Record<string, ShapeCheck>> = Object.freeze({
  text: (block) => stringField(block, 'text'),
  image: (block) => stringField(block, 'data') ?? stringField(block, 'mimeType'),
  audio: (block) => stringField(block, 'data') ?? stringField(block, 'mimeType'),
  resource_link: (block) => stringField(block, 'uri') ?? stringField(block, 'name'),
  resource: (block) => {
    const resource = (block as Record<string, unknown>).resource;
    return isRecord(resource) ? resourceContentsProblem(resource) : 'resource must be an object';
  },
});

function stringField(value: unknown, key: string, where = key): string | undefined {
  return typeof (value as Record<string, unknown>)[key] === 'string'
    ? undefined
    : `${where} must be a string`;
}

function optionalString(value: Record<string, unknown>, key: string): string | undefined {
  return value[key] === undefined ? undefined : stringField(value, key);
}

/** A resource's contents: a uri and either text or a base64 blob. */
function resourceContentsProblem(contents: Record<string, unknown>): string | undefined {
  if (typeof contents.uri !== 'string') return 'uri must be a string';
  if (typeof contents.text !== 'string' && typeof contents.blob !== 'string')
    return 'text or blob must be a string';
  return undefined;
}

/** One content block (text, image, audio, resource link, embedded resource). */
const contentBlockProblem: ShapeCheck = (block) => {
  if (!isRecord(block)) return 'must be an object';
  const check =
    typeof block.type === 'string' && Object.hasOwn(CONTENT_TYPES, block.type)
      ? CONTENT_TYPES[block.type]
      : undefined;
  if (check === undefined) return `type must be one of ${Object.keys(CONTENT_TYPES).join(', ')}`;
  return check(block);
};

/** The first problem of each entry of `list`, named by its index. */
function entriesProblem(list: unknown[], where: string, check: ShapeCheck): string | undefined {
  for (let index = 0; index < list.length; index += 1) {
    const problem = check(list[index]);
    if (problem !== undefined) return `${where}[${index}]: ${problem}`;
  }
  return undefined;
}

/** A result object, the only shape every answer has. */
const anObject: ShapeCheck = (value) => (isRecord(value) ? undefined : 'the result is not an object');

/** The checks of every result the gateway reads, by the method that asked for it. */
export const RESULT_CHECKS: Readonly<Record<string, ShapeCheck>> = Object.freeze({
  initialize: (result) => {
    if (!isRecord(result)) return 'the result is not an object';
    const info = result.serverInfo;
    return (
      stringField(result, 'protocolVersion') ??
      (isRecord(result.capabilities) ? undefined : 'capabilities must be an object') ??
      (isRecord(info) ? undefined : 'serverInfo must be an object') ??
      stringField(info, 'name', 'serverInfo.name') ??
      stringField(info, 'version', 'serverInfo.version') ??
      optionalString(result, 'instructions')
    );
  },
  'tools/call': (result) => {
    if (!isRecord(result)) return 'the result is not an object';
    const { content, isError, structuredContent } = result;
    if (content !== undefined && !Array.isArray(content)) return 'content must be an array';
    if (isError !== undefined && typeof isError !== 'boolean') return 'isError must be a boolean';
    if (structuredContent !== undefined && !isRecord(structuredContent))
      return 'structuredContent must be an object';
    return content === undefined ? undefined : entriesProblem(content, 'content', contentBlockProblem);
  },
  'prompts/get': (result) => {
    if (!isRecord(result)) return 'the result is not an object';
    if (!Array.isArray(result.messages)) return 'messages must be an array';
    return (
      optionalString(result, 'description') ??
      entriesProblem(result.messages, 'messages', (message) => {
        if (!isRecord(message)) return 'must be an object';
        if (message.role !== 'user' && message.role !== 'assistant') return 'role must be user or assistant';
        const problem = contentBlockProblem(message.content);
        return problem === undefined ? undefined : `content: ${problem}`;
      })
    );
  },
  'resources/read': (result) => {
    if (!isRecord(result)) return 'the result is not an object';
    if (!Array.isArray(result.contents)) return 'contents must be an array';
    return entriesProblem(result.contents, 'contents', (contents) =>
      isRecord(contents) ? resourceContentsProblem(contents) : 'must be an object',
    );
  },
  'completion/complete': (result) => {
    if (!isRecord(result)) return 'the result is not an object';
    const completion = result.completion;
    if (!isRecord(completion)) return 'completion must be an object';
    const values = completion.values;
    if (!Array.isArray(values)) return 'completion.values must be an array';
    // The spec caps one answer at 100 suggestions.
    if (values.length > 100) return 'completion.values must hold at most 100 suggestions';
    return entriesProblem(values, 'completion.values', (value) =>
      typeof value === 'string' ? undefined : 'must be a string',
    );
  },
  'server/discover': (result) => {
    if (!isRecord(result)) return 'the result is not an object';
    const versions = result.supportedVersions;
    if (!Array.isArray(versions) || versions.length === 0)
      return 'supportedVersions must be a non-empty array';
    if (versions.length > 64) return 'supportedVersions must list at most 64 versions';
    return (
      entriesProblem(versions, 'supportedVersions', (v) =>
        typeof v === 'string' ? undefined : 'must be a string',
      ) ??
      (isRecord(result.capabilities) ? undefined : 'capabilities must be an object') ??
      optionalString(result, 'instructions')
    );
  },
  ping: anObject,
  'resources/subscribe': anObject,
  'resources/unsubscribe': anObject,
  'logging/setLevel': anObject,
});

/** The list methods the gateway pages through: the key of their items and each item's check. */
export const LIST_CHECKS = Object.freeze({
  'prompts/list': {
    key: 'prompts',
    entry: ((prompt) => {
      if (!isRecord(prompt)) return 'must be an object';
      const args = prompt.arguments;
      return (
        stringField(prompt, 'name') ??
        optionalString(prompt, 'description') ??
        (args === undefined || Array.isArray(args) ? undefined : 'arguments must be an array') ??
        (Array.isArray(args)
          ? entriesProblem(args, 'arguments', (arg) =>
              isRecord(arg) ? stringField(arg, 'name') : 'must be an object',
            )
          : undefined)
      );
    }) as ShapeCheck,
  },
  'resources/list': {
    key: 'resources',
    entry: ((resource) =>
      isRecord(resource)
        ? (stringField(resource, 'uri') ?? stringField(resource, 'name'))
        : 'must be an object') as ShapeCheck,
  },
  'resources/templates/list': {
    key: 'resourceTemplates',
    entry: ((template) =>
      isRecord(template)
        ? (stringField(template, 'uriTemplate') ?? stringField(template, 'name'))
        : 'must be an object') as ShapeCheck,
  },
});

/** A list method the gateway pages through. */
export type ListMethod = keyof typeof LIST_CHECKS;

/** One page of a list: its items (unchecked) and the cursor of the next, or the problem of the page. */
export function readListPage(
  result: unknown,
  key: string,
): { items: unknown[]; nextCursor: string | undefined } | string {
  if (!isRecord(result)) return 'the result is not an object';
  const items = result[key];
  if (!Array.isArray(items)) return `${key} must be an array`;
  const cursor = result.nextCursor;
  if (cursor !== undefined && typeof cursor !== 'string') return 'nextCursor must be a string';
  return { items, nextCursor: cursor === '' ? undefined : cursor };
}

const ELICITATION_FIELD_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array']);

/** The params of the requests an upstream may send the gateway, by method. */
export const UPSTREAM_REQUEST_CHECKS: Readonly<Record<string, ShapeCheck>> = Object.freeze({
  'elicitation/create': (params) => {
    if (!isRecord(params)) return 'params must be an object';
    if (typeof params.message !== 'string') return 'message must be a string';
    if (params.mode === 'url') return stringField(params, 'url') ?? stringField(params, 'elicitationId');
    if (params.mode !== undefined && params.mode !== 'form') return 'mode must be "form" or "url"';
    const schema = params.requestedSchema;
    if (!isRecord(schema)) return 'requestedSchema must be an object';
    if (schema.type !== 'object') return 'requestedSchema.type must be "object"';
    const properties = schema.properties;
    if (!isRecord(properties)) return 'requestedSchema.properties must be an object';
    for (const name in properties) {
      const field = properties[name];
      // The name is the upstream's: a message names at most its first 64 characters.
      if (!isRecord(field) || !ELICITATION_FIELD_TYPES.has(field.type as string))
        return `requestedSchema.properties.${name.slice(0, 64)} must be a primitive field (string, number, integer, boolean or an enum array)`;
    }
    const required = schema.required;
    if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === 'string')))
      return 'requestedSchema.required must be an array of strings';
    return undefined;
  },
  'sampling/createMessage': (params) => {
    if (!isRecord(params)) return 'params must be an object';
    if (!Array.isArray(params.messages)) return 'messages must be an array';
    if (typeof params.maxTokens !== 'number') return 'maxTokens must be a number';
    return entriesProblem(params.messages, 'messages', (message) => {
      if (!isRecord(message)) return 'must be an object';
      if (message.role !== 'user' && message.role !== 'assistant') return 'role must be user or assistant';
      const content = message.content;
      const blocks = Array.isArray(content) ? content : [content];
      for (const block of blocks) {
        if (!isRecord(block) || typeof block.type !== 'string') return 'content must be content blocks';
      }
      return undefined;
    });
  },
});

const LOGGING_LEVELS = new Set([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/** The params of the notifications the gateway reads, by method (the list_changed ones carry nothing it reads). */
export const NOTIFICATION_CHECKS: Readonly<Record<string, ShapeCheck>> = Object.freeze({
  'notifications/message': (params) => {
    if (!isRecord(params)) return 'params must be an object';
    if (!LOGGING_LEVELS.has(params.level as string))
      return `level must be one of ${[...LOGGING_LEVELS].join(', ')}`;
    return optionalString(params, 'logger');
  },
  'notifications/resources/updated': (params) =>
    isRecord(params) ? stringField(params, 'uri') : 'params must be an object',
});
