/**
 * The telemetry-cost measurement of the proxy section on its own, repeated, with an optional CPU profile of the
 * export-on runs (warm-up calls included), after one unmeasured round (none with --cold, as in the bench): self time by package and by function (any code, not only src/), to see where the facade's
 * CPU goes. Run with:
 *   node --no-node-snapshot --import tsx bench/telemetry-profile.ts [--calls N] [--warmup N] [--runs N] [--profile] [--cold]
 */
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import { startOtlpSink } from './otlp-sink.ts';
import { originOf, type CallFrame } from './profile.ts';
import { cpuMsPerCall } from './telemetry-cost.ts';

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The original source line of a frame (through the source maps tsx registers), else the generated one. */
function lineOf(frame: CallFrame): number {
  const entry = frame.url.startsWith('file:')
    ? findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber)
    : undefined;
  return entry && 'originalLine' in entry ? (entry.originalLine as number) + 1 : frame.lineNumber + 1;
}

function numberFlag(argv: readonly string[], name: string, fallback: number): number {
  const at = argv.indexOf(name);
  const value = at >= 0 ? Number(argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} needs a positive integer`);
  return value;
}

/** Self milliseconds by origin and by function (`name file:line`), largest first. */
function selfTimes(profiles: readonly CpuProfile[]): {
  origins: [string, number][];
  functions: [string, number][];
} {
  const origins = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const profile of profiles) addSelfTimes(profile, origins, functions);
  const ranked = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { origins: ranked(origins), functions: ranked(functions) };
}

function addSelfTimes(
  profile: CpuProfile,
  origins: Map<string, number>,
  functions: Map<string, number>,
): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id);
    if (!frame || frame.functionName === '(idle)') return;
    // `dispatch` is the inspector serializing the profile at Profiler.stop, not the code under test.
    if (frame.functionName === 'dispatch' && frame.url === '') return;
    const ms = (deltas[i] ?? 0) / 1000;
    const origin = originOf(frame);
    origins.set(origin, (origins.get(origin) ?? 0) + ms);
    const file = frame.url.slice(frame.url.lastIndexOf('/') + 1);
    const where = `${frame.functionName || '(anonymous)'} ${origin} ${file}:${lineOf(frame)}`;
    functions.set(where, (functions.get(where) ?? 0) + ms);
  });
}

async function main(argv: readonly string[]): Promise<void> {
  const calls = numberFlag(argv, '--calls', 2000);
  const warmup = numberFlag(argv, '--warmup', 500);
  const runs = numberFlag(argv, '--runs', 3);
  const profiling = argv.includes('--profile');
  const cold = argv.includes('--cold');
  const sink = await startOtlpSink();
  const session = profiling ? new Session() : undefined;
  try {
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
    }
    const on: number[] = [];
    const off: number[] = [];
    const profiles: CpuProfile[] = [];
    // One unmeasured round first, so the figures are of warm code, unless --cold asks for the first runs.
    if (!cold) {
      await cpuMsPerCall(undefined, calls, warmup);
      await cpuMsPerCall(sink.endpoint('telemetry-profile'), calls, warmup);
    }
    for (let run = 0; run < runs; run += 1) {
      off.push(await cpuMsPerCall(undefined, calls, warmup));
      await session?.post('Profiler.start');
      on.push(await cpuMsPerCall(sink.endpoint('telemetry-profile'), calls, warmup));
      if (session) profiles.push(((await session.post('Profiler.stop')) as { profile: CpuProfile }).profile);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(4)).join(' ');
    console.log(
      `calls ${calls} after ${warmup} warm-up, ${runs} runs${cold ? '' : ' after one unmeasured round'}`,
    );
    console.log(`on  ms/call median ${median(on).toFixed(4)}  (${fmt(on)})`);
    console.log(`off ms/call median ${median(off).toFixed(4)}  (${fmt(off)})`);
    const stats = await sink.stats();
    console.log(`sink: ${JSON.stringify(stats['telemetry-profile'])}`);
    if (session) {
      const { origins, functions } = selfTimes(profiles);
      const total = origins.reduce((sum, [, ms]) => sum + ms, 0);
      const perCall = (ms: number) => ((ms / (runs * (calls + warmup))) * 1000).toFixed(2);
      console.log(
        `\nexport-on runs: self time (not idle) ${total.toFixed(0)} ms; µs per call, warm-up included`,
      );
      for (const [origin, ms] of origins.slice(0, 15))
        console.log(`${ms.toFixed(1).padStart(9)} ms ${perCall(ms).padStart(7)} µs  ${origin}`);
      console.log('');
      for (const [where, ms] of functions.slice(0, 45))
        console.log(`${ms.toFixed(1).padStart(9)} ms ${perCall(ms).padStart(7)} µs  ${where}`);
    }
  } finally {
    session?.disconnect();
    await sink.stop();
  }
}

await main(process.argv.slice(2));
