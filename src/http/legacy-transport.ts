/**
 * The Streamable HTTP wire of one 2025-era session, owned by the gateway (docs/architecture.md, "Legacy
 * sessions"): the session's server (downstream's own 2025-era server) connects to it as to any transport of the
 * SDK's Transport shape. A POST of requests is answered with `application/json` when nothing but its answers
 * flows; it becomes an SSE stream as soon as something else flows on it (progress, an elicitation or sampling
 * request, a log message), at once when a request carries a progress token, and when its answer is still pending
 * after one keep-alive interval (so a client's header timeout never fires on a long call). The checks and their answers are those of the SDK's
 * WebStandardStreamableHTTPServerTransport; there is no event store, so no resumption.
 */
import {
  isInitializeRequest,
  isJsonContentType,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { plainMessage, readJsonRpcMessage, type RequestId } from '../shared/index.ts';

/** The SDK transport's bound on a batch. */
const MAX_BATCH_SIZE = 100;
/** The SDK's SSE keep-alive interval; also how long an answer may stay pending before its stream opens. */
export const LEGACY_KEEP_ALIVE_MS = 15_000;

/** The headers of an SSE answer. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

const encoder = new TextEncoder();
const KEEP_ALIVE_CHUNK = encoder.encode(': keepalive\n\n');

// A tools/list answer carries the same advertised array until the registry rebuilds (thousands of tools, some
// megabytes of JSON): its UTF-8 bytes are kept per array and spliced in where this process's own marker stands.
// The registry replaces the array on every rebuild and never changes one in place, so kept bytes are never stale.
const listBytes = new WeakMap<object, Buffer>();
const LIST_MARKER = `portcullis-tools-${randomUUID()}`;
const QUOTED_MARKER = `"${LIST_MARKER}"`;
/** A response body: bytes over a plain ArrayBuffer. */
type Bytes = Buffer<ArrayBuffer>;
// Buffer.concat allocates a fresh buffer (never a SharedArrayBuffer); its declared type is wider than that.
const concat = (parts: readonly Uint8Array[]): Bytes => Buffer.concat(parts) as Bytes;

function listOf(message: JSONRPCMessage): { result: Record<string, unknown>; tools: unknown[] } | undefined {
  const result = (message as { result?: unknown }).result;
  if (result === null || typeof result !== 'object') return undefined;
  const tools = (result as { tools?: unknown }).tools;
  return Array.isArray(tools) ? { result: result as Record<string, unknown>, tools } : undefined;
}

/**
 * The UTF-8 JSON of one answer followed by `end` (stdio's newline); a tool list's array is serialized and encoded
 * once per array, so each answer encodes only its small envelope and copies the kept bytes.
 */
export function answerBytes(message: JSONRPCMessage, end = ''): Bytes {
  const list = listOf(message);
  if (list === undefined) return Buffer.from(`${JSON.stringify(message)}${end}`);
  let tools = listBytes.get(list.tools);
  if (tools === undefined) {
    tools = Buffer.from(JSON.stringify(list.tools));
    listBytes.set(list.tools, tools);
  }
  const envelope = JSON.stringify({ ...message, result: { ...list.result, tools: LIST_MARKER } });
  const at = envelope.indexOf(QUOTED_MARKER);
  return concat([
    Buffer.from(envelope.slice(0, at)),
    tools,
    Buffer.from(`${envelope.slice(at + QUOTED_MARKER.length)}${end}`),
  ]);
}

/**
 * One answer as a stream chunk followed by `end`: the JSON text of a plain answer (the stream encodes it as it
 * writes, with no Buffer of its own), the kept bytes of a tool list's (answerBytes).
 */
export function answerChunk(message: JSONRPCMessage, end: string): string | Bytes {
  return listOf(message) === undefined ? `${JSON.stringify(message)}${end}` : answerBytes(message, end);
}

const OPEN_BATCH = Buffer.from('[');
const BATCH_COMMA = Buffer.from(',');
const CLOSE_BATCH = Buffer.from(']');

/** The UTF-8 JSON array of a batch's answers. */
function batchBytes(answers: readonly JSONRPCMessage[]): Bytes {
  const parts: Buffer[] = [OPEN_BATCH];
  answers.forEach((answer, i) => {
    if (i > 0) parts.push(BATCH_COMMA);
    parts.push(answerBytes(answer));
  });
  parts.push(CLOSE_BATCH);
  return concat(parts);
}

/** One POST that carried requests: its answers, and the stream once one is open. */
interface Exchange {
  /** Answers still owed on this POST. */
  owed: number;
  batch: boolean;
  /** Answers collected while no stream is open. */
  answers: JSONRPCMessage[];
  /** Set until the HTTP response has been handed out (as JSON or as a stream). */
  resolve: ((response: Response) => void) | undefined;
  stream: SseStream | undefined;
  /** The keep-alive sweep saw it pending once already. */
  seen: boolean;
}

type MessageExtra = Parameters<NonNullable<Transport['onmessage']>>[1];

/** An open SSE response body. */
export interface SseStream {
  write(message: JSONRPCMessage): boolean;
  close(): void;
}

const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } =>
  'method' in message && 'id' in message;
const isAnswer = (message: JSONRPCMessage): message is JSONRPCMessage & { id?: RequestId } =>
  !('method' in message) && ('result' in message || 'error' in message);

function errorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: RequestId | null = null,
) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Opens an SSE body; `onCancel` runs when the client stops reading. */
export function openSse(
  keepAliveMs: number,
  onCancel: () => void,
): { body: ReadableStream<Uint8Array>; stream: SseStream } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const timer = setInterval(() => {
    try {
      controller.enqueue(KEEP_ALIVE_CHUNK);
    } catch {
      clearInterval(timer);
    }
  }, keepAliveMs);
  timer.unref();
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      open = false;
      clearInterval(timer);
      onCancel();
    },
  });
  const stream: SseStream = {
    write(message) {
      if (!open) return false;
      try {
        controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
        return true;
      } catch {
        return false;
      }
    },
    close() {
      clearInterval(timer);
      if (!open) return;
      open = false;
      try {
        controller.close();
      } catch {
        // Already closed by the reader going away.
      }
    },
  };
  return { body, stream };
}

/** The gateway's transport of one legacy session (see the file comment). */
export class LegacySessionTransport implements Transport {
  readonly sessionId: string;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  readonly #keepAliveMs: number;
  /** Request id → the POST it came on, until its answer is sent. */
  readonly #exchanges = new Map<RequestId, Exchange>();
  #standalone: SseStream | undefined;
  #initialized = false;
  #started = false;
  #closed = false;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  readonly #ownSweeper: boolean;

  /** `ownSweeper: false` leaves calling sweepPending every `keepAliveMs` to the owner (one timer for all sessions). */
  constructor(sessionId: string, keepAliveMs = LEGACY_KEEP_ALIVE_MS, ownSweeper = true) {
    this.sessionId = sessionId;
    this.#keepAliveMs = keepAliveMs;
    this.#ownSweeper = ownSweeper;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('Transport already started');
    this.#started = true;
    if (!this.#ownSweeper) return;
    // One timer per session: an answer pending across two sweeps gets its stream (headers and keep-alives).
    this.#sweeper = setInterval(() => this.sweepPending(), this.#keepAliveMs);
    this.#sweeper.unref();
  }

  /** Serves one HTTP request of this session; `parsedBody` is the POST body the endpoint already parsed. */
  async handleRequest(request: Request, parsedBody: unknown): Promise<Response> {
    if (this.#closed) return errorResponse(404, -32001, 'Session not found');
    switch (request.method) {
      case 'POST':
        return this.#post(request, parsedBody);
      case 'GET':
        return this.#get(request);
      case 'DELETE':
        return this.#delete(request);
      default:
        return errorResponse(405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' });
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isAnswer(message);
    const id = answer ? message.id : options?.relatedRequestId;
    if (id === undefined) {
      if (answer) {
        throw new Error(
          'Cannot send a response on a standalone SSE stream unless resuming a previous client request',
        );
      }
      this.#standalone?.write(message);
      return;
    }
    const exchange = this.#exchanges.get(id);
    if (!exchange) throw new Error(`No connection established for request ID: ${String(id)}`);
    if (!answer) {
      if (!exchange.stream) this.#openStream(exchange);
      exchange.stream?.write(message);
      return;
    }
    this.#exchanges.delete(id);
    exchange.owed -= 1;
    if (exchange.stream) {
      exchange.stream.write(message);
      if (exchange.owed === 0) exchange.stream.close();
      return;
    }
    exchange.answers.push(message);
    if (exchange.owed > 0 || !exchange.resolve) return;
    const resolve = exchange.resolve;
    exchange.resolve = undefined;
    // Bytes, not a string: a string body is measured for Content-Length and then encoded again on write.
    const body = exchange.batch
      ? batchBytes(exchange.answers)
      : answerBytes(exchange.answers[0] as JSONRPCMessage);
    resolve(
      new Response(body, {
        status: 200,
        headers: { 'content-type': 'application/json', 'mcp-session-id': this.sessionId },
      }),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    for (const exchange of new Set(this.#exchanges.values())) {
      exchange.stream?.close();
      const resolve = exchange.resolve;
      exchange.resolve = undefined;
      resolve?.(errorResponse(404, -32001, 'Session not found'));
    }
    this.#exchanges.clear();
    this.#standalone?.close();
    this.#standalone = undefined;
    this.onclose?.();
  }

  #deliver(message: JSONRPCMessage, extra: MessageExtra): void {
    this.onmessage?.(message, extra);
  }

  /** One keep-alive sweep: an answer found pending by the previous sweep as well gets its stream now. */
  sweepPending(): void {
    if (this.#closed) return;
    for (const exchange of new Set(this.#exchanges.values())) {
      if (exchange.stream || !exchange.resolve) continue;
      if (exchange.seen) this.#openStream(exchange);
      else exchange.seen = true;
    }
  }

  /** Hands the POST's response out as an SSE stream, with the answers collected so far as its first events. */
  #openStream(exchange: Exchange): void {
    const resolve = exchange.resolve;
    if (!resolve) return;
    exchange.resolve = undefined;
    const { body, stream } = openSse(this.#keepAliveMs, () => {
      exchange.stream = undefined;
    });
    exchange.stream = stream;
    for (const answer of exchange.answers) stream.write(answer);
    exchange.answers = [];
    resolve(
      new Response(body, { status: 200, headers: { ...SSE_HEADERS, 'mcp-session-id': this.sessionId } }),
    );
  }

  #sessionProblem(request: Request): Response | undefined {
    if (!this.#initialized) return errorResponse(400, -32000, 'Bad Request: Server not initialized');
    const sessionId = request.headers.get('mcp-session-id');
    if (!sessionId) return errorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (sessionId !== this.sessionId) return errorResponse(404, -32001, 'Session not found');
    const version = request.headers.get('mcp-protocol-version');
    if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return errorResponse(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    }
    return undefined;
  }

  async #post(request: Request, parsedBody: unknown): Promise<Response> {
    const accept = request.headers.get('accept');
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return errorResponse(
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    }
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return errorResponse(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const batch = Array.isArray(parsedBody);
    if (batch && parsedBody.length > MAX_BATCH_SIZE) {
      return errorResponse(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);
    }
    const messages: JSONRPCMessage[] = [];
    for (const raw of batch ? (parsedBody as unknown[]) : [parsedBody]) {
      const cheap = plainMessage(raw);
      const message = cheap ?? readJsonRpcMessage(raw);
      if (!message) return errorResponse(400, -32700, 'Parse error: Invalid JSON-RPC message');
      messages.push(message);
    }
    const initializing = messages.some(
      (m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m),
    );
    if (initializing) {
      if (this.#initialized) return errorResponse(400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1) {
        return errorResponse(400, -32600, 'Invalid Request: Only one initialization request is allowed');
      }
      this.#initialized = true;
    } else {
      const problem = this.#sessionProblem(request);
      if (problem) return problem;
    }
    const extra = { request };
    let owed = 0;
    let progress = false;
    const ids = new Set<RequestId>();
    for (const message of messages) {
      if (!isRequest(message)) continue;
      // An id still owed an answer on this session would have that answer delivered to one POST only, and a
      // cancellation could not tell the two apart: the POST is refused before anything in it runs.
      if (this.#exchanges.has(message.id) || ids.has(message.id)) {
        return errorResponse(
          400,
          -32600,
          `Invalid Request: request id ${JSON.stringify(message.id)} is already in flight on this session; use a new id`,
          {},
          message.id,
        );
      }
      ids.add(message.id);
      owed += 1;
      const meta = (message as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta;
      if (meta?.progressToken !== undefined) progress = true;
    }
    if (owed === 0) {
      messages.forEach((message) => this.#deliver(message, extra));
      return new Response(null, { status: 202 });
    }
    const exchange: Exchange = {
      owed,
      batch,
      answers: [],
      resolve: undefined,
      stream: undefined,
      seen: false,
    };
    const response = new Promise<Response>((resolve) => {
      exchange.resolve = resolve;
    });
    for (const message of messages) if (isRequest(message)) this.#exchanges.set(message.id, exchange);
    // Progress will flow: the stream opens now, so its headers leave before the first event.
    if (progress) this.#openStream(exchange);
    messages.forEach((message) => this.#deliver(message, extra));
    return response;
  }

  async #get(request: Request): Promise<Response> {
    if (!request.headers.get('accept')?.includes('text/event-stream')) {
      return errorResponse(406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const problem = this.#sessionProblem(request);
    if (problem) return problem;
    if (this.#standalone)
      return errorResponse(409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    const { body, stream } = openSse(this.#keepAliveMs, () => {
      if (this.#standalone === stream) this.#standalone = undefined;
    });
    this.#standalone = stream;
    return new Response(body, { status: 200, headers: { ...SSE_HEADERS, 'mcp-session-id': this.sessionId } });
  }

  async #delete(request: Request): Promise<Response> {
    const problem = this.#sessionProblem(request);
    if (problem) return problem;
    await this.close();
    return new Response(null, { status: 200 });
  }
}
