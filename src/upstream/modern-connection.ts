/**
 * A connection to a 2026-era upstream on the gateway's own JSON-RPC session (wire.ts), no SDK Client: every
 * request and notification carries the era's `_meta` envelope (protocol version, client info, client
 * capabilities; a relayed call declares its caller's capabilities over the gateway's own), the discovery is the
 * era probe's or one `server/discover` of its own (era-probe.ts), and every result is read by its `resultType`:
 * `complete` is checked for its shape (shapes.ts) and handed on without the field; `input_required` is handed
 * back to a caller that relays input rounds, and otherwise answered here round by round (at most
 * MAX_INPUT_ROUNDS) by asking the one caller in flight through the client-request router, then retried with its
 * `inputResponses` and the upstream's `requestState`. List changes and resource updates arrive on
 * `subscriptions/listen` streams of the gateway's own. The upstream's notifications pass the notification budget;
 * failures take the SDK's error types and the mapping of link-support.ts.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type CallToolResult,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type ReadResourceResult,
  type ServerCapabilities,
  type Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { isRecord, MODERN_PROTOCOL_VERSION } from '../shared/index.ts';
import { callerCapabilityError } from './capability-errors.ts';
import { createClientRequestRouter } from './client-request-router.ts';
import type { ConnectionEvents, UpstreamConnection } from './connection.ts';
import { modernEnvelope, negotiateModern } from './era-probe.ts';
import { checked, createOutputChecks, fetchAllLists, relayNotification } from './link-requests.ts';
import {
  cancelled,
  describeError,
  failedCallError,
  createLinkEnding,
  toUpstreamError,
  trackCall,
  unaskable,
} from './link-support.ts';
import {
  createListenSubscriptions,
  type ListenEnding,
  type ListenFilter,
  type ListenStream,
} from './listen-subscriptions.ts';
import { paramHeaders } from './param-headers.ts';
import { UPSTREAM_REQUEST_CHECKS } from './shapes.ts';
import type {
  CallerCapabilities,
  UpstreamCallOptions,
  UpstreamElicitation,
  UpstreamRetry,
  UpstreamSampling,
} from './types.ts';
import { createWire, type WireProgress } from './wire.ts';

/** Input rounds answered here for one request at most (the SDK client's own cap). */
const MAX_INPUT_ROUNDS = 10;
/** Inputs one round may ask for at most when the gateway answers them (each may ask a person). */
const MAX_INPUTS_PER_ROUND = 16;
/** The pause before retrying a round that asked for nothing but carried requestState (the upstream is busy). */
const STATE_ONLY_ROUND_PAUSE_MS = 250;
/** How long the connect-time `server/discover` of a `protocol: modern` upstream may take (the connect deadline is shorter by default). */
const DISCOVER_TIMEOUT_MS = 60_000;

/** A 2026-era result read by its `resultType`. */
type Decoded =
  | { kind: 'complete'; result: Record<string, unknown> }
  | {
      kind: 'input_required';
      inputRequests: Record<string, unknown>;
      requestState: string | undefined;
      /** The result as a relaying caller gets it. */
      relayed: Record<string, unknown>;
    };

/** Reads a 2026-era result; SdkError(InvalidResult or UnsupportedResultType) when it is neither kind it knows. */
function decode(method: string, raw: unknown): Decoded {
  if (!isRecord(raw)) {
    throw new SdkError(
      SdkErrorCode.InvalidResult,
      `the upstream answered ${method} with a result that is not an object`,
    );
  }
  const type = raw.resultType;
  if (typeof type !== 'string') {
    throw new SdkError(
      SdkErrorCode.InvalidResult,
      `the upstream answered ${method} without a resultType string (a 2026-07-28 server must send one)`,
    );
  }
  if (type === 'input_required') {
    const inputRequests = isRecord(raw.inputRequests) ? raw.inputRequests : {};
    const requestState = typeof raw.requestState === 'string' ? raw.requestState : undefined;
    let asks = false;
    for (const _key in inputRequests) {
      asks = true;
      break;
    }
    if (!asks && requestState === undefined) {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `the upstream answered ${method} input_required with neither inputRequests nor requestState`,
      );
    }
    const relayed: Record<string, unknown> = { resultType: 'input_required', inputRequests };
    if (requestState !== undefined) relayed.requestState = requestState;
    if (isRecord(raw._meta)) relayed._meta = raw._meta;
    return { kind: 'input_required', inputRequests, requestState, relayed };
  }
  if (type !== 'complete') {
    throw new SdkError(
      SdkErrorCode.UnsupportedResultType,
      `the upstream answered ${method} with unsupported result type '${type.slice(0, 64)}'`,
    );
  }
  const { resultType: _complete, ...result } = raw;
  return { kind: 'complete', result };
}

/** How one request is waited for (see WireRequestOptions). */
interface Asking {
  timeoutMs: number;
  maxTotalTimeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: WireProgress) => void) | undefined;
  /** Headers of every round's request (a tool call's Mcp-Param-* headers). */
  headers?: Record<string, string> | undefined;
  /** Hand an input_required result back (the caller relays input rounds) instead of answering it here. */
  relay?: boolean;
}

/** The filter an upstream acknowledged, reading only the fields of their types (anything else is not honored). */
function honoredFilter(value: unknown): ListenFilter {
  const filter: ListenFilter = {};
  if (!isRecord(value)) return filter;
  if (value.toolsListChanged === true) filter.toolsListChanged = true;
  if (value.promptsListChanged === true) filter.promptsListChanged = true;
  if (value.resourcesListChanged === true) filter.resourcesListChanged = true;
  const uris = value.resourceSubscriptions;
  if (Array.isArray(uris)) filter.resourceSubscriptions = uris.filter((uri) => typeof uri === 'string');
  return filter;
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Connects over `transport` (started already when `started`, the era probe's connection handed over), adopting
 * `discover` when the era probe read it, else asking `server/discover` first (it must offer 2026-07-28). Rejects
 * with the SDK's error types (or the transport's own) when that fails or `deadline` aborts; the transport is
 * closed then, and `events.onClose` is never told of a link that did not open.
 */
export async function connectModern(
  config: UpstreamConfig,
  transport: Transport,
  events: ConnectionEvents,
  deadline: AbortSignal,
  prior: DiscoverResult | undefined,
  started: boolean,
): Promise<UpstreamConnection> {
  const onDeadline = () => void transport.close().catch(() => {});
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(deadline.reason);
    if (deadline.aborted) fail();
    else deadline.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  deadline.addEventListener('abort', onDeadline, { once: true });
  let discover: DiscoverResult;
  try {
    if (prior !== undefined) {
      if (!started) await Promise.race([transport.start(), aborted]);
      discover = prior;
    } else {
      discover = await Promise.race([negotiateModern(config, transport, DISCOVER_TIMEOUT_MS), aborted]);
    }
    if (deadline.aborted) throw deadline.reason;
  } catch (error) {
    // The discovery failure is what is reported; closing the half-open link is best effort.
    await transport.close().catch(() => {});
    throw error;
  } finally {
    deadline.removeEventListener('abort', onDeadline);
  }
  transport.setProtocolVersion?.(MODERN_PROTOCOL_VERSION);
  return openModern(config, transport, events, discover);
}

/** The link on a transport whose discovery is done. */
function openModern(
  config: UpstreamConfig,
  transport: Transport,
  events: ConnectionEvents,
  discover: DiscoverResult,
): UpstreamConnection {
  const router = createClientRequestRouter((reason, request) =>
    events.onClientRequestDeclined?.(reason, request),
  );
  const ending = createLinkEnding(() => wire.close());
  /** The listen streams being opened or open, by request id: their acknowledgement and remote end. */
  const listening = new Map<number, { acknowledged(filter: unknown): void; dropped(error: Error): void }>();

  const wire = createWire(
    transport,
    {
      async onRequest() {
        // The 2026 era has no requests from server to client: what a server needs of the client, it asks for in
        // an input_required result.
        throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
      },
      onNotification(method, params) {
        if (method === 'notifications/subscriptions/acknowledged') {
          const id = isRecord(params._meta) ? params._meta[SUBSCRIPTION_ID_META_KEY] : undefined;
          if (typeof id === 'number') listening.get(id)?.acknowledged(params.notifications);
          return;
        }
        if (method === 'notifications/cancelled') {
          const id = params.requestId;
          if (typeof id === 'number')
            listening.get(id)?.dropped(new Error('the upstream cancelled the subscriptions/listen stream'));
          return;
        }
        relayNotification(router, events, method, params);
      },
      admitNotification: () => ending.admit(),
      onClose() {
        listens.closeAll();
        if (!ending.closedByUs) events.onClose(ending.reason);
      },
      onError: (error) => ending.onError(error),
    },
    { envelope: modernEnvelope(config), started: true },
  );

  /** Opens one `subscriptions/listen` stream; resolves once the upstream acknowledges it. */
  const listen = (filter: ListenFilter, options: { timeout: number }): Promise<ListenStream> => {
    const withdraw = new AbortController();
    let state: 'opening' | 'open' | 'closed' = 'opening';
    let end: (how: ListenEnding) => void = () => {};
    const closed = new Promise<ListenEnding>((resolve) => (end = resolve));
    let acknowledge: (filter: ListenFilter) => void = () => {};
    let refuse: (error: unknown) => void = () => {};
    const acknowledged = new Promise<ListenFilter>((resolve, reject) => {
      acknowledge = resolve;
      refuse = reject;
    });
    let id = -1;
    let ackTimer: NodeJS.Timeout | undefined;
    const settle = (how: ListenEnding, error?: unknown) => {
      if (state === 'closed') return;
      const wasOpening = state === 'opening';
      state = 'closed';
      clearTimeout(ackTimer);
      listening.delete(id);
      // Withdraws the request upstream unless it has ended there already.
      if (!withdraw.signal.aborted) withdraw.abort(new Error('subscriptions/listen closed'));
      end(how);
      if (wasOpening)
        refuse(error ?? new SdkError(SdkErrorCode.ConnectionClosed, 'subscriptions/listen closed'));
    };
    const opened = wire.open(
      'subscriptions/listen',
      { notifications: filter },
      {
        timeoutMs: Number.POSITIVE_INFINITY,
        signal: withdraw.signal,
        onStreamEnd: () => settle('remote', new Error('the subscriptions/listen stream ended')),
      },
    );
    id = opened.id;
    opened.answered.then(
      () =>
        settle(
          'graceful',
          new SdkError(
            SdkErrorCode.ConnectionClosed,
            'the upstream ended subscriptions/listen before acknowledging it',
          ),
        ),
      (error: unknown) => settle('remote', error),
    );
    if (state === 'opening') {
      listening.set(id, {
        acknowledged(honored) {
          if (state !== 'opening') return;
          state = 'open';
          clearTimeout(ackTimer);
          acknowledge(honoredFilter(honored));
        },
        dropped: (error) => settle('remote', error),
      });
      ackTimer = setTimeout(
        () =>
          settle(
            'remote',
            new SdkError(SdkErrorCode.RequestTimeout, 'subscriptions/listen was not acknowledged in time', {
              timeout: options.timeout,
            }),
          ),
        options.timeout,
      );
    }
    return acknowledged.then((honoredFilter) => ({
      honoredFilter,
      closed,
      close: async () => settle('local'),
    }));
  };

  const listens = createListenSubscriptions({
    client: { listen },
    upstreamId: config.id,
    timeoutMs: config.callTimeoutMs,
    onLost: (uri, error) => events.onSubscriptionLost?.(uri, error),
    onRestored: (uri) => events.onSubscriptionRestored?.(uri),
  });

  /** Answers one input an upstream asked for, as the SDK client's registered handlers would have. */
  const answerInput = (key: string, entry: unknown): Promise<unknown> => {
    const what = `input request '${key.slice(0, 64)}'`;
    if (!isRecord(entry) || typeof entry.method !== 'string') {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `Invalid ${what}: it must be a request object with a method`,
      );
    }
    const params = isRecord(entry.params) ? entry.params : {};
    const method = entry.method;
    if (method === 'roots/list' || (method === 'sampling/createMessage' && !config.sampling)) {
      throw new SdkError(
        SdkErrorCode.CapabilityNotSupported,
        `Cannot fulfil ${what}: the gateway does not offer ${method} to upstream "${config.id}"`,
      );
    }
    const check = UPSTREAM_REQUEST_CHECKS[method];
    if (check === undefined) {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `Invalid ${what}: '${method.slice(0, 64)}' is not an input request of the 2026-07-28 revision`,
      );
    }
    const problem = check(params);
    if (problem !== undefined) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${problem}`);
    }
    if (method === 'sampling/createMessage')
      return router.routeSampling(params as unknown as UpstreamSampling);
    if (params.mode === 'url') {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        'Client does not support URL-mode elicitation requests',
      );
    }
    return router.route(params as unknown as UpstreamElicitation);
  };

  /** The answers to one round's inputs, by key; undefined when it asked for none. */
  const answerRound = async (
    method: string,
    inputRequests: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> => {
    const keys = Object.keys(inputRequests);
    if (keys.length === 0) return undefined;
    if (keys.length > MAX_INPUTS_PER_ROUND) {
      throw new SdkError(
        SdkErrorCode.InvalidResult,
        `the upstream asked for ${keys.length} inputs in one round of ${method}; the gateway answers at most ${MAX_INPUTS_PER_ROUND}`,
      );
    }
    const answers = await Promise.all(keys.map(async (key) => answerInput(key, inputRequests[key])));
    return Object.fromEntries(keys.map((key, index) => [key, answers[index]]));
  };

  /** Sends a request and reads its result (see the file's comment); the round's timeouts as the SDK set them. */
  const ask = async <T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: Asking,
  ): Promise<T> => {
    const startedAt = Date.now();
    let outParams = params;
    let maxTotalTimeoutMs = options.maxTotalTimeoutMs;
    for (let round = 1; ; round += 1) {
      const decoded = decode(
        method,
        await wire.request(method, outParams, {
          timeoutMs: options.timeoutMs,
          maxTotalTimeoutMs,
          signal: options.signal,
          onProgress: options.onProgress,
          headers: options.headers,
        }),
      );
      if (decoded.kind === 'complete') return checked<T>(method, decoded.result);
      if (options.relay) return decoded.relayed as T;
      if (round > MAX_INPUT_ROUNDS) {
        throw new SdkError(
          SdkErrorCode.InputRequiredRoundsExceeded,
          `${method} still required input after ${MAX_INPUT_ROUNDS} rounds`,
        );
      }
      options.onProgress?.({
        progress: round,
        message: `Fulfilling input required by '${method}' (round ${round})`,
      });
      const responses = await answerRound(method, decoded.inputRequests);
      if (responses === undefined) await pause(STATE_ONLY_ROUND_PAUSE_MS, options.signal);
      if (options.maxTotalTimeoutMs !== undefined) {
        maxTotalTimeoutMs = options.maxTotalTimeoutMs - (Date.now() - startedAt);
        if (maxTotalTimeoutMs <= 0) {
          throw new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
            maxTotalTimeout: options.maxTotalTimeoutMs,
          });
        }
      }
      outParams = {
        ...params,
        ...(responses === undefined ? {} : { inputResponses: responses }),
        ...(decoded.requestState === undefined ? {} : { requestState: decoded.requestState }),
      };
    }
  };

  const capabilities: ServerCapabilities = isRecord(discover.capabilities) ? discover.capabilities : {};
  if (capabilities.tools?.listChanged || capabilities.prompts?.listChanged) {
    // Modern servers deliver change notifications only on a subscriptions/listen stream.
    listen(
      {
        ...(capabilities.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(capabilities.prompts?.listChanged ? { promptsListChanged: true } : {}),
        ...(capabilities.resources?.listChanged ? { resourcesListChanged: true } : {}),
      },
      { timeout: config.callTimeoutMs },
    ).catch((error: unknown) => {
      // Closing while the stream opens rejects it too; that is no failure worth a line.
      if (!ending.closedByUs) events.onBackgroundFailure?.('listen', describeError(error));
    });
  }

  const page = (method: string) => (cursor: string | undefined) =>
    ask(method, cursor === undefined ? undefined : { cursor }, { timeoutMs: config.callTimeoutMs });
  const outputs = createOutputChecks();
  /** The listed tools' input schemas by name, for the Mcp-Param headers of their calls. */
  let inputSchemas = new Map<string, unknown>();
  const info = isRecord(discover._meta) ? discover._meta[SERVER_INFO_META_KEY] : undefined;
  const serverInfo =
    isRecord(info) && typeof info.name === 'string' && typeof info.version === 'string'
      ? { name: info.name, version: info.version }
      : undefined;

  return {
    era: 'modern',
    protocolVersion: MODERN_PROTOCOL_VERSION,
    serverInfo,
    instructions: typeof discover.instructions === 'string' ? discover.instructions : undefined,
    async fetchLists() {
      const lists = await fetchAllLists(capabilities, page, config.maxTools);
      outputs.reset(lists.tools);
      inputSchemas = new Map(lists.tools.map((tool) => [tool.name, tool.inputSchema]));
      return lists;
    },
    async callTool(name, args, options) {
      const timeout = options.timeoutMs ?? config.callTimeoutMs;
      const untrack = trackCall(router, options);
      const relay = options.relayInput;
      try {
        const outputCheck = outputs.checkerFor(name);
        const meta = callMeta(options);
        const metaOut = relay === undefined ? meta : { ...meta, ...declaredCapabilities(relay, config) };
        const result = await ask<CallToolResult>(
          'tools/call',
          {
            name,
            arguments: args,
            ...(metaOut ? { _meta: metaOut } : {}),
            ...retryParams(relay, options.retry),
          },
          {
            timeoutMs: timeout,
            // Progress restarts the timeout; this caps the whole call either way.
            maxTotalTimeoutMs: timeout * 10,
            signal: options.signal,
            onProgress: options.onProgress,
            headers: paramHeaders(inputSchemas.get(name), args),
            relay: relay !== undefined,
          },
        );
        if (result.resultType === 'input_required') return refuseUnofferedSampling(config, result);
        outputCheck?.(result);
        return result.content === undefined ? { ...result, content: [] } : result;
      } catch (error) {
        if (options.signal?.aborted) throw cancelled(config.id, `call to ${name}`, error);
        throw failedCallError(
          config.id,
          name,
          args,
          error,
          ending.fatal,
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
          await ask<GetPromptResult>(
            'prompts/get',
            {
              name,
              ...(args ? { arguments: args } : {}),
              ...(relay ? { _meta: declaredCapabilities(relay, config) } : {}),
              ...retryParams(relay, options.retry),
            },
            { timeoutMs: config.callTimeoutMs, signal: options.signal, relay: relay !== undefined },
          ),
        ),
      );
    },
    readResource: (uri, signal) =>
      unaskable(router, config.id, `resource ${uri}`, signal, () =>
        ask<ReadResourceResult>('resources/read', { uri }, { timeoutMs: config.callTimeoutMs, signal }),
      ),
    async complete(params, signal) {
      if (!capabilities.completions) return { completion: { values: [] } };
      return unaskable(router, config.id, 'completion/complete', signal, () =>
        ask<CompleteResult>('completion/complete', params as Record<string, unknown>, {
          timeoutMs: config.callTimeoutMs,
          signal,
        }),
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
      return listens.subscribe(uri);
    },
    unsubscribeResource: (uri) => listens.unsubscribe(uri),
    async probe(timeoutMs) {
      try {
        checked('server/discover', await wire.request('server/discover', undefined, { timeoutMs }));
      } catch (error) {
        throw toUpstreamError(config.id, 'a liveness check', error);
      }
    },
    async close() {
      ending.closedByUs = true;
      listens.closeAll();
      // Closing is the end of this connection either way; a transport already gone cannot be closed twice.
      await wire.close().catch(() => {});
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
  if (!isRecord(requests)) return result;
  const asksSampling = Object.values(requests).some(
    (request: unknown) => isRecord(request) && request.method === 'sampling/createMessage',
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
 * only where the upstream is trusted with it. They replace the envelope's own (the request's `_meta` wins).
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

/** The retry fields of a relayed round (`inputResponses`, the upstream's own `requestState`), if any. */
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
