/** Latency statistics: nearest-rank percentiles and a per-cell summary. */

/** The summary of one measured cell. */
export interface CellStats {
  calls: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  callsPerSec: number;
  wallMs: number;
  /** CPU time (user + system) of this process per call: the client, plus the gateway when it is in-process. */
  cpuMsPerCall: number;
}

/** The nearest-rank percentile (0 < p <= 100) of ascending-sorted values; NaN for no values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Summarizes per-call latencies (ms) measured over a wall-clock span (ms) and the CPU time it used (ms). */
export function summarize(
  latenciesMs: readonly number[],
  wallMs: number,
  errors = 0,
  cpuMs = Number.NaN,
): CellStats {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    calls: sorted.length,
    errors,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: sorted.length === 0 ? Number.NaN : total / sorted.length,
    maxMs: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] as number),
    callsPerSec: wallMs > 0 ? (sorted.length * 1000) / wallMs : Number.NaN,
    wallMs,
    cpuMsPerCall: sorted.length === 0 ? Number.NaN : cpuMs / sorted.length,
  };
}
