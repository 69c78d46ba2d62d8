import { describe, expect, it } from 'vitest';
import { percentile, summarize } from '../stats.ts';

describe('percentile (nearest rank)', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  it.each([
    [50, 50],
    [99, 99],
    [100, 100],
    [1, 1],
    [0.5, 1],
  ])('p%s of 1..100 is %s', (p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it.each([
    [[7], 50, 7],
    [[7], 99, 7],
    [[1, 2, 3], 50, 2],
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4], 99, 4],
  ])('p of %j at %s is %s', (sorted, p, expected) => {
    expect(percentile(sorted, p)).toBe(expected);
  });

  it('is NaN for no values', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('summarize', () => {
  it('sorts, counts and derives the rate from the wall time', () => {
    const stats = summarize([3, 1, 2, 10], 2000, 1, 8);
    expect(stats).toMatchObject({ calls: 4, errors: 1, p50Ms: 2, p99Ms: 10, maxMs: 10, meanMs: 4 });
    expect(stats.callsPerSec).toBeCloseTo(2);
    expect(stats.cpuMsPerCall).toBeCloseTo(2);
  });

  it('reports NaN rather than zero when nothing was measured', () => {
    const stats = summarize([], 0);
    expect(stats.calls).toBe(0);
    expect(stats.p50Ms).toBeNaN();
    expect(stats.callsPerSec).toBeNaN();
  });
});
