/**
 * A tiny OTLP/HTTP sink for the bench: accepts every POST (`<prefix>/v1/traces`, `<prefix>/v1/metrics`), answers
 * 200 and discards the body after counting the spans in it, per path prefix (one prefix per gateway).
 * `GET /stats` returns the counts as JSON. Run with: node --import tsx bench/otlp-sink-server.ts
 * It listens on 127.0.0.1 and a free port and prints `listening <base url>` on stdout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

/** The line prefix the sink prints once it accepts connections. */
export const SINK_LISTENING_PREFIX = 'listening ';

/** What the sink received under one path prefix. */
export interface SinkCounts {
  tracePosts: number;
  spans: number;
  metricPosts: number;
  otherPosts: number;
  bytes: number;
  /** Bodies that were not OTLP JSON (protobuf, garbage): counted, not parsed. */
  unparsed: number;
}

/** Counts by path prefix (`/inproc/v1/traces` counts under `inproc`; no prefix is `(root)`). */
export type SinkStats = Record<string, SinkCounts>;

/** The number of spans in an OTLP/JSON ExportTraceServiceRequest; 0 for anything else. */
export function countOtlpSpans(body: unknown): number {
  const resourceSpans = (body as { resourceSpans?: unknown } | null)?.resourceSpans;
  if (!Array.isArray(resourceSpans)) return 0;
  let spans = 0;
  for (const rs of resourceSpans) {
    const scopeSpans = (rs as { scopeSpans?: unknown } | null)?.scopeSpans;
    if (!Array.isArray(scopeSpans)) continue;
    for (const ss of scopeSpans) {
      const list = (ss as { spans?: unknown } | null)?.spans;
      if (Array.isArray(list)) spans += list.length;
    }
  }
  return spans;
}

/** Splits a request path into the sink key (the gateway's prefix) and the OTLP signal. */
export function classifySinkPath(path: string): { key: string; signal: 'traces' | 'metrics' | 'other' } {
  const clean = path.split('?')[0] ?? '';
  const match = /^(.*?)\/v1\/(traces|metrics)\/?$/.exec(clean);
  if (!match) return { key: clean.replace(/^\/+|\/+$/g, '') || '(root)', signal: 'other' };
  const key = (match[1] ?? '').replace(/^\/+|\/+$/g, '') || '(root)';
  return { key, signal: match[2] as 'traces' | 'metrics' };
}

function emptyCounts(): SinkCounts {
  return { tracePosts: 0, spans: 0, metricPosts: 0, otherPosts: 0, bytes: 0, unparsed: 0 };
}

/** Builds the sink's HTTP server (not listening yet) and the live counts it updates. */
export function createSinkServer(): { server: Server; stats: SinkStats } {
  const stats: SinkStats = {};
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/stats') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { key, signal } = classifySinkPath(request.url ?? '/');
      const counts = (stats[key] ??= emptyCounts());
      let raw = Buffer.concat(chunks);
      counts.bytes += raw.length;
      if (signal === 'traces') {
        counts.tracePosts += 1;
        try {
          if (request.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
          counts.spans += countOtlpSpans(JSON.parse(raw.toString('utf8')));
        } catch {
          counts.unparsed += 1;
        }
      } else if (signal === 'metrics') counts.metricPosts += 1;
      else counts.otherPosts += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, stats };
}

// Only run when executed as a script, so tests can import the pure parts without side effects.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { server } = createSinkServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${SINK_LISTENING_PREFIX}http://127.0.0.1:${port}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
