/**
 * The HTTP side of a 2026-07-28 request, after the era router classified it as one (docs/architecture.md, steps 2
 * and 4): the supported-revision gate, the standard request headers (`MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name`) checked against the body, `subscriptions/listen` streams, and the exchange of one request with the
 * gateway's 2026-era server: a plain JSON answer when nothing else is sent before it, an SSE stream from the first
 * notification on (progress, a log message), the answer as its last event. The HTTP request's abort aborts the call.
 */
import {
  UnsupportedProtocolVersionError,
  type InboundModernRoute,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import type { DownstreamIdentity, ModernListeners, ModernReply, ModernServer } from '../downstream/index.ts';
import { MCP_NAME_FIELD, MODERN_PROTOCOL_VERSION } from '../shared/index.ts';
import { JSON_RPC } from './json-rpc-response.ts';
import {
  answerBytes,
  LEGACY_KEEP_ALIVE_MS,
  openSse,
  SSE_HEADERS,
  type SseStream,
} from './legacy-transport.ts';
import { decodeHeaderValue } from './param-headers.ts';

type RequestId = string | number;

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON-RPC answer as an HTTP response of `status`. */
function jsonAnswer(message: JSONRPCMessage, status: number): Response {
  return new Response(answerBytes(message), { status, headers: JSON_HEADERS });
}

/** A JSON-RPC error answer of the validation ladder. */
function ladderError(
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): Response {
  const error = { code, message, ...(data === undefined ? {} : { data }) };
  return jsonAnswer({ jsonrpc: '2.0', id, error } as JSONRPCMessage, status);
}

/** The `-32020` answer of headers that disagree with the body. */
function mismatch(id: RequestId, header: string, body: string): Response {
  return ladderError(
    400,
    id,
    JSON_RPC.HEADER_MISMATCH,
    `Bad Request: the request headers and body disagree: ${body}`,
    { mismatch: { header, body } },
  );
}

/**
 * The refusal of a 2026-era request whose standard headers are missing or disagree with its body: every request
 * names its protocol version and method, and a tools/call, prompts/get or resources/read its name or URI.
 */
export function standardHeaderRefusal(
  headers: Headers,
  message: { id: RequestId; method: string; params?: unknown },
  revision: string,
): Response | undefined {
  const { id, method } = message;
  if (!headers.has('mcp-protocol-version'))
    return mismatch(
      id,
      '(missing)',
      `the body envelope names protocol version ${revision} but the required MCP-Protocol-Version header is absent`,
    );
  if (!headers.has('mcp-method'))
    return mismatch(
      id,
      '(missing)',
      `the body names method ${method} but the required Mcp-Method header is absent`,
    );
  const field = Object.hasOwn(MCP_NAME_FIELD, method) ? MCP_NAME_FIELD[method] : undefined;
  if (field === undefined) return undefined;
  const params = message.params as Record<string, unknown> | undefined;
  const raw = params?.[field];
  const bodyValue = typeof raw === 'string' ? raw : undefined;
  const header = headers.get('mcp-name');
  if (header === null) {
    if (bodyValue === undefined) return undefined;
    return mismatch(
      id,
      '(missing)',
      `the body carries params.${field}="${bodyValue}" but the required Mcp-Name header is absent`,
    );
  }
  const decoded = decodeHeaderValue(header);
  if (decoded === undefined)
    return mismatch(id, header, 'the Mcp-Name header carries an invalid Base64 sentinel value');
  if (bodyValue !== undefined && decoded !== bodyValue)
    return mismatch(
      id,
      header,
      `the body carries params.${field}="${bodyValue}" but the Mcp-Name header names "${decoded}"`,
    );
  return undefined;
}

/**
 * One request's exchange: its HTTP response is settled by the first of its answer (JSON) or a notification (an SSE
 * stream, which then carries the answer as its last event); a client gone first gets no answer (499).
 */
class HttpExchange implements ModernReply {
  readonly controller = new AbortController();
  readonly response: Promise<Response>;
  #resolve!: (response: Response) => void;
  #stream: SseStream | undefined;
  #settled = false;
  #done = false;
  #cleanup: (() => void) | undefined;

  /** `signal` is the HTTP request's, `closing` the endpoint's: either ends the exchange unanswered. */
  constructor(signal: AbortSignal, closing: AbortSignal) {
    this.response = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    const onAbort = () => this.#close();
    if (signal.aborted || closing.aborted) onAbort();
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      closing.addEventListener('abort', onAbort, { once: true });
      this.#cleanup = () => {
        signal.removeEventListener('abort', onAbort);
        closing.removeEventListener('abort', onAbort);
      };
    }
  }

  notify(message: JSONRPCMessage): Promise<void> {
    if (this.#done) return Promise.resolve();
    if (this.#stream === undefined) this.#open();
    this.#stream?.write(message);
    return Promise.resolve();
  }

  answer(message: JSONRPCMessage, status: number): void {
    if (this.#done) return;
    this.#done = true;
    this.#cleanup?.();
    if (this.#stream === undefined) {
      this.#settle(jsonAnswer(message, status));
      return;
    }
    this.#stream.write(message);
    this.#stream.close();
  }

  #open(): void {
    const { body, stream } = openSse(LEGACY_KEEP_ALIVE_MS, () => this.#close());
    this.#stream = stream;
    this.#settle(new Response(body, { status: 200, headers: SSE_HEADERS }));
  }

  #settle(response: Response): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(response);
  }

  /** The client went away: the call is aborted and never answered. */
  #close(): void {
    if (this.#done) return;
    this.#done = true;
    this.#cleanup?.();
    this.#stream?.close();
    this.controller.abort(new Error('the client closed the request'));
    this.#settle(new Response(null, { status: 499 }));
  }
}

/** The SSE stream of one `subscriptions/listen` request. */
function listenStream(
  listeners: ModernListeners,
  id: RequestId,
  params: unknown,
  signal: AbortSignal,
): Response {
  let stream: SseStream | undefined;
  let ended = false;
  // Set once the subscription is open: the client's going away ends it without a result.
  let cancel = () => {};
  const { body, stream: opened } = openSse(LEGACY_KEEP_ALIVE_MS, () => cancel());
  stream = opened;
  const subscription = listeners.open(id, params, {
    send: (message) => void stream?.write(message),
    ended: () => {
      ended = true;
      stream?.close();
      stream = undefined;
    },
  });
  if (!('end' in subscription)) {
    opened.close();
    return jsonAnswer(subscription, 200);
  }
  cancel = () => subscription.end(false);
  if (subscription.empty) subscription.end(true);
  else if (!ended) {
    if (signal.aborted) cancel();
    else signal.addEventListener('abort', cancel, { once: true });
  }
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

/** What serves the 2026-era requests of an endpoint. */
export interface ModernDoor {
  server: ModernServer;
  listeners: ModernListeners;
  /** Aborted when the endpoint closes: every exchange still running ends unanswered. */
  closing: AbortSignal;
}

/** Serves one classified 2026-era HTTP request of `identity` with the gateway's 2026-era server. */
export async function serveModernHttp(
  route: InboundModernRoute,
  request: Request,
  identity: DownstreamIdentity,
  door: ModernDoor,
): Promise<Response> {
  const { server, listeners } = door;
  const revision = route.classification.revision;
  const message = route.message as { id?: RequestId; method: string; params?: unknown };
  const id = route.messageKind === 'request' ? (message.id as RequestId) : undefined;
  if (revision !== MODERN_PROTOCOL_VERSION) {
    const error = new UnsupportedProtocolVersionError({
      supported: [MODERN_PROTOCOL_VERSION],
      requested: revision ?? 'unknown',
    });
    return ladderError(400, id ?? null, error.code, error.message, error.data);
  }
  // A notification has nothing to answer, and a 2026-era one has no request of this exchange to act on.
  if (id === undefined) return new Response(null, { status: 202 });
  const refusal = standardHeaderRefusal(
    request.headers,
    { id, method: message.method, params: message.params },
    revision,
  );
  if (refusal !== undefined) return refusal;
  if (message.method === 'subscriptions/listen')
    return listenStream(listeners, id, message.params, request.signal);
  const exchange = new HttpExchange(request.signal, door.closing);
  server.serve(
    { id, method: message.method, params: message.params },
    identity,
    exchange.controller.signal,
    exchange,
  );
  return exchange.response;
}
