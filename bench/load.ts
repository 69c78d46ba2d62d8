/** Load drivers: N sequential calls, or N calls pulled by W workers from one shared counter. */
import { performance } from 'node:perf_hooks';
import { summarize, type CellStats } from './stats.ts';

/** One call under measurement; a rejection counts as an error (its latency is not recorded). */
export type CallFn = (index: number) => Promise<unknown>;

/** The raw outcome of a load run, before it is summarized (so several runs can be merged). */
export interface LoadSamples {
  latenciesMs: number[];
  wallMs: number;
  errors: number;
  /** CPU time (user + system) of this process over the run. */
  cpuMs: number;
}

/** Runs `calls` calls with `concurrency` workers sharing one counter and returns every latency. */
export async function collectLoad(call: CallFn, calls: number, concurrency = 1): Promise<LoadSamples> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: unknown;
  const worker = async () => {
    for (;;) {
      const index = next;
      if (index >= calls) return;
      next += 1;
      const started = performance.now();
      try {
        await call(index);
        latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
    }
  };
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, calls)) }, worker));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  // A cell where every call failed measures nothing; say why instead of printing NaN.
  if (errors === calls && calls > 0) throw new Error(`every call failed; first error: ${String(firstError)}`);
  return { latenciesMs: latencies, wallMs, errors, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Merges several runs of the same call into one sample set (latencies joined, wall, errors and CPU summed). */
export function mergeSamples(runs: readonly LoadSamples[]): LoadSamples {
  return {
    latenciesMs: runs.flatMap((r) => r.latenciesMs),
    wallMs: runs.reduce((sum, r) => sum + r.wallMs, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    cpuMs: runs.reduce((sum, r) => sum + r.cpuMs, 0),
  };
}

/** Summarizes a sample set. */
export function summarizeSamples(samples: LoadSamples): CellStats {
  return summarize(samples.latenciesMs, samples.wallMs, samples.errors, samples.cpuMs);
}

/** Runs `calls` calls with `concurrency` workers sharing one counter; concurrency 1 is strictly sequential. */
export async function runLoad(call: CallFn, calls: number, concurrency = 1): Promise<CellStats> {
  return summarizeSamples(await collectLoad(call, calls, concurrency));
}

/** Splits `calls` into `blocks` near-equal block sizes (the first ones take the remainder). */
export function blockSizes(calls: number, blocks: number): number[] {
  const base = Math.floor(calls / blocks);
  return Array.from({ length: blocks }, (_, i) => base + (i < calls % blocks ? 1 : 0));
}
