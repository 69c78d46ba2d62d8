/**
 * One HTTP hop to a pre-checked address (DNS pinning, docs/rules/sandbox.md#r-egress-4-dns-pinning): node:http/https with a `lookup` that can only answer
 * the address the guard checked, so the connection cannot be re-resolved elsewhere. The Host header and TLS SNI
 * keep the hostname. The body is read with the cap enforced while streaming: past the cap the socket is closed.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { PortcullisError } from '../../errors/index.ts';
import type { EgressTarget } from './types.ts';

/** One request on the wire. */
export interface HopRequest {
  target: EgressTarget;
  method: string;
  headers: Array<[string, string]>;
  body: Buffer | null;
}

/** The head of a response; the body is read (or discarded) separately. */
export interface HopResponse {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  /** Reads the body: skips `startIndex` bytes, keeps at most `limit`, closes the socket past it. */
  readBody(startIndex: number, limit: number): Promise<BodySlice>;
  /** Closes the connection without reading the body. */
  discard(): void;
}

/** A slice of a response body. */
export interface BodySlice {
  body: Uint8Array;
  truncated: boolean;
  nextStartIndex: number | null;
}

function pinnedLookup(target: EgressTarget): LookupFunction {
  const { address, family } = target.address;
  // Whatever name the socket layer asks about, the answer is the checked address.
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

function joinHeaders(raw: string[]): Array<[string, string]> {
  const merged = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const previous = merged.get(name);
    merged.set(name, previous === undefined ? value : `${previous}, ${value}`);
  }
  return [...merged];
}

function abortError(signal: AbortSignal): PortcullisError {
  const reason: unknown = signal.reason;
  if (reason instanceof PortcullisError) return reason;
  return new PortcullisError('HELPER_RUNTIME', 'fetch was aborted', { reason: 'aborted' });
}

function connectionError(error: unknown, signal: AbortSignal): PortcullisError {
  if (error instanceof PortcullisError) return error;
  if (signal.aborted) return abortError(signal);
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return new PortcullisError('HELPER_RUNTIME', `fetch failed: ${message}`, {
    reason: 'connection-failed',
    ...(typeof code === 'string' ? { details: { errno: code } } : {}),
  });
}

/** Sends one request to the pinned address and resolves with the response head. */
export function sendPinnedRequest(
  request: HopRequest,
  options: { connectTimeoutMs: number; signal: AbortSignal },
): Promise<HopResponse> {
  const { target } = request;
  const secure = target.url.protocol === 'https:';
  const transport = secure ? https : http;
  const { signal } = options;
  return new Promise<HopResponse>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const requestOptions: https.RequestOptions = {
      protocol: target.url.protocol,
      hostname: target.hostname,
      port: target.url.port === '' ? (secure ? 443 : 80) : Number(target.url.port),
      path: `${target.url.pathname}${target.url.search}`,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      lookup: pinnedLookup(target),
      // No pooled sockets: a socket is only ever connected to the address checked for this hop.
      agent: false,
      ...(secure && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
    };
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      reject(connectionError(error, signal));
    };
    const req = transport.request(requestOptions);
    const onAbort = (): void => {
      req.destroy(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const connectTimer = setTimeout(() => {
      req.destroy(
        new PortcullisError(
          'HELPER_RUNTIME',
          `fetch could not connect within ${options.connectTimeoutMs} ms`,
          {
            reason: 'connect-timeout',
          },
        ),
      );
    }, options.connectTimeoutMs);
    req.once('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.once('error', (error) => {
      clearTimeout(connectTimer);
      signal.removeEventListener('abort', onAbort);
      fail(error);
    });
    req.once('response', (res) => {
      clearTimeout(connectTimer);
      settled = true;
      const cleanup = (): void => signal.removeEventListener('abort', onAbort);
      res.once('close', cleanup);
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: joinHeaders(res.rawHeaders),
        discard: () => {
          res.destroy();
        },
        readBody: (startIndex, limit) => readBody(res, startIndex, limit, signal),
      });
    });
    if (request.body !== null) req.end(request.body);
    else req.end();
  });
}

function readBody(
  res: http.IncomingMessage,
  startIndex: number,
  limit: number,
  signal: AbortSignal,
): Promise<BodySlice> {
  const declared = Number(res.headers['content-length']);
  const knownLength = Number.isFinite(declared) && declared >= 0 ? declared : null;
  return new Promise<BodySlice>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let skipped = 0;
    let kept = 0;
    let done = false;
    const finish = (truncated: boolean): void => {
      if (done) return;
      done = true;
      const body = Buffer.concat(chunks, kept);
      resolve({
        body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
        truncated,
        nextStartIndex: truncated ? startIndex + kept : null,
      });
    };
    const cut = (): void => {
      finish(true);
      // Past the cap: close the socket instead of draining the rest of the body.
      res.destroy();
    };
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      let data = chunk;
      if (skipped < startIndex) {
        const skip = Math.min(startIndex - skipped, data.length);
        skipped += skip;
        data = data.subarray(skip);
        if (data.length === 0) return;
      }
      if (kept >= limit) {
        cut();
        return;
      }
      const room = limit - kept;
      if (data.length > room) {
        chunks.push(data.subarray(0, room));
        kept += room;
        cut();
        return;
      }
      chunks.push(data);
      kept += data.length;
      if (kept === limit && knownLength !== null && knownLength > startIndex + limit) cut();
    });
    res.once('end', () => finish(false));
    res.once('error', (error) => {
      if (done) return;
      done = true;
      reject(connectionError(error, signal));
    });
    res.once('close', () => {
      if (done) return;
      if (res.complete) {
        finish(false);
        return;
      }
      done = true;
      reject(
        signal.aborted
          ? abortError(signal)
          : new PortcullisError('HELPER_RUNTIME', 'the connection closed before the body was complete', {
              reason: 'connection-failed',
            }),
      );
    });
  });
}
