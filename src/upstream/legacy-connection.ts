/**
 * A connection to a 2025-era upstream on the gateway's own JSON-RPC session (legacy-wire.ts), no SDK Client: the
 * `initialize` handshake as the SDK client ran it (the newest 2025-era version the SDK lists offered, any 2025-era
 * one it lists accepted), then lists, tool calls, prompts, resources, completion, subscriptions and ping, each
 * answer checked for its shape (legacy-shapes.ts) before anything reads it. The upstream's own requests
 * (elicitation, sampling where configured, ping) are routed through the client-request router; its notifications
 * pass the notification budget. Failures take the SDK's error types and the mapping of link-support.ts.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
  type ServerCapabilities,
  type Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { isRecord, LEGACY_PROTOCOL_VERSIONS } from '../shared/index.ts';
import { createClientRequestRouter } from './client-request-router.ts';
import type { ConnectionEvents, UpstreamConnection } from './connection.ts';
import { linearJsonSchemaValidator } from './foreign-schema.ts';
import {
  LIST_CHECKS,
  NOTIFICATION_CHECKS,
  readListPage,
  RESULT_CHECKS,
  UPSTREAM_REQUEST_CHECKS,
  type ListMethod,
} from './legacy-shapes.ts';
import { createLegacyWire, type WireRequestOptions } from './legacy-wire.ts';
import {
  cancelled,
  describeError,
  failedCallError,
  fatalTransportError,
  GATEWAY_CLIENT_INFO,
  gatewayCapabilities,
  notificationBudget,
  toUpstreamError,
  trackCall,
  unaskable,
} from './link-support.ts';
import { fetchCheckedTools } from './tool-list.ts';
import type { UpstreamElicitation, UpstreamSampling } from './types.ts';

/** Pages of a list followed at most (a cursor loop must end; the SDK client's own cap). */
const MAX_LIST_PAGES = 64;

/** A checked answer, or SdkError(InvalidResult) naming what is wrong with it. */
function checked<T>(method: string, result: unknown): T {
  const problem = RESULT_CHECKS[method]?.(result);
  if (problem !== undefined) {
    throw new SdkError(
      SdkErrorCode.InvalidResult,
      `the upstream answered ${method} with an invalid result: ${problem}`,
    );
  }
  return result as T;
}

/** What an output schema check says of a structured result: nothing when it passes. */
type OutputCheck = (structured: unknown) => string | undefined;

/**
 * Connects over `transport` (not yet started): initialize, then notifications/initialized. Rejects with the
 * SDK's error types (or the transport's own) when the handshake fails or `deadline` aborts; the transport is
 * closed then, and `events.onClose` is never told of a link that did not open.
 */
export async function connectLegacy(
  config: UpstreamConfig,
  transport: Transport,
  events: ConnectionEvents,
  deadline: AbortSignal,
): Promise<UpstreamConnection> {
  const router = createClientRequestRouter((reason, request) =>
    events.onClientRequestDeclined?.(reason, request),
  );
  let opened = false;
  let closedByUs = false;
  /** Why the link was dropped on the gateway's side (a flood, an oversized message), named in its close. */
  let fatal: Error | undefined;
  let floodError: Error | undefined;
  const budget = notificationBudget((error) => {
    floodError = error;
    // The flood error is what the close reports; a failure to close an abandoned link adds nothing.
    void wire.close().catch(() => {});
  });

  const wire = createLegacyWire(transport, {
    async onRequest(method, params) {
      if (method === 'ping') return {};
      const check = UPSTREAM_REQUEST_CHECKS[method];
      if (check === undefined || (method === 'sampling/createMessage' && !config.sampling)) {
        throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      }
      const problem = check(params);
      if (problem !== undefined) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${problem}`);
      }
      if (method === 'elicitation/create') {
        if (params.mode === 'url') {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            'Client does not support URL-mode elicitation requests',
          );
        }
        return router.route(params as unknown as UpstreamElicitation);
      }
      return router.routeSampling(params as unknown as UpstreamSampling);
    },
    onNotification(method, params) {
      // A notification of the wrong shape is dropped, as the SDK client dropped one its schema refused.
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
    },
    admitNotification: () => budget.admit(),
    onClose() {
      if (opened && !closedByUs) events.onClose(floodError ?? fatal);
    },
    onError(error) {
      fatal ??= fatalTransportError(error);
    },
  });

  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(deadline.reason);
    if (deadline.aborted) fail();
    else deadline.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  let capabilities: ServerCapabilities;
  let protocolVersion: string;
  let serverInfo: Implementation;
  let instructions: string | undefined;
  try {
    await Promise.race([wire.start(), aborted]);
    const result = checked<{
      protocolVersion: string;
      capabilities: ServerCapabilities;
      serverInfo: Implementation;
      instructions?: string;
    }>(
      'initialize',
      await wire.request(
        'initialize',
        {
          protocolVersion: LEGACY_PROTOCOL_VERSIONS[0],
          capabilities: gatewayCapabilities(config),
          clientInfo: GATEWAY_CLIENT_INFO,
        },
        // The deadline ends the handshake; this only keeps the request's own timer from firing first.
        { timeoutMs: 2 ** 31 - 1, signal: deadline },
      ),
    );
    if (!LEGACY_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new Error(`Server's protocol version is not supported: ${result.protocolVersion.slice(0, 64)}`);
    }
    ({ capabilities, protocolVersion, serverInfo, instructions } = result);
    transport.setProtocolVersion?.(protocolVersion);
    await wire.notify('notifications/initialized');
  } catch (error) {
    closedByUs = true;
    // The handshake failure is what is reported; closing the half-open link is best effort.
    await wire.close().catch(() => {});
    throw error;
  }
  opened = true;

  if (capabilities.logging) {
    // Ask for everything; the downstream server filters by each client's own level before relaying.
    wire
      .request('logging/setLevel', { level: 'debug' }, { timeoutMs: config.callTimeoutMs })
      .then((result) => checked('logging/setLevel', result))
      .catch((error: unknown) => {
        if (!closedByUs) events.onBackgroundFailure?.('set_logging_level', describeError(error));
      });
  }

  const request = async <T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: Partial<WireRequestOptions>,
  ) =>
    checked<T>(method, await wire.request(method, params, { timeoutMs: config.callTimeoutMs, ...options }));

  const listAll = async <T>(method: ListMethod): Promise<T[]> => {
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
      const result = await wire.request(method, cursor === undefined ? undefined : { cursor }, {
        timeoutMs: config.callTimeoutMs,
      });
      const read = readListPage(result, key);
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
  };

  const validator = linearJsonSchemaValidator();
  /** The outputSchema of each listed tool that has one; its check is compiled on the tool's first call. */
  let outputSchemas = new Map<string, object>();
  /** Compiled checks by tool name, or why the schema does not compile. */
  const outputChecks = new Map<string, OutputCheck | { compileError: string }>();
  const outputCheckOf = (name: string): OutputCheck | undefined => {
    const schema = outputSchemas.get(name);
    if (schema === undefined) return undefined;
    let check = outputChecks.get(name);
    if (check === undefined) {
      try {
        const validate = validator.getValidator(schema as object);
        check = (structured: unknown) => {
          const verdict = validate(structured);
          return verdict.valid ? undefined : verdict.errorMessage;
        };
      } catch (error) {
        check = { compileError: describeError(error).slice(0, 200) };
      }
      outputChecks.set(name, check);
    }
    if (typeof check === 'function') return check;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool '${name}' has an invalid outputSchema: ${check.compileError}`,
    );
  };

  return {
    era: 'legacy',
    protocolVersion,
    serverInfo: { name: serverInfo.name, version: serverInfo.version },
    instructions,
    async fetchLists() {
      const [{ tools, rejected }, prompts, resources, resourceTemplates] = await Promise.all([
        capabilities.tools
          ? fetchCheckedTools(
              (cursor) =>
                wire.request('tools/list', cursor === undefined ? undefined : { cursor }, {
                  timeoutMs: config.callTimeoutMs,
                }),
              config.maxTools,
            )
          : { tools: [], rejected: [] },
        capabilities.prompts ? listAll<Prompt>('prompts/list') : [],
        capabilities.resources ? listAll<Resource>('resources/list') : [],
        capabilities.resources
          ? // Templates are optional within the resources capability; many servers lack the method.
            listAll<ResourceTemplateType>('resources/templates/list').catch(() => [])
          : [],
      ]);
      outputSchemas = new Map();
      for (const tool of tools)
        if (tool.outputSchema !== undefined) outputSchemas.set(tool.name, tool.outputSchema);
      outputChecks.clear();
      return { tools, rejectedTools: rejected, prompts, resources, resourceTemplates };
    },
    async callTool(name, args, options) {
      const timeout = options.timeoutMs ?? config.callTimeoutMs;
      const untrack = trackCall(router, options);
      try {
        const outputCheck = outputCheckOf(name);
        const params: Record<string, unknown> = { name, arguments: args };
        if (options.meta) params._meta = options.meta;
        const result = checked<CallToolResult>(
          'tools/call',
          await wire.request('tools/call', params, {
            timeoutMs: timeout,
            // Progress restarts the timeout; this caps the whole call either way.
            maxTotalTimeoutMs: timeout * 10,
            signal: options.signal,
            onProgress: options.onProgress,
          }),
        );
        if (outputCheck !== undefined && !result.isError) {
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
        }
        return result.content === undefined ? { ...result, content: [] } : result;
      } catch (error) {
        if (options.signal?.aborted) throw cancelled(config.id, `call to ${name}`, error);
        throw failedCallError(config.id, name, args, error, fatal);
      } finally {
        untrack();
      }
    },
    getPrompt: (name, args, options = {}) =>
      unaskable(router, config.id, `prompt ${name}`, options.signal, () =>
        request<GetPromptResult>(
          'prompts/get',
          { name, ...(args ? { arguments: args } : {}) },
          { signal: options.signal },
        ),
      ),
    readResource: (uri, signal) =>
      unaskable(router, config.id, `resource ${uri}`, signal, () =>
        request<ReadResourceResult>('resources/read', { uri }, { signal }),
      ),
    async complete(params, signal) {
      if (!capabilities.completions) return { completion: { values: [] } };
      return unaskable(router, config.id, 'completion/complete', signal, () =>
        request<CompleteResult>('completion/complete', params as Record<string, unknown>, { signal }),
      );
    },
    async subscribeResource(uri) {
      if (!isRecord(capabilities.resources) || !capabilities.resources.subscribe) {
        throw new PortcullisError(
          'UPSTREAM_ERROR',
          `upstream "${config.id}" does not offer resource subscriptions`,
          { reason: 'no-subscriptions' },
        );
      }
      try {
        await request('resources/subscribe', { uri });
      } catch (error) {
        throw toUpstreamError(config.id, `resources/subscribe ${uri}`, error);
      }
    },
    async unsubscribeResource(uri) {
      try {
        await request('resources/unsubscribe', { uri });
      } catch (error) {
        throw toUpstreamError(config.id, `resources/unsubscribe ${uri}`, error);
      }
    },
    async probe(timeoutMs) {
      try {
        await request('ping', undefined, { timeoutMs });
      } catch (error) {
        throw toUpstreamError(config.id, 'a liveness check', error);
      }
    },
    async close() {
      closedByUs = true;
      // Closing is the end of this connection either way; a transport already gone cannot be closed twice.
      await wire.close().catch(() => {});
    },
  };
}
