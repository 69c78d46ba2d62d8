// A small HTTP server on 127.0.0.1 for egress tests: fixed bodies, redirects, an echo, and a large stream.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stream route observed about its connection. */
export interface StreamObservation {
  bytesWritten: number;
  finished: boolean;
  closed: Promise<void>;
}

export interface LocalServer {
  port: number;
  /** Requests seen, in order (method, path, host header). */
  seen: Array<{ method: string; path: string; host: string | undefined }>;
  streams: StreamObservation[];
  close(): Promise<void>;
}

const STREAM_TOTAL = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function stream(res: ServerResponse, observations: StreamObservation[]): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let closedResolve!: () => void;
  const observation: StreamObservation = {
    bytesWritten: 0,
    finished: false,
    closed: new Promise((resolve) => {
      closedResolve = resolve;
    }),
  };
  observations.push(observation);
  res.on('finish', () => {
    observation.finished = true;
  });
  res.on('close', () => closedResolve());
  const pump = (): void => {
    while (observation.bytesWritten < STREAM_TOTAL && !res.destroyed) {
      observation.bytesWritten += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

export async function startLocalServer(): Promise<LocalServer> {
  const seen: LocalServer['seen'] = [];
  const streams: StreamObservation[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    seen.push({ method: req.method ?? '', path: url.pathname, host: req.headers.host });
    switch (url.pathname) {
      case '/ok':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-multi': ['a', 'b'] });
        res.end('hello world');
        return;
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ greeting: 'hi', n: 3 }));
        return;
      case '/redirect': {
        const status = Number(url.searchParams.get('status') ?? '302');
        res.writeHead(status, { location: url.searchParams.get('to') ?? '/ok' });
        res.end();
        return;
      }
      case '/hops': {
        const left = Number(url.searchParams.get('left') ?? '0');
        if (left <= 0) {
          res.writeHead(200);
          res.end('landed');
          return;
        }
        res.writeHead(302, { location: `/hops?left=${left - 1}` });
        res.end();
        return;
      }
      case '/echo':
        void readBody(req).then((body) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
        });
        return;
      case '/stream':
        stream(res, streams);
        return;
      default:
        res.writeHead(404);
        res.end('missing');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    streams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
