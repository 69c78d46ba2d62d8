import { describe, expect, it } from 'vitest';
import {
  bestPeers,
  peerReport,
  peerTable,
  peerTargets,
  times,
  type MeasuredCell,
  type PathFigures,
} from '../peer-compare.ts';
import { summarize } from '../stats.ts';

const row = (
  path: string,
  seqP50Ms: number,
  parCallsPerSec: number,
  parCpuMsPerCall: number,
): PathFigures => ({
  path,
  seqP50Ms,
  seqP99Ms: seqP50Ms * 2,
  parCallsPerSec,
  parCpuMsPerCall,
});

describe('bestPeers', () => {
  it('picks the best peer on each measure, which may differ', () => {
    const best = bestPeers([row('mcp-proxy', 3.5, 615, 1.2), row('supergateway', 2.4, 592, 1.3)]);
    expect(best?.fastest.path).toBe('mcp-proxy');
    expect(best?.quickest.path).toBe('supergateway');
    expect(best?.cheapest.path).toBe('mcp-proxy');
  });

  it('never lets an unmeasured CPU win, and is undefined with no peer', () => {
    expect(bestPeers([row('a', 1, 1, Number.NaN), row('b', 1, 1, 2)])?.cheapest.path).toBe('b');
    expect(bestPeers([row('a', 1, 1, 2), row('b', 1, 1, Number.NaN)])?.cheapest.path).toBe('a');
    expect(bestPeers([])).toBeUndefined();
  });
});

describe('peerTargets', () => {
  const peers = [row('mcp-proxy', 3.55, 615, 1.2), row('supergateway', 2.42, 592, 1.09)];

  it.each([
    // [gateway seq p50, calls/s, cpu] -> [cpu <= 0.35, cpu <= a third, calls/s >= 1.3x, p50 below]
    [1.99, 682, 1.4, [false, false, false, true]],
    [2.42, 800, 0.35, [true, true, true, false]],
    [2.41, 799.4, 0.3634, [false, false, false, true]],
    [1.0, 800, 0.3633, [false, true, true, true]],
  ])('gateway p50 %s ms, %s calls/s, %s ms CPU', (p50, callsPerSec, cpu, verdicts) => {
    const targets = peerTargets(row('portcullis-http', p50, callsPerSec, cpu), bestPeers(peers), 16);
    expect(targets.map((t) => t.pass)).toEqual(verdicts);
    expect(targets.every((t) => t.name.startsWith('[portcullis-http] '))).toBe(true);
  });

  it('names the peer each target is measured against', () => {
    const [, cpu, rate, p50] = peerTargets(row('portcullis-http', 2, 700, 1), bestPeers(peers), 16);
    expect(cpu?.name).toMatch(/\(supergateway\)$/);
    expect(cpu?.detail).toBe('1.00 vs 1.09 ms (0.92x)');
    expect(rate?.name).toMatch(/1\.3x the better peer's \(mcp-proxy\)$/);
    expect(rate?.detail).toBe('700 vs 615 calls/s (1.14x)');
    expect(p50?.detail).toBe('2.00 vs 2.42 ms');
  });

  it('misses every peer target when no peer was measured', () => {
    const targets = peerTargets(row('portcullis-http', 2, 700, 0.3), undefined, 16);
    expect(targets.map((t) => t.pass)).toEqual([true, false, false, false]);
    expect(targets.slice(1).every((t) => t.detail === 'no peer measured')).toBe(true);
  });
});

describe('peerTable', () => {
  it('prints each path with its ratios to the best peer on each measure', () => {
    const peers = [row('mcp-proxy', 4, 500, 2), row('supergateway', 2, 400, 1)];
    const best = bestPeers(peers);
    if (!best) throw new Error('no best peer');
    const table = peerTable([row('portcullis-http', 3, 1000, 0.5), ...peers], best, 16);
    expect(table.columns).toContain('c16 calls/s');
    expect(table.rows[0]).toEqual([
      'portcullis-http',
      '3.00',
      '6.00',
      '1.50x',
      '1,000',
      '2.00x',
      '0.50',
      '0.50x',
    ]);
    expect(table.rows[1]?.[5]).toBe('1.00x');
    expect(table.rows[2]?.[3]).toBe('1.00x');
  });

  it('formats a missing ratio as n/a', () => {
    expect(times(Number.NaN, 1)).toBe('n/a');
    expect(times(1, 0)).toBe('n/a');
  });
});

describe('peerReport', () => {
  const cell = (
    path: string,
    concurrency: number,
    latency: number,
    rate: number,
    cpu: number,
  ): MeasuredCell => ({
    upstream: 'stdio',
    path,
    concurrency,
    stats: summarize(Array(10).fill(latency), (10 * 1000) / rate),
    gatewayCpuMsPerCall: cpu,
  });

  it('reads the stdio cells of each path, and says why a peer has no row', () => {
    const cells = [
      cell('portcullis-http', 1, 2, 500, 1),
      cell('portcullis-http', 16, 20, 700, 0.3),
      cell('supergateway', 1, 3, 300, 1),
      cell('supergateway', 16, 30, 500, 1.2),
      { ...cell('mcp-proxy', 1, 1, 1, 1), upstream: 'http' },
    ];
    const report = peerReport(
      cells,
      'portcullis-http',
      ['mcp-proxy', 'supergateway'],
      { 'mcp-proxy': 'no port' },
      16,
    );
    expect(report.figures.rows.map((r) => r.path)).toEqual(['portcullis-http', 'supergateway']);
    expect(report.tables[0]?.rows).toHaveLength(2);
    expect(report.targets.map((t) => t.pass)).toEqual([true, true, true, true]);
    expect(report.lines).toEqual([
      'peer mcp-proxy could not start on this machine, so it has no row: no port',
    ]);
  });

  it('prints no table when no peer was measured', () => {
    const report = peerReport(
      [cell('portcullis-http', 1, 2, 500, 1)],
      'portcullis-http',
      ['supergateway'],
      {},
      16,
    );
    expect(report.tables).toEqual([]);
    expect(report.targets).toEqual([]);
  });
});
