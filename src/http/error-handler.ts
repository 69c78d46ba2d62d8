/**
 * The app-wide answers for what no route handled: an error a route threw (500 JSON-RPC `INTERNAL`, one masked
 * `http.internal_error` warn line, never a stack) or a client that went away mid-request (one
 * `http.client_aborted` debug line; nobody is left to read the answer), and an unknown path (404 JSON).
 */
import type { Context, Hono } from 'hono';
import { isPortcullisError } from '../errors/index.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';

/** Where the handlers log. */
type Log = (event: string, fields: Record<string, unknown>, level: 'debug' | 'warn') => void;

/** A client-controlled path is cut to this many characters in a log line. */
const MAX_PATH_CHARS = 200;
/** A log line carries at most this many characters of an error message (its first line only). */
const MAX_MESSAGE_CHARS = 500;
const ABORT_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ABORT_ERR']);

function isClientAbort(error: unknown, request: Request): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return request.signal.aborted || (typeof code === 'string' && ABORT_CODES.has(code));
}

function where(c: Context): { method: string; path: string } {
  return { method: c.req.method.slice(0, 16), path: c.req.path.slice(0, MAX_PATH_CHARS) };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n', 1)[0] ?? '').slice(0, MAX_MESSAGE_CHARS);
}

/** Installs `onError` and `notFound` on the gateway's app; `log` masks what it writes. */
export function installErrorHandlers(app: Hono, log: Log): void {
  app.onError((error, c) => {
    const code = isPortcullisError(error) ? error.code : (error as { code?: unknown } | null)?.code;
    if (isClientAbort(error, c.req.raw)) {
      log('http.client_aborted', { ...where(c), code: typeof code === 'string' ? code : undefined }, 'debug');
      return jsonRpcError(
        400,
        JSON_RPC.INVALID_REQUEST,
        'INVALID_REQUEST',
        'the request was not received completely',
      );
    }
    log(
      'http.internal_error',
      { ...where(c), code: typeof code === 'string' ? code : 'INTERNAL', message: firstLine(error) },
      'warn',
    );
    return jsonRpcError(500, JSON_RPC.INTERNAL_ERROR, 'INTERNAL', 'internal error; see the gateway log');
  });
  app.notFound((c) =>
    c.json(
      {
        error: {
          code: 'NOT_FOUND',
          message: 'no such path; the gateway serves /mcp, /healthz, /readyz and /admin/api',
        },
      },
      404,
    ),
  );
}
