/**
 * The gateway's own JSON-RPC session with an upstream of either era, over any transport of the SDK's Transport
 * shape (which frames and parses; nothing here reaches into an SDK client). Requests go out under numeric ids of
 * its own, each id also the request's progress token when the caller takes progress; answers and progress
 * notifications are handled in arrival order as they come off the transport, so a progress sent just before the
 * answer is relayed before it. Timeouts (reset by progress, within a total cap) and a caller's abort withdraw the
 * request: `notifications/cancelled`, or on a 2026-era link over a transport with a stream per request, the abort
 * of that stream (the spec's cancellation there); the transport's close fails every request still waiting. A
 * 2026-era session merges its `_meta` envelope (protocol version, client info and capabilities) into every
 * request and notification it sends, the request's own `_meta` keys winning; the transport reads the headers it
 * needs (MCP-Protocol-Version, Mcp-Method, Mcp-Name) from that envelope. Failures take the SDK's
 * error types (ProtocolError for a JSON-RPC error answer, SdkError for a timeout, a closed link or an unusable
 * answer), so callers map them as they always did. Requests the upstream sends are answered through `onRequest`
 * (an unknown method is -32601), notifications handed to `onNotification`, each only after a shallow check of its
 * envelope: the upstream is not trusted.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { isRecord } from '../shared/index.ts';

/** A progress notification's payload, as relayed to a caller. */
export interface WireProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** How one request to the upstream is sent and waited for. */
export interface WireRequestOptions {
  /** Fails the request when nothing (answer or progress) arrives for this long; Infinity waits without a timer. */
  timeoutMs: number;
  /** Fails the request after this long in all, progress or not (default: timeoutMs, so progress does not extend it). */
  maxTotalTimeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Receives the upstream's progress; without it no progress token is sent. */
  onProgress?: ((progress: WireProgress) => void) | undefined;
  /** Told when the transport's stream of this request ended without an answer (a stream per request only). */
  onStreamEnd?: (() => void) | undefined;
  /** Extra headers of this request for a transport that has headers (Mcp-Param-*); stdio has none. */
  headers?: Record<string, string> | undefined;
}

/** How a session speaks: the era's `_meta` envelope, and whether its transport is already started. */
export interface WireOptions {
  /** Merged into the `_meta` of every request and notification sent (2026 era); none on a 2025-era session. */
  envelope?: Record<string, unknown> | undefined;
  /** The transport was started by someone before (the era probe that handed it over): start() does not again. */
  started?: boolean | undefined;
}

/** What the session hands to the connection built on it. */
export interface WireHandlers {
  /** Answers a request of the upstream; throw a ProtocolError for a JSON-RPC error answer. */
  onRequest(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  /** Handles a notification of the upstream (progress and cancellation are the session's own). */
  onNotification(method: string, params: Record<string, unknown>): void;
  /** Whether a notification may be handled at all (the upstream's notification budget). */
  admitNotification(): boolean;
  /** The transport closed; every request still waiting has failed. */
  onClose(): void;
  /** The transport reported an error (framing, a dropped stream); fatal ones are followed by a close. */
  onError(error: Error): void;
}

/** One JSON-RPC session with an upstream. */
export interface Wire {
  /** Starts the transport. */
  start(): Promise<void>;
  /** Sends a request and resolves with its `result` (unchecked: the caller checks its shape). */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions,
  ): Promise<unknown>;
  /** As request(), also naming the id the request went out under (a `subscriptions/listen` stream's id). */
  open(
    method: string,
    params: Record<string, unknown> | undefined,
    options: WireRequestOptions,
  ): { id: number; answered: Promise<unknown> };
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /** Closes the transport (the close fails what still waits). */
  close(): Promise<void>;
  /** Requests waiting for an answer. */
  readonly pending: number;
}

/** What a request waiting for its answer needs of its session. */
interface Session {
  readonly waiting: Map<number, Waiting>;
  /** Tells the upstream the request `id` is withdrawn (`stream`: its own stream, aborted instead where there is one). */
  cancel(id: number, reason: unknown, stream: AbortController | undefined): void;
}

/**
 * One request waiting for its answer. A class rather than closures: the abort listener is the object itself
 * (`handleEvent`) and the timer takes it as its argument, so a request allocates no functions of its own.
 */
class Waiting {
  readonly #session: Session;
  readonly #id: number;
  readonly #options: WireRequestOptions;
  readonly #resolve: (result: unknown) => void;
  readonly #reject: (error: unknown) => void;
  readonly #startedAt = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #capped = false;
  /** The request's own stream on a 2026-era link over a transport with one per request; aborting it cancels. */
  readonly stream: AbortController | undefined;

  constructor(
    session: Session,
    id: number,
    options: WireRequestOptions,
    resolve: (result: unknown) => void,
    reject: (error: unknown) => void,
    stream: AbortController | undefined,
  ) {
    this.stream = stream;
    this.#session = session;
    this.#id = id;
    this.#options = options;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#arm();
    options.signal?.addEventListener('abort', this, { once: true });
  }

  resolve(result: unknown): void {
    this.#settle();
    this.#resolve(result);
  }

  reject(error: unknown): void {
    this.#settle();
    this.#reject(error);
  }

  /** Relays a progress notification of this request; each one restarts the wait, within the total cap. */
  progress(params: Record<string, unknown>): void {
    const onProgress = this.#options.onProgress;
    if (onProgress === undefined || typeof params.progress !== 'number') return;
    onProgress({
      progress: params.progress,
      total: typeof params.total === 'number' ? params.total : undefined,
      message: typeof params.message === 'string' ? params.message : undefined,
    });
    this.#arm();
  }

  /** The caller's abort. */
  handleEvent(): void {
    const reason = this.#options.signal?.reason;
    this.#fail(reason, reason);
  }

  /** The request was not sent: it alone fails, and nothing is withdrawn. */
  unsent(error: unknown): void {
    if (this.#session.waiting.get(this.#id) === this) this.reject(error);
  }

  timedOut(): void {
    const { timeoutMs } = this.#options;
    const maxTotalMs = this.#maxTotalMs();
    this.#fail(
      this.#capped && maxTotalMs > timeoutMs
        ? new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
            maxTotalTimeout: maxTotalMs,
          })
        : new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }),
      'timeout',
    );
  }

  #maxTotalMs(): number {
    return this.#options.maxTotalTimeoutMs ?? this.#options.timeoutMs;
  }

  #arm(): void {
    clearTimeout(this.#timer);
    const { timeoutMs } = this.#options;
    if (timeoutMs === Number.POSITIVE_INFINITY) return;
    const left = this.#maxTotalMs() - (Date.now() - this.#startedAt);
    // The wait that ends at the total cap, not at the idle timeout, fails as the total's.
    this.#capped = left <= timeoutMs;
    this.#timer = setTimeout(timeOut, Math.max(0, this.#capped ? left : timeoutMs), this);
  }

  #fail(error: unknown, reason: unknown): void {
    this.#settle();
    this.#session.cancel(this.#id, reason, this.stream);
    this.#reject(error);
  }

  #settle(): void {
    this.#session.waiting.delete(this.#id);
    clearTimeout(this.#timer);
    this.#options.signal?.removeEventListener('abort', this);
  }
}

const timeOut = (waiting: Waiting) => waiting.timedOut();

const isRequestId = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

/** Longest error message of the upstream's kept in an error (the rest is cut). */
const MAX_ERROR_MESSAGE_CHARS = 1_000;

/** The error of an upstream's JSON-RPC error answer, or of a malformed one. */
function answeredError(error: unknown): Error {
  if (!isRecord(error) || !Number.isSafeInteger(error.code) || typeof error.message !== 'string') {
    return new SdkError(SdkErrorCode.InvalidResult, 'the upstream answered with a malformed JSON-RPC error');
  }
  return new ProtocolError(error.code as number, error.message.slice(0, MAX_ERROR_MESSAGE_CHARS), error.data);
}

/**
 * Requests of the upstream's own the session answers at once (elicitation and sampling wait on a person or a
 * model); one more is refused alone, so an upstream cannot grow the gateway's memory without bound.
 */
export const MAX_UPSTREAM_REQUESTS_ANSWERING = 64;

/** Opens a session over `transport` (call start(), which starts the transport unless `options.started`). */
export function createWire(transport: Transport, handlers: WireHandlers, options: WireOptions = {}): Wire {
  const { envelope } = options;
  // Only a 2026-era request has a stream of its own to abort (the SDK transport's flag for Streamable HTTP).
  const perRequestStream =
    envelope !== undefined && (transport as { hasPerRequestStream?: unknown }).hasPerRequestStream === true;
  const waiting = new Map<number, Waiting>();
  // Requests of the upstream still being answered, by id: notifications/cancelled aborts one.
  const answering = new Map<string | number, AbortController>();
  let nextId = 0;
  let closed = false;

  const send = (message: Record<string, unknown>) =>
    transport.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  /** A notification's or request's params with the era's envelope merged under their own `_meta`. */
  const enveloped = (params: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
    if (envelope === undefined) return params;
    const meta = params?._meta;
    return { ...params, _meta: { ...envelope, ...(isRecord(meta) ? meta : {}) } };
  };
  const notify = (method: string, params?: Record<string, unknown>) => {
    const outParams = enveloped(params);
    return send({ method, ...(outParams === undefined ? {} : { params: outParams }) });
  };

  const answer = (id: string | number, body: { result: unknown } | { error: Record<string, unknown> }) => {
    // The upstream may have gone; a lost answer to a request of its own is no failure of the gateway's.
    void send({ id, ...body }).catch(() => {});
  };

  const onUpstreamRequest = (id: string | number, method: string, params: Record<string, unknown>) => {
    if (answering.has(id)) {
      answer(id, {
        error: {
          code: ProtocolErrorCode.InvalidRequest,
          message: `request id ${String(id)} is already in use`,
        },
      });
      return;
    }
    if (answering.size >= MAX_UPSTREAM_REQUESTS_ANSWERING) {
      answer(id, {
        error: {
          code: ProtocolErrorCode.InternalError,
          message: `the gateway is already answering ${MAX_UPSTREAM_REQUESTS_ANSWERING} of its requests; retry later`,
        },
      });
      return;
    }
    const controller = new AbortController();
    answering.set(id, controller);
    // The id and its slot are free before the answer leaves: the upstream may reuse the id as soon as it reads it.
    const done = () => {
      if (answering.get(id) === controller) answering.delete(id);
    };
    handlers.onRequest(method, params, controller.signal).then(
      (result) => {
        done();
        if (!controller.signal.aborted) answer(id, { result });
      },
      (error: unknown) => {
        done();
        if (controller.signal.aborted) return;
        const code = (error as { code?: unknown } | null)?.code;
        const data = (error as { data?: unknown } | null)?.data;
        answer(id, {
          error: {
            code: Number.isSafeInteger(code) ? code : ProtocolErrorCode.InternalError,
            message: error instanceof Error && error.message ? error.message : 'Internal error',
            ...(data === undefined ? {} : { data }),
          },
        });
      },
    );
  };

  const onResponse = (message: Record<string, unknown>) => {
    const id = message.id;
    // An answer to a request never sent (or already settled) is dropped: it answers nothing of the gateway's.
    const entry = typeof id === 'number' ? waiting.get(id) : undefined;
    if (entry === undefined) return;
    waiting.delete(id as number);
    if ('error' in message) entry.reject(answeredError(message.error));
    else entry.resolve(message.result);
  };

  const onNotification = (method: string, params: Record<string, unknown>) => {
    if (!handlers.admitNotification()) return;
    if (method === 'notifications/progress') {
      const token = params.progressToken;
      const entry = typeof token === 'number' ? waiting.get(token) : undefined;
      entry?.progress(params);
      return;
    }
    if (method === 'notifications/cancelled') {
      const requestId = params.requestId;
      const withdrawn = isRequestId(requestId) ? answering.get(requestId) : undefined;
      if (withdrawn !== undefined) {
        withdrawn.abort(new Error('cancelled by the upstream'));
        return;
      }
      // Else it may end a stream of the gateway's (a 2026-era subscriptions/listen): the connection's to read.
    }
    handlers.onNotification(method, params);
  };

  transport.onmessage = (message) => {
    const raw = message as unknown;
    if (!isRecord(raw)) return;
    if (typeof raw.method === 'string') {
      const params = raw.params === undefined ? {} : raw.params;
      if (!isRecord(params)) {
        if (isRequestId(raw.id))
          answer(raw.id, {
            error: { code: ProtocolErrorCode.InvalidParams, message: 'params must be an object' },
          });
        return;
      }
      if ('id' in raw) {
        if (isRequestId(raw.id)) onUpstreamRequest(raw.id, raw.method, params);
        return;
      }
      onNotification(raw.method, params);
      return;
    }
    if ('result' in raw || 'error' in raw) onResponse(raw);
  };
  transport.onerror = (error) => handlers.onError(error);
  transport.onclose = () => {
    if (closed) return;
    closed = true;
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    const failing = [...waiting.values()];
    waiting.clear();
    for (const entry of failing) entry.reject(error);
    for (const controller of answering.values()) controller.abort(error);
    answering.clear();
    handlers.onClose();
  };

  const session: Session = {
    waiting,
    cancel(id, reason, stream) {
      if (stream !== undefined) {
        stream.abort(reason);
        return;
      }
      // Cancelling is a courtesy to the upstream; the caller already has its answer (timeout or abort).
      notify('notifications/cancelled', { requestId: id, reason: String(reason) }).catch(() => {});
    },
  };

  const open: Wire['open'] = (method, params, options) => {
    const { signal } = options;
    const id = nextId++;
    if (signal?.aborted) return { id, answered: Promise.reject(signal.reason) };
    if (closed)
      return { id, answered: Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected')) };
    const stream = perRequestStream ? new AbortController() : undefined;
    let entry: Waiting | undefined;
    const answered = new Promise<unknown>((resolve, reject) => {
      entry = new Waiting(session, id, options, resolve, reject, stream);
    });
    const waitingEntry = entry as unknown as Waiting;
    waiting.set(id, waitingEntry);
    const meta = params?._meta;
    const outParams = enveloped(
      options.onProgress
        ? { ...params, _meta: { ...(isRecord(meta) ? meta : {}), progressToken: id } }
        : params,
    );
    const message: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (outParams !== undefined) message.params = outParams;
    const { onStreamEnd, headers } = options;
    const sendOptions =
      stream === undefined && headers === undefined
        ? undefined
        : {
            ...(stream === undefined ? {} : { requestSignal: stream.signal }),
            ...(stream === undefined || onStreamEnd === undefined ? {} : { onRequestStreamEnd: onStreamEnd }),
            ...(headers === undefined ? {} : { headers }),
          };
    // Unsent (arguments JSON cannot encode, a transport already gone): this request alone fails.
    transport
      .send(message as JSONRPCMessage, sendOptions)
      .catch((error: unknown) => waitingEntry.unsent(error));
    return { id, answered };
  };

  return {
    start: () => (options.started ? Promise.resolve() : transport.start()),
    request: (method, params, requestOptions) => open(method, params, requestOptions).answered,
    open,
    notify,
    close: () => transport.close(),
    get pending() {
      return waiting.size;
    },
  };
}
