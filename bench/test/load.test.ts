import { describe, expect, it } from 'vitest';
import { runLoad } from '../load.ts';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('runLoad', () => {
  it.each([1, 4, 16])('makes every call exactly once with at most %s in flight', async (concurrency) => {
    const seen: number[] = [];
    let inFlight = 0;
    let peak = 0;
    const stats = await runLoad(
      async (index) => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        seen.push(index);
        await tick();
        inFlight -= 1;
      },
      50,
      concurrency,
    );
    expect(stats.calls).toBe(50);
    expect(stats.errors).toBe(0);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(peak).toBe(concurrency);
  });

  it('is strictly sequential at concurrency 1', async () => {
    const order: string[] = [];
    await runLoad(
      async (index) => {
        order.push(`start ${index}`);
        await tick();
        order.push(`end ${index}`);
      },
      3,
      1,
    );
    expect(order).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('counts failures as errors and keeps them out of the latencies', async () => {
    const stats = await runLoad(async (index) => {
      if (index % 5 === 0) throw new Error('boom');
    }, 20);
    expect(stats.errors).toBe(4);
    expect(stats.calls).toBe(16);
  });

  it('throws with the first error when every call fails', async () => {
    await expect(
      runLoad(async () => {
        throw new Error('upstream gone');
      }, 3),
    ).rejects.toThrow(/upstream gone/);
  });
});
