/**
 * What both eras' links of the gateway's own do with an answer once it is off the wire: the shape check of a
 * result, the walk through a paged list, the upstream's notifications handed on, and the check of a tool's
 * structured content against its outputSchema (compiled once per listed tool, on its first call).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Prompt,
  type Resource,
  type ResourceTemplateType,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/client';
import type { ClientRequestRouter } from './client-request-router.ts';
import type { ConnectionEvents } from './connection.ts';
import { linearJsonSchemaValidator } from './foreign-schema.ts';
import { LIST_CHECKS, NOTIFICATION_CHECKS, readListPage, RESULT_CHECKS, type ListMethod } from './shapes.ts';
import { describeError } from './link-support.ts';
import { fetchCheckedTools } from './tool-list.ts';
import type { UpstreamSnapshot } from './types.ts';

/** Pages of a list followed at most (a cursor loop must end; the SDK client's own cap). */
const MAX_LIST_PAGES = 64;

/** A checked answer, or SdkError(InvalidResult) naming what is wrong with it. */
export function checked<T>(method: string, result: unknown): T {
  const problem = RESULT_CHECKS[method]?.(result);
  if (problem !== undefined) {
    throw new SdkError(
      SdkErrorCode.InvalidResult,
      `the upstream answered ${method} with an invalid result: ${problem}`,
    );
  }
  return result as T;
}

/** Every item of a paged list, each checked; `fetchPage` asks for one page (the first without a cursor). */
async function listAll<T>(
  method: ListMethod,
  fetchPage: (cursor: string | undefined) => Promise<unknown>,
): Promise<T[]> {
  const { key, entry } = LIST_CHECKS[method];
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; ; page += 1) {
    if (page === MAX_LIST_PAGES) {
      throw new SdkError(
        SdkErrorCode.ListPaginationExceeded,
        `${method}: exceeded ${MAX_LIST_PAGES} pages; the upstream's pagination did not end`,
      );
    }
    const read = readListPage(await fetchPage(cursor), key);
    if (typeof read === 'string') {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `the upstream answered ${method} with an invalid result: ${read}`,
      );
    }
    for (let index = 0; index < read.items.length; index += 1) {
      const problem = entry(read.items[index]);
      if (problem !== undefined) {
        throw new SdkError(
          SdkErrorCode.InvalidResult,
          `the upstream answered ${method} with an invalid result: ${key}[${items.length + index}]: ${problem}`,
        );
      }
    }
    items.push(...read.items);
    cursor = read.nextCursor;
    if (cursor === undefined) return items as T[];
  }
}

/** Asks for one page of a list method (the first without a cursor) and resolves with its unchecked result. */
type PageFetch = (method: string) => (cursor: string | undefined) => Promise<unknown>;

/** The upstream's tools, prompts, resources and templates (empty where the capability is absent); each checked. */
export async function fetchAllLists(
  capabilities: ServerCapabilities,
  page: PageFetch,
  maxTools: number | undefined,
): Promise<
  Pick<UpstreamSnapshot, 'tools' | 'rejectedTools' | 'prompts' | 'resources' | 'resourceTemplates'>
> {
  const [{ tools, rejected }, prompts, resources, resourceTemplates] = await Promise.all([
    capabilities.tools ? fetchCheckedTools(page('tools/list'), maxTools) : { tools: [], rejected: [] },
    capabilities.prompts ? listAll<Prompt>('prompts/list', page('prompts/list')) : [],
    capabilities.resources ? listAll<Resource>('resources/list', page('resources/list')) : [],
    capabilities.resources
      ? // Templates are optional within the resources capability; many servers lack the method.
        listAll<ResourceTemplateType>('resources/templates/list', page('resources/templates/list')).catch(
          () => [],
        )
      : [],
  ]);
  return { tools, rejectedTools: rejected, prompts, resources, resourceTemplates };
}

/** Hands a notification of the upstream on (one of the wrong shape is dropped, as the SDK client dropped it). */
export function relayNotification(
  router: ClientRequestRouter,
  events: ConnectionEvents,
  method: string,
  params: Record<string, unknown>,
): void {
  if (NOTIFICATION_CHECKS[method]?.(params) !== undefined) return;
  switch (method) {
    case 'notifications/message':
      router.routeLog(params as { level: string; logger?: string; data: unknown });
      return;
    case 'notifications/resources/updated':
      events.onResourceUpdated?.(params.uri as string);
      return;
    case 'notifications/tools/list_changed':
      return events.onListChanged('tools');
    case 'notifications/prompts/list_changed':
      return events.onListChanged('prompts');
    case 'notifications/resources/list_changed':
      return events.onListChanged('resources');
    default:
    // Other notifications carry nothing the gateway acts on.
  }
}

/** What an output schema check says of a structured result: nothing when it passes. */
type OutputCheck = (structured: unknown) => string | undefined;

/** The outputSchema checks of one link's listed tools. */
export interface OutputChecks {
  /** Takes the tools of a fresh list (their checks are compiled again, on each one's first call). */
  reset(tools: readonly Tool[]): void;
  /**
   * The check of a tool's complete result, or undefined when the tool has no outputSchema; throws a ProtocolError
   * (before anything is sent) when its schema does not compile.
   */
  checkerFor(name: string): ((result: CallToolResult) => void) | undefined;
}

/** Creates the output checks of one link (the upstream writes both the schema and the result checked against it). */
export function createOutputChecks(): OutputChecks {
  const validator = linearJsonSchemaValidator();
  let schemas = new Map<string, object>();
  const compiled = new Map<string, OutputCheck | { compileError: string }>();
  return {
    reset(tools) {
      schemas = new Map();
      for (const tool of tools)
        if (tool.outputSchema !== undefined) schemas.set(tool.name, tool.outputSchema);
      compiled.clear();
    },
    checkerFor(name) {
      const schema = schemas.get(name);
      if (schema === undefined) return undefined;
      let check = compiled.get(name);
      if (check === undefined) {
        try {
          const validate = validator.getValidator(schema);
          check = (structured: unknown) => {
            const verdict = validate(structured);
            return verdict.valid ? undefined : verdict.errorMessage;
          };
        } catch (error) {
          check = { compileError: describeError(error).slice(0, 200) };
        }
        compiled.set(name, check);
      }
      if (typeof check !== 'function') {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Tool '${name}' has an invalid outputSchema: ${check.compileError}`,
        );
      }
      const outputCheck = check;
      return (result) => {
        if (result.isError) return;
        if (result.structuredContent === undefined) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidRequest,
            `Tool ${name} has an output schema but did not return structured content`,
          );
        }
        const problem = outputCheck(result.structuredContent);
        if (problem !== undefined) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Structured content does not match the tool's output schema: ${problem}`,
          );
        }
      };
    },
  };
}
