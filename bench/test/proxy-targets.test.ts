import { describe, expect, it } from 'vitest';
import { checkTargets, compareCells, type ProxyCell } from '../sections/proxy-overhead.ts';
import { summarize } from '../stats.ts';

/** A cell whose every call took `latency` ms, over a wall time giving `rate` calls/s. */
function cell(
  upstream: 'stdio' | 'http',
  path: 'direct' | 'portcullis',
  concurrency: number,
  latency: number,
  rate: number,
): ProxyCell {
  const calls = 100;
  return { upstream, path, concurrency, stats: summarize(Array(calls).fill(latency), (calls * 1000) / rate) };
}

describe('compareCells', () => {
  it('pairs each portcullis cell with the direct cell of the same upstream and concurrency', () => {
    const comparisons = compareCells([
      cell('stdio', 'direct', 1, 1.0, 900),
      cell('stdio', 'portcullis', 1, 1.6, 600),
      cell('http', 'direct', 16, 4.0, 2000),
      cell('http', 'portcullis', 16, 5.0, 1500),
      cell('http', 'portcullis', 1, 9.0, 100),
    ]);
    expect(comparisons).toHaveLength(2);
    expect(comparisons[0]).toMatchObject({ upstream: 'stdio', concurrency: 1 });
    expect(comparisons[0]?.p50DeltaMs).toBeCloseTo(0.6);
    expect(comparisons[0]?.throughputRatio).toBeCloseTo(600 / 900);
    expect(comparisons[1]).toMatchObject({ upstream: 'http', concurrency: 16 });
    expect(comparisons[1]?.throughputRatio).toBeCloseTo(0.75);
  });
});

describe('checkTargets', () => {
  it.each([
    // [p50 direct, p50 gateway, rate direct c16, rate gateway c16, p50 pass, throughput pass]
    [1.0, 1.9, 1000, 850, true, true],
    [1.0, 2.0, 1000, 800, true, true],
    [1.0, 2.01, 1000, 799, false, false],
    [0.5, 3.5, 1000, 100, false, false],
  ])('direct p50 %s vs %s ms, %s vs %s calls/s', (p50d, p50g, rd, rg, p50Pass, ratePass) => {
    const targets = checkTargets(
      compareCells([
        cell('stdio', 'direct', 1, p50d, 500),
        cell('stdio', 'portcullis', 1, p50g, 400),
        cell('stdio', 'direct', 16, 5, rd),
        cell('stdio', 'portcullis', 16, 5, rg),
      ]),
      16,
    );
    expect(targets.map((t) => t.pass)).toEqual([p50Pass, ratePass]);
  });

  it('misses a target that was not measured', () => {
    const targets = checkTargets([], 16);
    expect(targets.every((t) => !t.pass && t.detail === 'not measured')).toBe(true);
  });
});
