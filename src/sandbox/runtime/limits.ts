/** Normalization of the per-call limits: every limit finite, positive and within the runtime's hard bounds. */
import type { SandboxLimits } from '../policy.ts';

/** The smallest heap isolated-vm accepts, in MiB. */
export const MIN_MEMORY_MB = 8;

function bounded(value: number, min: number, max: number, fallback: number): number {
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

/** Clamps limits to what the runtime can enforce (e.g. memory >= 8 MiB); invalid values take safe defaults. */
export function normalizeLimits(limits: SandboxLimits): SandboxLimits {
  return {
    memoryMb: bounded(limits.memoryMb, MIN_MEMORY_MB, 4096, 128),
    cpuTimeMs: bounded(limits.cpuTimeMs, 1, 600_000, 10_000),
    wallTimeMs: bounded(limits.wallTimeMs, 1, 600_000, 30_000),
    maxResultBytes: bounded(limits.maxResultBytes, 1, 256 * 1024 * 1024, 1024 * 1024),
    maxConsoleEntries:
      Number.isFinite(limits.maxConsoleEntries) && limits.maxConsoleEntries >= 0
        ? Math.min(100_000, Math.floor(limits.maxConsoleEntries))
        : 1000,
    maxFetchBytes: bounded(limits.maxFetchBytes, 1, 1024 * 1024 * 1024, 10 * 1024 * 1024),
  };
}
