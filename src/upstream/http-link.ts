/**
 * The gateway's own Streamable HTTP client transport for upstream links, both eras. Each message is POSTed with
 * `Accept: application/json, text/event-stream`; the answer to a request is one JSON message, a JSON batch, or an
 * event stream of messages (read by http-link-events.ts); 202 answers a notification or response. The
 * `Mcp-Session-Id` an `initialize` answer carries is sent on every later request, `MCP-Protocol-Version` once
 * negotiated, and a 2026-07-28 request carries its per-request headers (`MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name` from its body, and the `Mcp-Param-*` headers the wire hands over). After `notifications/initialized`
 * the link opens the optional GET stream for server-initiated messages (405: the server has none). A stream that
 * ends before its answer, when it carried event ids or is the GET stream, is resumed with `Last-Event-ID` (two
 * attempts, 1 s then 1.5 s, or the server's `retry:`); sending `notifications/cancelled` ends the stream of the request
 * it cancels, so a request given up on holds no connection.
 *
 * Every request has its own AbortController, aborted by the wire's per-request signal or by close(), which aborts
 * them all, then sends DELETE for a session (bounded by CLOSE_GRACE_MS). A 404 on a session
 * means the server dropped it: the link closes (the supervisor reconnects with a new handshake). An answer or event
 * over `maxMessageBytes` drops the link (HttpMessageTooLarge, reason `message-too-large`).
 */
import {
  isInitializedNotification,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { isRecord, MCP_NAME_FIELD, type RequestId } from '../shared/index.ts';
import { EventStreamReader } from './http-link-events.ts';
import {
  configuredHeaders,
  connectionClosed,
  DEFAULT_MAX_MESSAGE_BYTES,
  discard,
  HttpMessageTooLarge,
  httpError,
  linkFetch,
  mediaType,
  notJsonRpc,
  readBounded,
  readMessages,
} from './http-link-support.ts';
import { CLOSE_GRACE_MS } from './stdio-link.ts';

/** Where to connect and how. */
export interface HttpLinkOptions {
  url: URL;
  /** Sent on every request (configured headers: authentication and the like). */
  headers: Readonly<Record<string, string>>;
  /** The cap on one incoming message (a JSON body or one event), in bytes. */
  maxMessageBytes?: number;
  /** Resumption of a dropped stream: attempts, and the first delay (it grows 1.5× a time, to 30 s at most). */
  resume?: { attempts: number; firstDelayMs: number };
}

/** Headers a request's own `headers` may not set: the link derives them from its state or the body. */
const RESERVED_HEADERS = new Set([
  'authorization',
  'content-type',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
]);

/** A session id the link accepts: visible ASCII, as the transport requires, and of a sane length. */
const SESSION_ID = /^[\x21-\x7e]{1,1024}$/;
const MAX_RESUME_DELAY_MS = 30_000;

/** One stream being read: what its request asked to be told, and how to end it. */
interface StreamContext {
  controller: AbortController;
  /** The GET stream (resumed whenever it drops), as opposed to a request's answer. */
  standalone: boolean;
  requestSignal?: AbortSignal | undefined;
  onRequestStreamEnd?: (() => void) | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
  /** The id of the request whose answer this is, while `notifications/cancelled` may name it. */
  requestId?: RequestId | undefined;
  release(): void;
}

/** A Streamable HTTP client transport (see the file comment). */
export class StreamableHttpLink implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  /** One POST per request: the wire cancels a request by aborting its `requestSignal` (wire.ts). */
  readonly hasPerRequestStream = true;

  readonly #options: HttpLinkOptions;
  readonly #maxMessageBytes: number;
  /** The controllers of requests and streams in flight. */
  readonly #inflight = new Set<AbortController>();
  /** The controller of each request's POST, by request id, for `notifications/cancelled`. */
  readonly #byRequest = new Map<RequestId, AbortController>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  /** Errors already given to onerror by the path that threw them (an oversized answer, an expired session). */
  readonly #reported = new WeakSet<object>();
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #retryMs: number | undefined;
  #started = false;
  #closing: Promise<void> | undefined;

  constructor(options: HttpLinkOptions) {
    this.#options = options;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** The session the server gave at `initialize`, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error('StreamableHttpLink already started'));
    this.#started = true;
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.#started || this.#closing) throw new SdkError(SdkErrorCode.NotConnected, 'Not connected');
    // Arguments JSON cannot hold (a cycle, a bigint) fail this send alone.
    const body = JSON.stringify(message);
    const initialize = isInitializeRequest(message);
    const headers = this.#headers('application/json, text/event-stream', !initialize);
    bodyHeaders(headers, message);
    for (const [name, value] of Object.entries(options?.headers ?? {})) {
      if (!RESERVED_HEADERS.has(name.toLowerCase())) headers.set(name, value);
    }
    headers.set('content-type', 'application/json');
    // Before the POST: a server too stuck to take the notification must not keep the request's stream either.
    this.#cancelledStream(message);
    const requestSignal = options?.requestSignal;
    const context = this.#track(false, options);
    const id = isJSONRPCRequest(message) ? message.id : undefined;
    if (id !== undefined) {
      context.requestId = id;
      this.#byRequest.set(id, context.controller);
    }
    let handedToStream = false;
    try {
      const response = await linkFetch(this.#options.url, {
        method: 'POST',
        headers,
        body,
        signal: context.controller.signal,
      });
      if (!response.ok) {
        await this.#failed(response, message, headers.has('mcp-session-id'));
        return;
      }
      if (initialize) this.#adoptSession(response);
      if (response.status === 202 || id === undefined) {
        await discard(response);
        if (isInitializedNotification(message)) this.#openStandalone();
        return;
      }
      const type = mediaType(response);
      if (type === 'text/event-stream') {
        handedToStream = true;
        void this.#readStream(response, context);
        return;
      }
      if (type !== 'application/json') {
        await discard(response);
        throw new SdkError(
          SdkErrorCode.ClientHttpUnexpectedContent,
          `the upstream answered ${'method' in message ? message.method : 'a request'} with ${type ?? 'no content type'}, not JSON or an event stream`,
          { contentType: type },
        );
      }
      const bytes = await readBounded(response, this.#maxMessageBytes);
      if (bytes === undefined) throw this.#oversized();
      this.#deliver(readMessages(bytes.toString('utf8')));
    } catch (error) {
      if (this.#reported.has(error as object)) throw error;
      if (this.#closing) throw connectionClosed();
      if (requestSignal?.aborted) throw error;
      this.onerror?.(error as Error);
      throw error;
    } finally {
      if (!handedToStream) context.release();
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inflight) controller.abort();
    const session = this.#sessionId;
    if (session !== undefined && this.#started) {
      // Ending the session frees it on the server; a server that cannot (405) or does not answer changes nothing.
      try {
        const response = await linkFetch(this.#options.url, {
          method: 'DELETE',
          headers: this.#headers(undefined, true),
          signal: AbortSignal.timeout(CLOSE_GRACE_MS),
        });
        await discard(response);
      } catch {
        // Best effort: the link is closed either way.
      }
    }
    this.onclose?.();
  }

  /** The configured headers plus the link's own: session (unless `withSession` is false), version, Accept. */
  #headers(accept: string | undefined, withSession: boolean): Headers {
    const headers = configuredHeaders(this.#options.headers);
    if (withSession && this.#sessionId !== undefined) headers.set('mcp-session-id', this.#sessionId);
    if (this.#protocolVersion !== undefined) headers.set('mcp-protocol-version', this.#protocolVersion);
    if (accept !== undefined) {
      const wanted = [...(headers.get('accept')?.split(',') ?? []), ...accept.split(',')]
        .map((type) => type.trim().toLowerCase())
        .filter((type) => type !== '');
      headers.set('accept', [...new Set(wanted)].join(', '));
    }
    return headers;
  }

  /** A controller for one request or stream, aborted by close() or the wire's per-request signal. */
  #track(standalone: boolean, options?: TransportSendOptions): StreamContext {
    const controller = new AbortController();
    const requestSignal = options?.requestSignal;
    const abort = () => controller.abort();
    requestSignal?.addEventListener('abort', abort, { once: true });
    if (this.#closing || requestSignal?.aborted) controller.abort();
    // close() aborts what is in this set: no listener per request piles up on a link-wide signal.
    this.#inflight.add(controller);
    const context: StreamContext = {
      controller,
      standalone,
      requestSignal,
      onRequestStreamEnd: options?.onRequestStreamEnd,
      onresumptiontoken: options?.onresumptiontoken,
      release: () => {
        requestSignal?.removeEventListener('abort', abort);
        this.#inflight.delete(controller);
        const id = context.requestId;
        if (id !== undefined && this.#byRequest.get(id) === controller) this.#byRequest.delete(id);
      },
    };
    return context;
  }

  /** A POST answered with an error status: the error to throw, or a JSON-RPC error the wire should read. */
  async #failed(response: Response, message: JSONRPCMessage, withSession: boolean): Promise<void> {
    const what = `the upstream (POST ${'method' in message ? message.method : 'response'})`;
    const error = await httpError(SdkErrorCode.ClientHttpNotImplemented, what, this.#options.url, response);
    if (response.status === 404 && withSession) {
      // The server no longer knows the session (it expired, or the server restarted): nothing sent on it can work.
      const expired = new SdkError(
        SdkErrorCode.ConnectionClosed,
        `the upstream no longer knows session ${this.#sessionId?.slice(0, 64)} (HTTP 404: it expired or the server restarted); the link was dropped`,
        { status: 404 },
      );
      this.#sessionId = undefined;
      this.#reported.add(expired);
      this.onerror?.(expired);
      // Closed once this send's rejection has reached its request, so that the request fails with this error.
      setImmediate(() => void this.close());
      throw expired;
    }
    if (response.status === 400 && isJSONRPCRequest(message) && envelopeVersion(message) !== undefined) {
      // A 2026-era server refuses a request it can read with a JSON-RPC error in a 400 body.
      try {
        const text = (error.data as { text?: unknown } | undefined)?.text;
        const [answer] = readMessages(typeof text === 'string' ? text : '').messages;
        if (answer && isJSONRPCErrorResponse(answer) && answer.id === message.id) {
          this.onmessage?.(answer);
          return;
        }
      } catch {
        // Not JSON: the HTTP error stands.
      }
    }
    throw error;
  }

  #adoptSession(response: Response): void {
    const session = response.headers.get('mcp-session-id');
    if (session === null) return;
    if (!SESSION_ID.test(session)) {
      throw new Error(
        'the upstream answered initialize with an Mcp-Session-Id that is not 1–1024 visible ASCII characters',
      );
    }
    this.#sessionId = session;
  }

  /** A sent `notifications/cancelled` ends the stream of the request it cancels: its answer is not awaited. */
  #cancelledStream(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled') return;
    const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.#byRequest.get(requestId)?.abort();
  }

  #oversized(): Error {
    const error = new HttpMessageTooLarge(this.#maxMessageBytes);
    this.#reported.add(error);
    this.onerror?.(error);
    void this.close();
    return error;
  }

  #deliver({ messages, invalid }: ReturnType<typeof readMessages>): boolean {
    let answered = false;
    for (const message of messages) {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) answered = true;
      this.onmessage?.(message);
    }
    if (invalid > 0) this.onerror?.(notJsonRpc(invalid));
    return answered;
  }

  /** Opens the GET stream for server-initiated messages, in the background. */
  #openStandalone(): void {
    const context = this.#track(true);
    this.#openStream(undefined, context).catch(() => context.release());
  }

  /**
   * GETs an event stream (resuming after `lastEventId`, if given) and reads it. Rejects, with the error reported
   * and the context kept for a retry, when it cannot open.
   */
  async #openStream(lastEventId: string | undefined, context: StreamContext): Promise<void> {
    const headers = this.#headers('text/event-stream', true);
    if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
    let response: Response;
    try {
      response = await linkFetch(this.#options.url, {
        method: 'GET',
        headers,
        signal: context.controller.signal,
      });
    } catch (error) {
      if (!context.controller.signal.aborted) this.onerror?.(error as Error);
      throw error;
    }
    if (response.status === 405) {
      // The server offers no GET stream.
      await discard(response);
      context.release();
      context.onRequestStreamEnd?.();
      return;
    }
    if (!response.ok || mediaType(response) !== 'text/event-stream') {
      let error: Error;
      if (response.ok) {
        await discard(response);
        error = new SdkError(
          SdkErrorCode.ClientHttpUnexpectedContent,
          'the upstream answered its GET stream with no event stream',
        );
      } else {
        error = await httpError(
          SdkErrorCode.ClientHttpFailedToOpenStream,
          'the upstream (GET stream)',
          this.#options.url,
          response,
        );
      }
      this.onerror?.(error);
      throw error;
    }
    await this.#readStream(response, context);
  }

  /** Reads an event stream to its end, then resumes it or tells the request it ended (see the file comment). */
  async #readStream(response: Response, context: StreamContext): Promise<void> {
    let answered = false;
    let lastEventId: string | undefined;
    const reader = new EventStreamReader(this.#maxMessageBytes, {
      event: (event) => {
        if (event.id !== undefined && event.id !== lastEventId) {
          lastEventId = event.id;
          context.onresumptiontoken?.(event.id);
        }
        if (event.data === '' || event.type !== 'message') return;
        try {
          if (this.#deliver(readMessages(event.data))) answered = true;
        } catch (error) {
          this.onerror?.(error as Error);
        }
      },
      retry: (ms) => {
        this.#retryMs = Math.min(ms, MAX_RESUME_DELAY_MS);
      },
      oversized: () => {
        context.controller.abort();
        this.#oversized();
      },
    });
    let broken: unknown;
    const body = response.body?.getReader();
    try {
      for (;;) {
        const chunk = await body?.read();
        if (!chunk || chunk.done || reader.stopped) break;
        reader.push(chunk.value);
      }
    } catch (error) {
      broken = error;
    } finally {
      await body?.cancel().catch(() => {});
    }
    const intentional = context.controller.signal.aborted || this.#closing !== undefined;
    if (intentional) {
      context.release();
      return;
    }
    if (broken !== undefined) {
      this.onerror?.(
        new Error(`the upstream's event stream broke off: ${(broken as Error).message ?? broken}`),
      );
    }
    if (!answered && (context.standalone || lastEventId !== undefined)) {
      this.#resume(context, lastEventId, 0);
      return;
    }
    context.release();
    context.onRequestStreamEnd?.();
  }

  /** Resumes a dropped stream after a delay, `attempt` counting the failed tries since it last opened. */
  #resume(context: StreamContext, lastEventId: string | undefined, attempt: number): void {
    const { attempts, firstDelayMs } = this.#options.resume ?? { attempts: 2, firstDelayMs: 1000 };
    if (attempt >= attempts) {
      context.release();
      this.onerror?.(new Error(`the upstream's event stream could not be resumed (${attempts} attempts)`));
      context.onRequestStreamEnd?.();
      return;
    }
    const delay = this.#retryMs ?? Math.min(firstDelayMs * 1.5 ** attempt, MAX_RESUME_DELAY_MS);
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (context.controller.signal.aborted) {
        context.release();
        return;
      }
      this.#openStream(lastEventId, context).catch(() => {
        if (context.controller.signal.aborted) context.release();
        else this.#resume(context, lastEventId, attempt + 1);
      });
    }, delay);
    this.#timers.add(timer);
  }
}

/** The protocol version a request's `_meta` envelope claims (2026-07-28 requests carry one), else undefined. */
function envelopeVersion(message: JSONRPCMessage): string | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const meta = message.params?._meta;
  const version = isRecord(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** The per-request headers of a request whose envelope claims a version: version, method and name from its body. */
function bodyHeaders(headers: Headers, message: JSONRPCMessage): void {
  const version = envelopeVersion(message);
  if (version === undefined || !isJSONRPCRequest(message)) return;
  headers.set('mcp-protocol-version', version);
  headers.set('mcp-method', message.method);
  const field = Object.hasOwn(MCP_NAME_FIELD, message.method) ? MCP_NAME_FIELD[message.method] : undefined;
  const name =
    field === undefined ? undefined : (message.params as Record<string, unknown> | undefined)?.[field];
  if (typeof name === 'string') headers.set('mcp-name', fieldValue(name));
}

/**
 * A string as an HTTP field value: as it is when it is plain visible ASCII (tabs and inner spaces allowed),
 * else `=?base64?<UTF-8 in base64>?=` (as is a value that already looks like that, so it cannot be misread).
 */
function fieldValue(value: string): string {
  const plain =
    value !== '' &&
    value === value.trim() &&
    /^[\t\x20-\x7e]*$/.test(value) &&
    !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
