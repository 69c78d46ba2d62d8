/** A sliding-window call counter per key, driven by the caller's clock. */

/** The verdict for one call. */
export type RateVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts calls per key over a sliding window. */
export interface SlidingWindowLimiter {
  /** Counts the call at `now` when the key is under the limit; otherwise says how long until a slot frees up. */
  take(key: string, now: number): RateVerdict;
  /** How many keys are tracked (for tests and metrics). */
  readonly size: number;
}

/** Sweep idle keys once this many are tracked, so memory stays bounded by the active callers. */
const SWEEP_AT = 10_000;

/** Builds a limiter allowing `calls` per `windowMs` for each key (sliding log of call times). */
export function createSlidingWindowLimiter(calls: number, windowMs: number): SlidingWindowLimiter {
  const log = new Map<string, number[]>();
  let sweepAt = SWEEP_AT;

  const sweep = (now: number): void => {
    for (const [key, times] of log) {
      if ((times.at(-1) ?? -Infinity) <= now - windowMs) log.delete(key);
    }
    sweepAt = Math.max(SWEEP_AT, log.size * 2);
  };

  return {
    take(key, now) {
      if (log.size >= sweepAt) sweep(now);
      const times = log.get(key) ?? [];
      while (times.length > 0 && (times[0] as number) <= now - windowMs) times.shift();
      if (times.length >= calls) {
        return { allowed: false, retryAfterMs: Math.max(1, (times[0] as number) + windowMs - now) };
      }
      times.push(now);
      log.set(key, times);
      return { allowed: true };
    },
    get size() {
      return log.size;
    },
  };
}
