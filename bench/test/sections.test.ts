import { describe, expect, it } from 'vitest';
import { leakSection } from '../sections/leak-check.ts';
import { proxySection } from '../sections/proxy-overhead.ts';
import type { BenchOptions } from '../types.ts';

const tiny: BenchOptions = { calls: 20, warmup: 5, concurrency: 4, leakCalls: 60, quick: true };

describe('bench sections against a real in-process gateway', () => {
  it('proxy measures eight cells, four comparisons and the two stdio targets', async () => {
    const result = await proxySection.run(tiny);
    const [cells, ratios] = result.tables;
    expect(cells?.rows).toHaveLength(8);
    expect(ratios?.rows).toHaveLength(4);
    expect(cells?.rows.every((row) => row.at(-1) === '0')).toBe(true);
    expect(result.targets).toHaveLength(2);
    expect(result.lines.join('\n')).toMatch(/bench client -> legacy/);
  }, 120_000);

  it('leak prints a leak check line and sees the bench client and both upstream links', async () => {
    const result = await leakSection.run(tiny);
    expect(result.lines[0]).toMatch(/^leak check: .*60 calls at concurrency 4/);
    const signals = result.figures.signals as { label: string; fetches: number }[];
    expect(signals.some((s) => s.label.startsWith('bench client -> gateway'))).toBe(true);
    expect(signals.filter((s) => s.label.startsWith('gateway -> upstream'))).toHaveLength(2);
  }, 120_000);
});
