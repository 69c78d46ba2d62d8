import { describe, expect, it } from 'vitest';
import {
  checkTargets,
  compareCells,
  cpuBudget,
  type ProxyCell,
  type ProxyPath,
  type Upstream,
} from '../sections/proxy-overhead.ts';
import { summarize } from '../stats.ts';

/** A cell whose every call took `latency` ms, over a wall time giving `rate` calls/s. */
function cell(
  upstream: Upstream,
  path: ProxyPath,
  concurrency: number,
  latency: number,
  rate: number,
): ProxyCell {
  const calls = 100;
  return { upstream, path, concurrency, stats: summarize(Array(calls).fill(latency), (calls * 1000) / rate) };
}

describe('compareCells', () => {
  it('pairs each gateway cell with the direct cell of the same upstream and concurrency', () => {
    const comparisons = compareCells([
      cell('stdio', 'direct', 1, 1.0, 900),
      cell('stdio', 'portcullis-stdio', 1, 1.6, 600),
      cell('stdio', 'portcullis-inproc', 1, 2.0, 450),
      cell('http', 'direct', 16, 4.0, 2000),
      cell('http', 'portcullis-http', 16, 5.0, 1500),
      cell('http', 'portcullis-http', 1, 9.0, 100),
    ]);
    expect(comparisons).toHaveLength(3);
    expect(comparisons[0]).toMatchObject({ upstream: 'stdio', path: 'portcullis-stdio', concurrency: 1 });
    expect(comparisons[0]?.p50DeltaMs).toBeCloseTo(0.6);
    expect(comparisons[0]?.throughputRatio).toBeCloseTo(600 / 900);
    expect(comparisons[1]).toMatchObject({ path: 'portcullis-inproc' });
    expect(comparisons[1]?.p50DeltaMs).toBeCloseTo(1.0);
    expect(comparisons[2]).toMatchObject({ upstream: 'http', path: 'portcullis-http', concurrency: 16 });
    expect(comparisons[2]?.throughputRatio).toBeCloseTo(0.75);
  });
});

describe('checkTargets', () => {
  it.each([
    // [p50 direct, p50 gateway, rate direct c16, rate gateway c16, p50 pass, throughput pass]
    [1.0, 1.3, 1000, 650, true, true],
    [1.0, 1.4, 1000, 600, true, true],
    [1.0, 1.41, 1000, 599, false, false],
    [0.5, 3.5, 1000, 100, false, false],
  ])('direct p50 %s vs %s ms, %s vs %s calls/s', (p50d, p50g, rd, rg, p50Pass, ratePass) => {
    const targets = checkTargets(
      compareCells([
        cell('stdio', 'direct', 1, p50d, 500),
        cell('stdio', 'portcullis-stdio', 1, p50g, 400),
        cell('stdio', 'direct', 16, 5, rd),
        cell('stdio', 'portcullis-stdio', 16, 5, rg),
      ]),
      16,
    );
    expect(targets.map((t) => t.pass)).toEqual([p50Pass, ratePass]);
  });

  it('evaluates the path it is asked for, and labels the reference path', () => {
    const comparisons = compareCells([
      cell('stdio', 'direct', 1, 1.0, 500),
      cell('stdio', 'portcullis-stdio', 1, 1.3, 400),
      cell('stdio', 'portcullis-http', 1, 5.0, 100),
      cell('stdio', 'direct', 16, 5, 1000),
      cell('stdio', 'portcullis-stdio', 16, 5, 900),
      cell('stdio', 'portcullis-http', 16, 5, 300),
    ]);
    const own = checkTargets(comparisons, 16, 'portcullis-stdio');
    const shown = checkTargets(comparisons, 16, 'portcullis-http');
    expect(own.map((t) => t.pass)).toEqual([true, true]);
    expect(shown.map((t) => t.pass)).toEqual([false, false]);
    expect(own[0]?.name).toMatch(/^\[portcullis-stdio\] /);
    expect(shown[0]?.name).toMatch(/^\[portcullis-http, shown for reference\] /);
    expect(shown[1]?.detail).toBe('30.0%');
  });

  it('misses a target that was not measured', () => {
    const targets = checkTargets([], 16);
    expect(targets.every((t) => !t.pass && t.detail === 'not measured')).toBe(true);
  });
});

describe('cpuBudget', () => {
  /** A cell whose client spent `client` ms of CPU per call, with the gateway and upstream figures given. */
  const withCpu = (path: ProxyPath, client: number, upstream: number, gateway?: number): ProxyCell => ({
    upstream: 'stdio',
    path,
    concurrency: 16,
    stats: summarize(Array(100).fill(1), 1000, 0, client * 100),
    upstreamCpuMsPerCall: upstream,
    ...(gateway === undefined ? {} : { gatewayCpuMsPerCall: gateway }),
  });

  it.each([
    // client, upstream (direct) | client, gateway, upstream (through) -> ceiling, allowance for 80% of direct
    [0.1, 0.1, 0.1, 0.05, 0.1, 0.8, 0.05],
    [0.1, 0.1, 0.1, 0.3, 0.1, 0.4, 0.05],
    [0.2, 0.2, 0.25, 0.5, 0.25, 0.4, 0.0],
  ])('direct %s + %s, through %s + %s + %s', (dc, du, gc, gg, gu, ceiling, allowance) => {
    const budget = cpuBudget(withCpu('direct', dc, du), withCpu('portcullis-stdio', gc, gu, gg), 0.8);
    expect(budget?.ceilingRatio).toBeCloseTo(ceiling, 6);
    expect(budget?.gatewayAllowanceMs).toBeCloseTo(allowance, 6);
  });

  it('is undefined when a process could not be measured', () => {
    expect(
      cpuBudget(withCpu('direct', 0.1, Number.NaN), withCpu('portcullis-stdio', 0.1, 0.1, 0.1)),
    ).toBeUndefined();
  });
});
