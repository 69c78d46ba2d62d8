/** Load drivers: N sequential calls, or N calls pulled by W workers from one shared counter. */
import { performance } from 'node:perf_hooks';
import { summarize, type CellStats } from './stats.ts';

/** One call under measurement; a rejection counts as an error (its latency is not recorded). */
export type CallFn = (index: number) => Promise<unknown>;

/** Runs `calls` calls with `concurrency` workers sharing one counter; concurrency 1 is strictly sequential. */
export async function runLoad(call: CallFn, calls: number, concurrency = 1): Promise<CellStats> {
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
  return summarize(latencies, wallMs, errors, (cpu.user + cpu.system) / 1000);
}
