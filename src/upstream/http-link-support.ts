/**
 * What both HTTP upstream links share (http-link.ts, Streamable HTTP; sse-link.ts, the 2024-11-05 HTTP+SSE
 * transport): the cap on one message, fetch with the redirect rule, bounded reads of bodies, the errors an HTTP
 * answer becomes, and the reading of JSON-RPC messages out of a body or an event.
 *
 * Redirects are followed only within the upstream's origin and only where the method is kept (GET, or 307/308),
 * five at most; any other redirect is an error naming where it pointed, so configured headers never reach another
 * origin. Error answers are read only for a bounded excerpt, and an HTML page is named as such rather than echoed.
 */
import {
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { plainMessage, readJsonRpcMessage } from '../shared/index.ts';
import { UpstreamMessageTooLarge } from './message-too-large.ts';

/** The default cap on one message an HTTP upstream sends (a JSON body, or one event), as on stdio links. */
export const DEFAULT_MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** Bytes of an error answer read for its message (the rest is not read). */
const ERROR_BODY_BYTES = 4096;
/** Characters of an error answer quoted in its message. */
const QUOTED_CHARS = 200;
/** Redirect hops followed at most. */
const MAX_REDIRECTS = 5;

/** An HTTP or SSE upstream sent a message over the link's cap (the link is dropped, reason `message-too-large`). */
export class HttpMessageTooLarge extends UpstreamMessageTooLarge {
  constructor(limit: number) {
    super(limit, 'HTTP');
    this.name = 'HttpMessageTooLarge';
  }
}

/** The failure of a request the link itself ended: the link closed while it was in flight. */
export const connectionClosed = (): SdkError =>
  new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');

/**
 * The configured headers as a Headers object. A name or value HTTP cannot carry (a newline in a token, say) fails
 * with an error naming the header, never quoting its value, which is often a secret.
 */
export function configuredHeaders(headers: Readonly<Record<string, string>>): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    try {
      result.set(name, value);
    } catch {
      throw new Error(
        `the configured header "${name.slice(0, 64)}" cannot be sent: its name or value holds a character HTTP does not allow (a newline or another control character); fix it in the upstream's headers`,
      );
    }
  }
  return result;
}

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(response: Response): string | undefined {
  const header = response.headers.get('content-type');
  if (header === null) return undefined;
  return (header.split(';', 1)[0] ?? '').trim().toLowerCase() || undefined;
}

/** `fetch` with the link's redirect rule (see the file comment); a redirect not followed is returned as it is. */
export async function linkFetch(url: URL, init: RequestInit & { method: string }): Promise<Response> {
  let current = url;
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { ...init, redirect: 'manual' });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new Error(`${init.method} ${current.origin}${current.pathname} failed: ${networkCause(error)}`, {
        cause: error,
      });
    }
    const target = redirectTarget(current, response);
    const keepsMethod = init.method === 'GET' || response.status === 307 || response.status === 308;
    if (!target || hop === MAX_REDIRECTS || !keepsMethod || target.origin !== url.origin) return response;
    await discard(response);
    current = target;
  }
}

/** Where a redirect answer points, or undefined when it is none (or points nowhere readable). */
function redirectTarget(from: URL, response: Response): URL | undefined {
  if (response.status < 300 || response.status > 399) return undefined;
  const location = response.headers.get('location');
  if (location === null) return undefined;
  try {
    return new URL(location, from);
  } catch {
    return undefined;
  }
}

/** What a failed fetch says, from undici's cause (ECONNREFUSED and the like). */
function networkCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Reads a body to its end, or undefined (the body cancelled) once it passes `maxBytes`. */
export async function readBounded(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  const body = response.body;
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, total);
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
}

/** Throws the body away without reading it (an answer with nothing the link needs). */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** At most the first ERROR_BODY_BYTES of a body, decoded; the rest is not read. */
async function excerpt(response: Response): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
    }
  } catch {
    // A body that broke off still says what it said so far.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks, total).subarray(0, ERROR_BODY_BYTES).toString('utf8');
}

/**
 * The error of an HTTP answer that is not a success: an SdkHttpError (the era probe reads its status and
 * body) whose message names the request, the status and, briefly, what the server said or where it redirected.
 */
export async function httpError(
  code: SdkErrorCode,
  what: string,
  url: URL,
  response: Response,
): Promise<SdkHttpError> {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const target = redirectTarget(url, response);
  const text = target ? '' : await excerpt(response);
  if (target) await discard(response);
  let said: string;
  if (target) {
    target.username = target.password = target.search = target.hash = '';
    said = `a redirect to ${target.href}, not followed (another origin, or the method would change): configure that URL if it is the server's endpoint`;
  } else if (mediaType(response) === 'text/html') {
    said = 'an HTML page, not MCP: is the URL the MCP endpoint?';
  } else {
    said = quote(text);
  }
  return new SdkHttpError(code, `${what} answered ${status}${said ? `: ${said}` : ''}`, {
    status: response.status,
    statusText: response.statusText,
    text,
  });
}

/** A short, single-line quote of untrusted text: control characters and runs of space become one space. */
function quote(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  return flat.length > QUOTED_CHARS ? `${flat.slice(0, QUOTED_CHARS)}…` : flat;
}

/**
 * The messages of a JSON text: one message or a batch (an array, read with one loop). Throws a SyntaxError when the
 * text is not JSON; an element that is not a JSON-RPC message is counted in `invalid` and skipped.
 */
export function readMessages(text: string): { messages: JSONRPCMessage[]; invalid: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SyntaxError(`the upstream sent a body that is not JSON: ${quote(text.slice(0, 400))}`);
  }
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  const messages: JSONRPCMessage[] = [];
  let invalid = 0;
  for (const item of items) {
    const message = plainMessage(item) ?? readJsonRpcMessage(item);
    if (message === undefined) invalid++;
    else messages.push(message);
  }
  return { messages, invalid };
}

/** The error reported (not fatal) for what an upstream sent that is no JSON-RPC message. */
export const notJsonRpc = (count: number): Error =>
  new Error(
    `the upstream sent ${count === 1 ? 'a message' : `${count} messages`} that is not JSON-RPC (skipped)`,
  );
