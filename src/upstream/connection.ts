/**
 * One live connection to one upstream MCP server: an SDK Client over a fresh transport, era negotiation,
 * list fetching, tool calls with progress/cancellation/timeout, and the routing of upstream-initiated
 * elicitation to the caller.
 * Longer than most files on purpose: every handler closes over the one SDK client and transport of the
 * connection and its close path; split apart, each piece would need that state passed in.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type CompleteRequest,
  type CompleteResult,
  type Tool,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import { jsonShapeExcess, MAX_JSON_DEPTH } from '../audit/index.ts';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { callerCapabilityError } from './capability-errors.ts';
import { attachDirectToolCalls } from './direct-tool-call.ts';
import { createClientRequestRouter, type DeclineReason } from './client-request-router.ts';
import { linearJsonSchemaValidator } from './foreign-schema.ts';
import { createListenSubscriptions } from './listen-subscriptions.ts';
import { createNotificationGuard, FLOOD_SECONDS, NOTIFICATIONS_PER_SECOND } from './notification-guard.ts';
import { PORTCULLIS_VERSION } from '../shared/index.ts';
import { fetchCheckedTools } from './tool-list.ts';
import { createTransport, type TransportContext } from './transports.ts';
import type {
  CallerCapabilities,
  DeclinedRequest,
  UpstreamCallOptions,
  UpstreamPromptOptions,
  UpstreamRetry,
  UpstreamSnapshot,
} from './types.ts';
import type { Era } from '../shared/index.ts';

/** The signal of a call that cannot be cancelled. */
const NEVER_ABORTED = new AbortController().signal;

/** The gateway's identity toward upstream servers. */
export const GATEWAY_CLIENT_INFO = { name: 'portcullis', version: PORTCULLIS_VERSION } as const;

/** Callbacks from a live connection. */
export interface ConnectionEvents {
  /** The connection closed (process exit, network drop, or close()). */
  onClose(error?: Error): void;
  /** The upstream said one of its lists changed. */
  onListChanged(kind: 'tools' | 'prompts' | 'resources'): void;
  /** An upstream elicitation or sampling request could not be routed to a caller and was declined. */
  onClientRequestDeclined?(reason: DeclineReason, request: DeclinedRequest): void;
  /** The upstream said a resource someone subscribed to changed. */
  onResourceUpdated?(uri: string): void;
  /** A 2026-era subscription stream the upstream dropped could not be re-opened at once (it is retried). */
  onSubscriptionLost?(uri: string, error: Error): void;
  /** A subscription stream reported lost is open again. */
  onSubscriptionRestored?(uri: string): void;
  /**
   * A request the connection makes on its own, with no caller to report to, failed: the 2026-era `listen` stream
   * that carries list changes (without it, changes arrive only on the next refresh), or the legacy log level.
   */
  onBackgroundFailure?(request: 'listen' | 'set_logging_level', message: string): void;
}

/** A connected upstream. */
export interface UpstreamConnection {
  readonly era: Era;
  readonly protocolVersion: string | undefined;
  readonly serverInfo: { name: string; version: string } | undefined;
  /** The `instructions` of the initialize result. */
  readonly instructions: string | undefined;
  /** Fetches tools, prompts and resources (empty lists where the capability is absent). */
  fetchLists(): Promise<
    Pick<UpstreamSnapshot, 'tools' | 'rejectedTools' | 'prompts' | 'resources' | 'resourceTemplates'>
  >;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamCallOptions,
  ): Promise<CallToolResult>;
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options?: UpstreamPromptOptions,
  ): Promise<GetPromptResult>;
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  /** Asks for argument completions; no suggestions when the upstream does not offer completions. */
  complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult>;
  /** Subscribes to changes of a resource; UPSTREAM_ERROR when the upstream offers no subscriptions. */
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  /** Checks the upstream still answers (ping on legacy, server/discover on modern); rejects when it does not. */
  probe(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

function negotiation(
  protocol: UpstreamConfig['protocol'],
  connectTimeoutMs: number,
): VersionNegotiationOptions | undefined {
  if (protocol === 'legacy') return undefined;
  if (protocol === 'modern') return { mode: { pin: '2026-07-28' } };
  // The era probe must end well inside the connect deadline: a close landing while the SDK probes on its
  // sibling process leaves that process running (and connect() pending).
  return { mode: 'auto', probe: { timeoutMs: Math.min(5_000, Math.floor(connectTimeoutMs / 2)) } };
}

/** Connects to the upstream; rejects with UPSTREAM_UNAVAILABLE naming the upstream and the cause. */
export async function connectUpstream(
  config: UpstreamConfig,
  context: TransportContext,
  events: ConnectionEvents,
  connectTimeoutMs = 30_000,
): Promise<UpstreamConnection> {
  const negotiationOptions = negotiation(config.protocol, connectTimeoutMs);
  const client = new Client(GATEWAY_CLIENT_INFO, {
    // Sampling is offered only where configured: it lets the server spend the client's model.
    capabilities: { elicitation: { form: {} }, ...(config.sampling ? { sampling: {} } : {}) },
    ...(negotiationOptions === undefined ? {} : { versionNegotiation: negotiationOptions }),
    // The upstream writes both a tool's outputSchema and the result checked against it.
    jsonSchemaValidator: linearJsonSchemaValidator(),
  });
  const router = createClientRequestRouter((reason, request) =>
    events.onClientRequestDeclined?.(reason, request),
  );
  client.setRequestHandler('elicitation/create', (request) => router.route(request.params));
  if (config.sampling) {
    client.setRequestHandler('sampling/createMessage', (request) => router.routeSampling(request.params));
  }
  const guard = createNotificationGuard();
  let floodError: Error | undefined;
  /** Handles a notification only while the upstream stays within its notification budget. */
  const budgeted =
    <A extends unknown[]>(handle: (...args: A) => void) =>
    (...args: A): void => {
      const verdict = guard.admit();
      if (verdict === 'handle') return handle(...args);
      if (verdict === 'disconnect') {
        floodError = new Error(
          `sent more than ${NOTIFICATIONS_PER_SECOND} notifications a second for ${FLOOD_SECONDS} s ` +
            `(${guard.dropped} dropped) and was disconnected`,
        );
        // The flood error above is what onClose reports; a failure to close an abandoned link adds nothing.
        void client.close().catch(() => {});
      }
    };
  client.setNotificationHandler(
    'notifications/message',
    budgeted((notification) => router.routeLog(notification.params)),
  );
  client.setNotificationHandler(
    'notifications/resources/updated',
    budgeted((notification) => events.onResourceUpdated?.(notification.params.uri)),
  );
  client.setNotificationHandler(
    'notifications/tools/list_changed',
    budgeted(() => events.onListChanged('tools')),
  );
  client.setNotificationHandler(
    'notifications/prompts/list_changed',
    budgeted(() => events.onListChanged('prompts')),
  );
  client.setNotificationHandler(
    'notifications/resources/list_changed',
    budgeted(() => events.onListChanged('resources')),
  );

  const listens = createListenSubscriptions({
    client,
    upstreamId: config.id,
    timeoutMs: config.callTimeoutMs,
    onLost: (uri, error) => events.onSubscriptionLost?.(uri, error),
    onRestored: (uri) => events.onSubscriptionRestored?.(uri),
  });

  let closedByUs = false;
  const transport = createTransport(config, context);
  client.onclose = () => {
    listens.closeAll();
    if (!closedByUs) events.onClose(floodError ?? fatalTransportError);
  };
  /** Why the transport dropped the link on its own (an oversized message), named in the close and the calls it fails. */
  let fatalTransportError: Error | undefined;
  client.onerror = (error) => {
    // Transport-level noise (a dropped SSE stream, a stray frame) is reported through onclose when fatal; an
    // oversized stdio message is fatal (the stream cannot be re-synchronised), so its cause is kept for the report.
    const oversized = /ReadBuffer exceeded maximum size of (\d+)/.exec(error.message);
    if (oversized) {
      const limit = Number(oversized[1] ?? STDIO_DEFAULT_MAX_BUFFER_SIZE);
      fatalTransportError = new Error(
        `sent a message larger than ${limit} bytes, the most one stdio message may hold; the link was dropped`,
      );
    }
  };

  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  // A close() while the SDK probes the era on a sibling process can leave connect() pending forever, so the
  // deadline rejects on its own. Closed by us: the failure is reported once, by this rejection, never via onClose.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      closedByUs = true;
      reject(new Error('connect timeout'));
    }, connectTimeoutMs);
  });
  try {
    await Promise.race([client.connect(transport), deadline]);
  } catch (error) {
    closedByUs = true;
    // The connect failure is what is reported; closing the half-open client is best effort.
    await client.close().catch(() => {});
    const why = timedOut
      ? `it did not complete the MCP handshake within ${connectTimeoutMs} ms`
      : describeError(error);
    throw new PortcullisError(
      'UPSTREAM_UNAVAILABLE',
      `upstream "${config.id}" could not be connected: ${why}`,
      {
        cause: error,
      },
    );
  } finally {
    clearTimeout(timer);
  }

  const era = client.getProtocolEra() ?? 'legacy';
  const capabilities = client.getServerCapabilities() ?? {};
  if (era === 'legacy' && capabilities.logging) {
    // Ask for everything; the downstream server filters by each client's own level before relaying.
    void client.setLoggingLevel('debug').catch((error: unknown) => {
      if (!closedByUs) events.onBackgroundFailure?.('set_logging_level', describeError(error));
    });
  }
  if (era === 'modern' && (capabilities.tools?.listChanged || capabilities.prompts?.listChanged)) {
    // Modern servers deliver change notifications only on a subscriptions/listen stream.
    void client
      .listen({
        ...(capabilities.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(capabilities.prompts?.listChanged ? { promptsListChanged: true } : {}),
        ...(capabilities.resources?.listChanged ? { resourcesListChanged: true } : {}),
      })
      .catch((error: unknown) => {
        // Closing while the stream opens rejects it too; that is no failure worth a line.
        if (!closedByUs) events.onBackgroundFailure?.('listen', describeError(error));
      });
  }

  /**
   * Registers a prompt, resource or completion request with the router as a request whose caller cannot be asked:
   * a question the upstream sends meanwhile is declined (alone) or ambiguous (beside a tool call), never routed to
   * a tool call's caller who did not cause it.
   */
  const trackUnaskable = (signal: AbortSignal | undefined) =>
    router.track({ askClient: undefined, signal: signal ?? NEVER_ABORTED });

  // Plain calls skip the SDK client's request machinery; see direct-tool-call.ts for when that is safe.
  const direct = attachDirectToolCalls(transport);
  /** Listed tools without an outputSchema (the SDK path validates structured content against one). */
  let plainTools = new Set<string>();
  /**
   * The checked definitions by name: the SDK checks structured content against the definition a call names, and
   * the list is fetched past the SDK (tool-list.ts), so its own cache of listed tools stays empty.
   */
  let definitions = new Map<string, Tool>();
  const serverVersion = client.getServerVersion();
  return {
    era,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverInfo: serverVersion ? { name: serverVersion.name, version: serverVersion.version } : undefined,
    instructions: client.getInstructions(),
    async fetchLists() {
      const [{ tools, rejected }, prompts, resources, resourceTemplates] = await Promise.all([
        capabilities.tools
          ? fetchCheckedTools(client, config.callTimeoutMs, config.maxTools)
          : { tools: [], rejected: [] },
        capabilities.prompts ? client.listPrompts().then((r) => r.prompts) : [],
        capabilities.resources ? client.listResources().then((r) => r.resources) : [],
        capabilities.resources
          ? client
              .listResourceTemplates()
              .then((r) => r.resourceTemplates)
              // Templates are optional within the resources capability; many servers lack the method.
              .catch(() => [])
          : [],
      ]);
      plainTools = new Set(tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name));
      definitions = new Map(tools.map((tool) => [tool.name, tool]));
      return { tools, rejectedTools: rejected, prompts, resources, resourceTemplates };
    },
    async callTool(name, args, options) {
      const timeout = options.timeoutMs ?? config.callTimeoutMs;
      // Progress restarts the timeout; this caps the whole call either way.
      const maxTotalTimeout = timeout * 10;
      const meta = callMeta(options, era);
      const untrack = router.track({
        askClient: options.askClient,
        askSampling: options.askSampling,
        onLog: options.onLog,
        onDeclined: options.onDeclined,
        signal: options.signal ?? NEVER_ABORTED,
      });
      const relay = era === 'modern' ? options.relayInput : undefined;
      try {
        if (era === 'legacy' && plainTools.has(name)) {
          return await direct.call(name, args, {
            signal: options.signal,
            timeoutMs: timeout,
            maxTotalTimeoutMs: maxTotalTimeout,
            meta,
            onProgress: options.onProgress,
          });
        }
        const definition = definitions.get(name);
        const callMetaOut = relay === undefined ? meta : { ...meta, ...declaredCapabilities(relay, config) };
        const result = (await client.callTool(
          {
            name,
            arguments: args,
            ...(callMetaOut ? { _meta: callMetaOut } : {}),
            ...retryParams(relay, options.retry),
          },
          {
            ...(relay ? { allowInputRequired: true } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
            timeout,
            resetTimeoutOnProgress: true,
            maxTotalTimeout,
            ...(options.onProgress ? { onprogress: options.onProgress } : {}),
            ...(definition === undefined ? {} : { toolDefinition: definition }),
          },
        )) as CallToolResult;
        return refuseUnofferedSampling(config, result);
      } catch (error) {
        if (options.signal?.aborted) throw cancelled(config.id, `call to ${name}`, error);
        throw (
          unencodableCall(config.id, name, args, error) ??
          callerCapabilityError(config, relay, name, error) ??
          (fatalTransportError &&
            new PortcullisError(
              'UPSTREAM_UNAVAILABLE',
              `upstream "${config.id}" ${fatalTransportError.message}`,
              {
                cause: error,
                reason: 'message-too-large',
              },
            )) ??
          toUpstreamError(config.id, name, error)
        );
      } finally {
        untrack();
      }
    },
    async getPrompt(name, args, options = {}) {
      const relay = era === 'modern' ? options.relayInput : undefined;
      const untrack = trackUnaskable(options.signal);
      try {
        return refuseUnofferedSampling(
          config,
          await client.getPrompt(
            {
              name,
              ...(args ? { arguments: args } : {}),
              ...(relay ? { _meta: declaredCapabilities(relay, config) } : {}),
              ...retryParams(relay, options.retry),
            },
            {
              timeout: config.callTimeoutMs,
              ...(relay ? { allowInputRequired: true } : {}),
              ...(options.signal ? { signal: options.signal } : {}),
            },
          ),
        );
      } catch (error) {
        throw settledError(config.id, `prompt ${name}`, options.signal, error);
      } finally {
        untrack();
      }
    },
    async readResource(uri, signal) {
      const untrack = trackUnaskable(signal);
      try {
        return await client.readResource(
          { uri },
          { timeout: config.callTimeoutMs, ...(signal ? { signal } : {}) },
        );
      } catch (error) {
        throw settledError(config.id, `resource ${uri}`, signal, error);
      } finally {
        untrack();
      }
    },
    async complete(params, signal) {
      if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      const untrack = trackUnaskable(signal);
      try {
        return await client.complete(params, {
          timeout: config.callTimeoutMs,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        throw settledError(config.id, 'completion/complete', signal, error);
      } finally {
        untrack();
      }
    },
    async subscribeResource(uri) {
      if (!client.getServerCapabilities()?.resources?.subscribe) {
        throw new PortcullisError(
          'UPSTREAM_ERROR',
          `upstream "${config.id}" does not offer resource subscriptions`,
          { reason: 'no-subscriptions' },
        );
      }
      if (era === 'modern') return listens.subscribe(uri);
      try {
        await client.subscribeResource({ uri }, { timeout: config.callTimeoutMs });
      } catch (error) {
        throw toUpstreamError(config.id, `resources/subscribe ${uri}`, error);
      }
    },
    async unsubscribeResource(uri) {
      if (era === 'modern') return listens.unsubscribe(uri);
      try {
        await client.unsubscribeResource({ uri }, { timeout: config.callTimeoutMs });
      } catch (error) {
        throw toUpstreamError(config.id, `resources/unsubscribe ${uri}`, error);
      }
    },
    async probe(timeoutMs) {
      try {
        if (era === 'modern') await client.discover({ timeout: timeoutMs });
        else await client.ping({ timeout: timeoutMs });
      } catch (error) {
        throw toUpstreamError(config.id, 'a liveness check', error);
      }
    },
    async close() {
      closedByUs = true;
      listens.closeAll();
      // Closing is the end of this connection either way; a transport already gone cannot be closed twice.
      await client.close().catch(() => {});
    },
  };
}

/**
 * A relayed input round that asks for sampling reaches no client unless the upstream is trusted with the client's
 * model (`sampling: true`), as on the legacy hop where the capability is not even offered: UPSTREAM_ERROR.
 */
function refuseUnofferedSampling<T>(config: UpstreamConfig, result: T): T {
  if (config.sampling) return result;
  const requests = (result as { inputRequests?: unknown } | null)?.inputRequests;
  if (requests === null || typeof requests !== 'object') return result;
  const asksSampling = Object.values(requests).some(
    (request: unknown) => (request as { method?: unknown } | null)?.method === 'sampling/createMessage',
  );
  if (!asksSampling) return result;
  throw new PortcullisError(
    'UPSTREAM_ERROR',
    `upstream "${config.id}" asked the client for sampling, which is not enabled for it (sampling: true)`,
    { reason: 'sampling-not-enabled' },
  );
}

/**
 * The per-request client capabilities a relayed call declares upstream: what the caller can answer, and sampling
 * only where the upstream is trusted with it. Overrides the connection's own (the SDK lets request `_meta` win).
 */
function declaredCapabilities(caller: CallerCapabilities, config: UpstreamConfig): Record<string, unknown> {
  return {
    [CLIENT_CAPABILITIES_META_KEY]: {
      ...(caller.elicitation ? { elicitation: { form: {} } } : {}),
      ...(caller.sampling && config.sampling ? { sampling: {} } : {}),
      ...(caller.roots ? { roots: {} } : {}),
    },
  };
}

/**
 * The retry fields of a relayed round (`inputResponses`, the upstream's own `requestState`); none unless the
 * link is modern and the caller relays input rounds.
 */
function retryParams(
  relay: CallerCapabilities | undefined,
  retry: UpstreamRetry | undefined,
): Partial<UpstreamRetry> {
  if (relay === undefined || retry === undefined) return {};
  return {
    inputResponses: retry.inputResponses,
    ...(retry.requestState === undefined ? {} : { requestState: retry.requestState }),
  };
}

/** The `_meta` of an upstream call: forwarded trace context, plus a log level on modern links that relay logs. */
function callMeta(options: UpstreamCallOptions, era: Era): Record<string, unknown> | undefined {
  if (era === 'modern' && options.onLog) return { ...options.meta, [LOG_LEVEL_META_KEY]: 'debug' };
  return options.meta;
}

/** A short description of a connection or call failure. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** SDK failures of one request on a live link (as opposed to a closed or broken transport). */
const CALL_LEVEL_SDK_ERRORS: ReadonlySet<string> = new Set([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.InputRequiredRoundsExceeded,
  SdkErrorCode.ListPaginationExceeded,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
  SdkErrorCode.CapabilityNotSupported,
]);

/**
 * The call's own failure when its arguments could not be encoded for the wire (nested too deep for the encoder,
 * a cycle, a bigint): the link is fine and stays up. Undefined when the failure came from elsewhere.
 */
function unencodableCall(
  upstreamId: string,
  name: string,
  args: Record<string, unknown>,
  error: unknown,
): PortcullisError | undefined {
  if (error instanceof PortcullisError || error instanceof SdkError || error instanceof ProtocolError)
    return undefined;
  let encodable = jsonShapeExcess(args, MAX_JSON_DEPTH, Number.POSITIVE_INFINITY) !== 'too-deep';
  if (encodable) {
    try {
      JSON.stringify(args);
    } catch {
      // A cycle, a bigint or a throwing toJSON: answered below as INVALID_ARGUMENTS.
      encodable = false;
    }
  }
  if (encodable) return undefined;
  return new PortcullisError(
    'INVALID_ARGUMENTS',
    `arguments of ${name} cannot be encoded as JSON for upstream "${upstreamId}" (nested deeper than ` +
      `${MAX_JSON_DEPTH} levels, a cycle, or a value JSON cannot hold); only this call failed`,
    { reason: 'unencodable', cause: error },
  );
}

/** A request its own client cancelled: not a fault of the upstream, so the connection stays up. */
function cancelled(upstreamId: string, what: string, error: unknown): PortcullisError {
  return new PortcullisError('UPSTREAM_ERROR', `${what} on upstream "${upstreamId}" was cancelled`, {
    cause: error,
  });
}

/** The error of a failed request: cancelled when its caller's signal aborted, else as toUpstreamError. */
function settledError(
  upstreamId: string,
  what: string,
  signal: AbortSignal | undefined,
  error: unknown,
): PortcullisError {
  return signal?.aborted ? cancelled(upstreamId, what, error) : toUpstreamError(upstreamId, what, error);
}

function toUpstreamError(upstreamId: string, what: string, error: unknown): PortcullisError {
  if (error instanceof PortcullisError) return error;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new PortcullisError(
      'UPSTREAM_TIMEOUT',
      `upstream "${upstreamId}" did not answer ${what} in time`,
      {
        cause: error,
      },
    );
  }
  if (
    error instanceof ProtocolError ||
    (error instanceof SdkError && CALL_LEVEL_SDK_ERRORS.has(error.code))
  ) {
    // The upstream answered (a JSON-RPC error, or an answer the SDK could not use): it is alive, only this call
    // failed, so the connection stays up.
    return new PortcullisError(
      'UPSTREAM_ERROR',
      `upstream "${upstreamId}" failed ${what}: ${describeError(error)}`,
      {
        cause: error,
        details: { upstreamCode: error.code },
      },
    );
  }
  // Anything else (connection closed, HTTP failure, network error) means the connection is no longer usable.
  return new PortcullisError(
    'UPSTREAM_UNAVAILABLE',
    `upstream "${upstreamId}" is unreachable (${describeError(error)}) during ${what}; it will be reconnected`,
    { cause: error },
  );
}
