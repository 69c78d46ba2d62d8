import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { countsFor } from '../otlp-sink.ts';
import { classifySinkPath, countOtlpSpans, createSinkServer, type SinkStats } from '../otlp-sink-server.ts';

const traces = (...perScope: number[][]) => ({
  resourceSpans: perScope.map((scopes) => ({
    resource: { attributes: [] },
    scopeSpans: scopes.map((n) => ({ scope: { name: 'x' }, spans: Array.from({ length: n }, () => ({})) })),
  })),
});

describe('countOtlpSpans', () => {
  it.each([
    [traces([2, 3], [1]), 6],
    [traces([]), 0],
    [{ resourceSpans: [{ scopeSpans: [{}] }, null] }, 0],
    [{ resourceMetrics: [] }, 0],
    [null, 0],
    ['text', 0],
  ])('%j holds %s spans', (body, spans) => {
    expect(countOtlpSpans(body)).toBe(spans);
  });
});

describe('classifySinkPath', () => {
  it.each([
    ['/portcullis-stdio/v1/traces', 'portcullis-stdio', 'traces'],
    ['/a/b/v1/metrics', 'a/b', 'metrics'],
    ['/v1/traces', '(root)', 'traces'],
    ['/gw/v1/traces?x=1', 'gw', 'traces'],
    ['/gw/v1/logs', 'gw/v1/logs', 'other'],
  ])('%s -> %s %s', (path, key, signal) => {
    expect(classifySinkPath(path)).toEqual({ key, signal });
  });
});

describe('the sink server on 127.0.0.1', () => {
  const { server, stats } = createSinkServer();
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts spans per prefix, plain and gzipped, answers 200 and serves the counts', async () => {
    const post = (path: string, body: Uint8Array | string, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
      });
    expect((await post('/gw/v1/traces', JSON.stringify(traces([2])))).status).toBe(200);
    await post('/gw/v1/traces', gzipSync(JSON.stringify(traces([3, 1]))), { 'content-encoding': 'gzip' });
    await post('/gw/v1/metrics', '{}');
    await post('/other/v1/traces', 'not json');
    const served = (await (await fetch(`${base}/stats`)).json()) as SinkStats;
    expect(served).toEqual(stats);
    expect(countsFor(served, 'gw')).toMatchObject({ tracePosts: 2, spans: 6, metricPosts: 1, unparsed: 0 });
    expect(countsFor(served, 'other')).toMatchObject({ tracePosts: 1, spans: 0, unparsed: 1 });
    expect(countsFor(served, 'absent')).toMatchObject({ tracePosts: 0, spans: 0 });
  });
});
