/**
 * The 2025-era wire's view of tools whose outputSchema root is not an object (an array, a string, a typeless
 * `anyOf`): that era requires an object there, so the schema is advertised wrapped as
 * `{ type: 'object', properties: { result: <schema> }, required: ['result'] }` and such a tool's structured
 * content is sent as `{ result: <value> }`, as the SDK's Server did. A non-object structured value also gets its
 * JSON as a text block when the result has none.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { isRecord } from '../shared/index.ts';

/** Keys whose values are data, not subschemas: a `$ref` inside them is a literal. */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples']);
/** Keys whose values map names to subschemas: a child named `const` there is still a schema. */
const NAME_MAP_KEYS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);

const nonObjectRoot = (schema: unknown): boolean => isRecord(schema) && schema.type !== 'object';

/** An `$id` that starts a new base URI (not a plain `#fragment`): local pointers below it are its own. */
const newBase = (id: unknown): boolean => id !== undefined && !(typeof id === 'string' && id.startsWith('#'));

const retarget = (ref: string): string =>
  ref === '#' ? '#/properties/result' : ref.startsWith('#/') ? `#/properties/result${ref.slice(1)}` : ref;

/**
 * A copy of `schema` whose local `$ref`/`$dynamicRef` pointers point into `properties.result`. Iterative, one
 * visit per node; subschemas under a new base are kept as they are. Unlike the SDK, a draft 2019-09
 * `$recursiveRef: "#"` is left as it is.
 */
function retargetLocalRefs(schema: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const work: [unknown, Record<string | number, unknown>, string | number, boolean][] = [];
  const copyObject = (node: Record<string, unknown>, into: Record<string, unknown>, nameMap: boolean) => {
    for (const [key, value] of Object.entries(node)) {
      into[key] = value;
      if (nameMap) work.push([value, into, key, false]);
      else if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string')
        into[key] = retarget(value);
      else if (!DATA_KEYS.has(key)) work.push([value, into, key, NAME_MAP_KEYS.has(key)]);
    }
  };
  copyObject(schema, root, false);
  for (let job = work.pop(); job !== undefined; job = work.pop()) {
    const [node, parent, key, nameMap] = job;
    if (Array.isArray(node)) {
      const copy: unknown[] = [...node];
      parent[key] = copy;
      copy.forEach((item, index) =>
        work.push([item, copy as unknown as Record<number, unknown>, index, false]),
      );
    } else if (isRecord(node) && (nameMap || !newBase(node.$id))) {
      const copy: Record<string, unknown> = {};
      parent[key] = copy;
      copyObject(node, copy, nameMap);
    }
  }
  return root;
}

/** The 2025-era form of a non-object outputSchema. */
function wrapOutputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const $schema = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    properties: { result: newBase(schema.$id) ? schema : retargetLocalRefs(schema) },
    required: ['result'],
  };
}

// One wrapped list per advertised array (the same until the registry rebuilds), so its JSON is made once too.
const wrappedLists = new WeakMap<readonly Tool[], Tool[]>();

/** The tool list as the 2025-era wire advertises it: `tools` itself unless a tool needs its schema wrapped. */
export function legacyToolList(tools: Tool[]): Tool[] {
  if (!tools.some((tool) => nonObjectRoot(tool.outputSchema))) return tools;
  let wrapped = wrappedLists.get(tools);
  if (wrapped === undefined) {
    wrapped = tools.map((tool) =>
      nonObjectRoot(tool.outputSchema)
        ? ({ ...tool, outputSchema: wrapOutputSchema(tool.outputSchema as Record<string, unknown>) } as Tool)
        : tool,
    );
    wrappedLists.set(tools, wrapped);
  }
  return wrapped;
}

/** A tools/call result as the 2025-era wire carries it for a tool advertising `outputSchema`. */
export function projectLegacyToolResult(result: CallToolResult, outputSchema: unknown): CallToolResult {
  let projected: CallToolResult = result.content === undefined ? { ...result, content: [] } : result;
  const structured = projected.structuredContent as unknown;
  if (structured === undefined) return projected;
  const nonObjectValue = !isRecord(structured);
  if (nonObjectValue && !projected.content.some((block) => block.type === 'text'))
    projected = {
      ...projected,
      content: [...projected.content, { type: 'text', text: JSON.stringify(structured) }],
    };
  if (!nonObjectValue && !nonObjectRoot(outputSchema)) return projected;
  return { ...projected, structuredContent: { result: structured } };
}
