/**
 * A connection to a 2025-era upstream on the gateway's own JSON-RPC session (wire.ts), no SDK Client: the
 * `initialize` handshake as the SDK client ran it (the newest 2025-era version the SDK lists offered, any 2025-era
 * one it lists accepted), then lists, tool calls, prompts, resources, completion, subscriptions and ping, each
 * answer checked for its shape (shapes.ts) before anything reads it. The upstream's own requests
 * (elicitation, sampling where configured, ping) are routed through the client-request router; its notifications
 * pass the notification budget. Failures take the SDK's error types and the mapping of link-support.ts.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CompleteResult,
  type GetPromptResult,
  type Implementation,
  type ReadResourceResult,
  type ServerCapabilities,
  type Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { isRecord, LEGACY_PROTOCOL_VERSIONS } from '../shared/index.ts';
import { createClientRequestRouter } from './client-request-router.ts';
import type { ConnectionEvents, UpstreamConnection } from './connection.ts';
import { UPSTREAM_REQUEST_CHECKS } from './shapes.ts';
import { checked, createOutputChecks, fetchAllLists, relayNotification } from './link-requests.ts';
import { createWire, type WireRequestOptions } from './wire.ts';
import {
  cancelled,
  describeError,
  failedCallError,
  createLinkEnding,
  GATEWAY_CLIENT_INFO,
  gatewayCapabilities,
  toUpstreamError,
  trackCall,
  unaskable,
} from './link-support.ts';
import type { UpstreamElicitation, UpstreamSampling } from './types.ts';

/**
 * Connects over `transport` (started already when `started`, the era probe's connection handed over):
 * initialize, then notifications/initialized. Rejects with the SDK's error types (or the transport's own) when
 * the handshake fails or `deadline` aborts; the transport is closed then, and `events.onClose` is never told of a
 * link that did not open.
 */
export async function connectLegacy(
  config: UpstreamConfig,
  transport: Transport,
  events: ConnectionEvents,
  deadline: AbortSignal,
  started = false,
): Promise<UpstreamConnection> {
  const router = createClientRequestRouter((reason, request) =>
    events.onClientRequestDeclined?.(reason, request),
  );
  let opened = false;
  const ending = createLinkEnding(() => wire.close());

  const wire = createWire(
    transport,
    {
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
      onNotification: (method, params) => relayNotification(router, events, method, params),
      admitNotification: () => ending.admit(),
      onClose() {
        if (opened && !ending.closedByUs) events.onClose(ending.reason);
      },
      onError: (error) => ending.onError(error),
    },
    { started },
  );

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
    ending.closedByUs = true;
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
        if (!ending.closedByUs) events.onBackgroundFailure?.('set_logging_level', describeError(error));
      });
  }

  const request = async <T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: Partial<WireRequestOptions>,
  ) =>
    checked<T>(method, await wire.request(method, params, { timeoutMs: config.callTimeoutMs, ...options }));

  const page = (method: string) => (cursor: string | undefined) =>
    wire.request(method, cursor === undefined ? undefined : { cursor }, { timeoutMs: config.callTimeoutMs });
  const outputs = createOutputChecks();

  return {
    era: 'legacy',
    protocolVersion,
    serverInfo: { name: serverInfo.name, version: serverInfo.version },
    instructions,
    async fetchLists() {
      const lists = await fetchAllLists(capabilities, page, config.maxTools);
      outputs.reset(lists.tools);
      return lists;
    },
    async callTool(name, args, options) {
      const timeout = options.timeoutMs ?? config.callTimeoutMs;
      const untrack = trackCall(router, options);
      try {
        const outputCheck = outputs.checkerFor(name);
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
        outputCheck?.(result);
        return result.content === undefined ? { ...result, content: [] } : result;
      } catch (error) {
        if (options.signal?.aborted) throw cancelled(config.id, `call to ${name}`, error);
        throw failedCallError(config.id, name, args, error, ending.fatal);
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
      ending.closedByUs = true;
      // Closing is the end of this connection either way; a transport already gone cannot be closed twice.
      await wire.close().catch(() => {});
    },
  };
}
