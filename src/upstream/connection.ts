/**
 * One live connection to one upstream MCP server, by era: a 2025-era upstream gets the gateway's own client
 * (legacy-connection.ts), a 2026-era one the SDK Client; `protocol: auto` decides first (era-probe.ts). The SDK
 * side is here: lists, tool calls with progress/cancellation/timeout and relayed input rounds, prompts, resources,
 * completion, listen-stream subscriptions and the routing of upstream-initiated elicitation.
 * Longer than most files on purpose: every handler closes over the one SDK client and transport of the
 * connection and its close path; split apart, each piece would need that state passed in.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  LOG_LEVEL_META_KEY,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type CompleteRequest,
  type CompleteResult,
  type DiscoverResult,
  type StandardSchemaV1,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { callerCapabilityError } from './capability-errors.ts';
import { createClientRequestRouter, type DeclineReason } from './client-request-router.ts';
import { probeEra } from './era-probe.ts';
import { linearJsonSchemaValidator } from './foreign-schema.ts';
import { connectLegacy } from './legacy-connection.ts';
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
import { createListenSubscriptions } from './listen-subscriptions.ts';
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
import { MODERN_PROTOCOL_VERSION, type Era } from '../shared/index.ts';

/** Accepts any result: each tool of a tools/list page is checked by tool-list.ts, one by one. */
const ANY_RESULT: StandardSchemaV1<unknown, unknown> = {
  '~standard': { version: 1, vendor: 'portcullis', validate: (value) => ({ value }) },
};

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

/**
 * What the era probe of a `protocol: auto` upstream found, kept across its reconnects. Only a 2025-era verdict
 * whose probe could not keep its connection is kept (a server that stayed silent or exited on the probe: its probe
 * cost a wait and a process of its own); the next connect goes straight to the 2025-era handshake, and a connect
 * that then fails forgets the verdict, so a server whose era changed is probed again.
 */
export interface EraMemo {
  legacy: boolean;
}

/**
 * Connects to the upstream; rejects with UPSTREAM_UNAVAILABLE naming the upstream and the cause. `stop` (the
 * gateway closing) ends a connect in flight like its deadline: every process it started is closed.
 */
export async function connectUpstream(
  config: UpstreamConfig,
  context: TransportContext,
  events: ConnectionEvents,
  connectTimeoutMs = 30_000,
  memo: EraMemo = { legacy: false },
  stop?: AbortSignal,
): Promise<UpstreamConnection> {
  // The deadline ends the whole connect, the era probe included; a connect it ends is reported once, by the
  // rejection below, never through onClose.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('connect timeout')), connectTimeoutMs);
  const onStop = () => deadline.abort(new Error('the gateway closed'));
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  try {
    let discover: DiscoverResult | undefined;
    let open: Transport | undefined;
    let probedAlone = false;
    if (config.protocol === 'auto' && !memo.legacy) {
      // The era probe must end well inside the connect deadline, leaving time for the handshake after it.
      const verdict = await probeEra(
        config,
        context,
        Math.min(5_000, Math.floor(connectTimeoutMs / 2)),
        deadline.signal,
      );
      if (verdict.era === 'modern') discover = verdict.discover;
      open = verdict.open;
      probedAlone = verdict.era === 'legacy' && open === undefined;
    }
    const transport = open ?? createTransport(config, context);
    if (config.protocol === 'legacy' || (config.protocol === 'auto' && discover === undefined)) {
      try {
        const connection = await connectLegacy(config, transport, events, deadline.signal);
        if (probedAlone) memo.legacy = true;
        return connection;
      } catch (error) {
        memo.legacy = false;
        throw error;
      }
    }
    return await connectModern(config, transport, events, deadline.signal, discover);
  } catch (error) {
    const why = stop?.aborted
      ? 'the gateway closed while it connected'
      : deadline.signal.aborted
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
    stop?.removeEventListener('abort', onStop);
  }
}

/**
 * Connects the SDK Client at the 2026-era version: adopting `discover` when the era probe already asked, else
 * pinned (the connect-time `server/discover` must offer the version). Rejects with the SDK's errors.
 */
async function connectModern(
  config: UpstreamConfig,
  transport: ReturnType<typeof createTransport>,
  events: ConnectionEvents,
  deadline: AbortSignal,
  discover: DiscoverResult | undefined,
): Promise<UpstreamConnection> {
  const client = new Client(GATEWAY_CLIENT_INFO, {
    capabilities: gatewayCapabilities(config),
    versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
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
  let closedByUs = false;
  let floodError: Error | undefined;
  const budget = notificationBudget((error) => {
    floodError = error;
    // The flood error is what onClose reports; a failure to close an abandoned link adds nothing.
    void client.close().catch(() => {});
  });
  /** Handles a notification only while the upstream stays within its notification budget. */
  const budgeted =
    <A extends unknown[]>(handle: (...args: A) => void) =>
    (...args: A): void => {
      if (budget.admit()) handle(...args);
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

  client.onclose = () => {
    listens.closeAll();
    if (!closedByUs) events.onClose(floodError ?? fatal);
  };
  /** Why the transport dropped the link on its own (an oversized message), named in the close and the calls it fails. */
  let fatal: Error | undefined;
  client.onerror = (error) => {
    fatal ??= fatalTransportError(error);
  };

  // The deadline closes the half-open client; connect() is raced with it too, in case a close leaves it pending.
  const onDeadline = () => void client.close().catch(() => {});
  const aborted = new Promise<never>((_, reject) => {
    if (deadline.aborted) reject(deadline.reason);
    else deadline.addEventListener('abort', () => reject(deadline.reason), { once: true });
  });
  aborted.catch(() => {});
  deadline.addEventListener('abort', onDeadline, { once: true });
  try {
    await Promise.race([
      client.connect(transport, discover === undefined ? {} : { prior: { kind: 'modern', discover } }),
      aborted,
    ]);
  } catch (error) {
    closedByUs = true;
    // The connect failure is what is reported; closing the half-open client is best effort.
    await client.close().catch(() => {});
    throw error;
  } finally {
    deadline.removeEventListener('abort', onDeadline);
  }

  const era: Era = 'modern';
  const capabilities = client.getServerCapabilities() ?? {};
  if (capabilities.tools?.listChanged || capabilities.prompts?.listChanged) {
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
          ? fetchCheckedTools(
              (cursor) =>
                client.request(
                  { method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) },
                  ANY_RESULT,
                  { timeout: config.callTimeoutMs },
                ),
              config.maxTools,
            )
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
      definitions = new Map(tools.map((tool) => [tool.name, tool]));
      return { tools, rejectedTools: rejected, prompts, resources, resourceTemplates };
    },
    async callTool(name, args, options) {
      const timeout = options.timeoutMs ?? config.callTimeoutMs;
      // Progress restarts the timeout; this caps the whole call either way.
      const maxTotalTimeout = timeout * 10;
      const meta = callMeta(options);
      const untrack = trackCall(router, options);
      const relay = options.relayInput;
      try {
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
        throw failedCallError(
          config.id,
          name,
          args,
          error,
          fatal,
          callerCapabilityError(config, relay, name, error),
        );
      } finally {
        untrack();
      }
    },
    getPrompt(name, args, options = {}) {
      const relay = options.relayInput;
      return unaskable(router, config.id, `prompt ${name}`, options.signal, async () =>
        refuseUnofferedSampling(
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
        ),
      );
    },
    readResource: (uri, signal) =>
      unaskable(router, config.id, `resource ${uri}`, signal, () =>
        client.readResource({ uri }, { timeout: config.callTimeoutMs, ...(signal ? { signal } : {}) }),
      ),
    async complete(params, signal) {
      if (!client.getServerCapabilities()?.completions) return { completion: { values: [] } };
      return unaskable(router, config.id, 'completion/complete', signal, () =>
        client.complete(params, { timeout: config.callTimeoutMs, ...(signal ? { signal } : {}) }),
      );
    },
    async subscribeResource(uri) {
      if (!client.getServerCapabilities()?.resources?.subscribe) {
        throw new PortcullisError(
          'UPSTREAM_ERROR',
          `upstream "${config.id}" does not offer resource subscriptions`,
          { reason: 'no-subscriptions' },
        );
      }
      return listens.subscribe(uri);
    },
    unsubscribeResource: (uri) => listens.unsubscribe(uri),
    async probe(timeoutMs) {
      try {
        await client.discover({ timeout: timeoutMs });
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

/** The `_meta` of a modern upstream call: forwarded trace context, plus a log level when the caller relays logs. */
function callMeta(options: UpstreamCallOptions): Record<string, unknown> | undefined {
  if (options.onLog) return { ...options.meta, [LOG_LEVEL_META_KEY]: 'debug' };
  return options.meta;
}
