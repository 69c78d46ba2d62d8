import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../echo-upstream.ts';
import { originOf, summarizeProfile } from '../profile.ts';
import { describeSignal } from '../sections/leak-check.ts';
import { startSignalProbe } from '../signal-probe.ts';

const srcUrl = pathToFileURL(path.join(ROOT, 'src/gateway/not-loaded.ts')).href;
const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 4, columnNumber: 0 });

describe('summarizeProfile', () => {
  // root -> gatewayCall (src) -> helper (node_modules) ; root -> (idle)
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 4] },
      { id: 2, callFrame: frame('gatewayCall', srcUrl), children: [3] },
      { id: 3, callFrame: frame('helper', 'file:///x/node_modules/@scope/pkg/index.js') },
      { id: 4, callFrame: frame('(idle)') },
    ],
    samples: [2, 3, 3, 4],
    timeDeltas: [1000, 2000, 3000, 4000],
  };

  it('splits self and inclusive time and attributes gateway frames by file:line', () => {
    const summary = summarizeProfile(profile);
    expect(summary.totalMs).toBe(10);
    expect(summary.idleMs).toBe(4);
    expect(summary.gatewayMs).toBe(6);
    expect(summary.byInclusive[0]).toEqual({
      where: 'gatewayCall src/gateway/not-loaded.ts:5',
      selfMs: 1,
      inclusiveMs: 6,
    });
    expect(summary.byOrigin).toContainEqual({ origin: '@scope/pkg', selfMs: 5 });
    expect(summary.byOrigin).toContainEqual({ origin: '(idle)', selfMs: 4 });
  });

  it.each([
    [frame('x', 'node:internal/streams'), 'node internals'],
    [frame('x', 'file:///a/node_modules/zod/v4/core.js'), 'zod'],
    [frame('x', 'file:///a/node_modules/@hono/node-server/dist/index.mjs'), '@hono/node-server'],
    [frame('(garbage collector)'), '(garbage collector)'],
    [frame('x', srcUrl), 'src (gateway)'],
  ])('originOf %j is %s', (f, origin) => {
    expect(originOf(f)).toBe(origin);
  });
});

describe('startSignalProbe', () => {
  let url = '';
  const server = createServer((_req, res) => res.end('ok'));
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sees a long-lived signal passed directly and one used as an AbortSignal.any source', async () => {
    const direct = new AbortController();
    const composed = new AbortController();
    const probe = startSignalProbe(1);
    for (let i = 0; i < 20; i += 1) {
      await (await fetch(url, { signal: direct.signal })).text();
      const perRequest = new AbortController();
      await (await fetch(url, { signal: AbortSignal.any([composed.signal, perRequest.signal]) })).text();
    }
    const reports = await probe.finish();
    const plain = reports.find((r) => r.label.endsWith('(direct)'));
    const source = reports.find((r) => r.label.endsWith('(AbortSignal.any source)'));
    expect(plain?.fetches).toBe(20);
    expect(source?.fetches).toBe(20);
    // Node 20 keeps one entry per composite on the source for good; later Node versions prune dead ones.
    if (Number(process.versions.node.split('.')[0]) === 20) expect(source?.dependantsAfterGc).toBe(20);
    expect(globalThis.fetch.name).toBe('fetch');
  });

  it('describes retained listeners and dependants in words', () => {
    expect(
      describeSignal({
        label: 'a',
        fetches: 10,
        peakAbortListeners: 9,
        abortListenersAfterGc: 0,
        dependantsAfterGc: 0,
      }),
    ).toBe('a: 10 fetches, abort listeners peak >= 9, 0 after GC');
    expect(
      describeSignal({
        label: 'b',
        fetches: 10,
        peakAbortListeners: 9,
        abortListenersAfterGc: 50,
        dependantsAfterGc: 10,
      }),
    ).toBe(
      'b: 10 fetches, 50 abort listeners RETAINED after GC, 10 AbortSignal.any dependants retained after GC',
    );
  });
});
