/**
 * `node --import tsx bench/profile-serve.ts [calls] [concurrency] [--otlp] [--prof DIR]`: one `portcullis serve`
 * child in front of the stdio echo upstream, driven by one SDK client over Streamable HTTP; prints the child's
 * CPU per call (from /proc). With --prof DIR the child runs under `node --cpu-prof` (PORTCULLIS_BENCH_CPU_PROF)
 * and the samples of the measured run are printed per call: self time by file and by function, and inclusive
 * time of the functions of the HTTP path (src/, the SDK server, hono, node's http). V8 samples wall time on the
 * main thread, so a write that gets the process preempted (the pipe write to the upstream on a busy machine)
 * shows more time than it costs in CPU. A quick loop for work on the HTTP path, lighter than the proxy section.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connectHttp } from './clients.ts';
import { ECHO_STDIO } from './echo-upstream.ts';
import { startGatewayProcess, waitForTools } from './gateway-process.ts';
import { collectLoad } from './load.ts';
import { startOtlpSink, type OtlpSink } from './otlp-sink.ts';
import { processCpuMs } from './proc-cpu.ts';

/** [user, system] CPU ms of `pid` from /proc/<pid>/stat. */
function userSystemMs(pid: number): [number, number] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  return [Number(fields[11]) * 10, Number(fields[12]) * 10];
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The frames whose inclusive time is printed. */
const HTTP_PATH = /\/src\/|@modelcontextprotocol\/server|\/hono\/|@hono\/|^node:_http/;

function bucketOf(url: string, fn: string): string {
  if (url === '') return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return url;
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const rest = url.slice(at + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}/${rest.at(-1)}` : `${rest[0]}/${rest.at(-1)}`;
  }
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(src + 1) : url;
}

/**
 * Self time by file and by function of a .cpuprofile, per call, counting only samples taken between `from` and
 * `to` (µs of the monotonic clock, which V8's profile timestamps and process.hrtime share).
 */
function summarize(file: string, calls: number, from: number, to: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: Node[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + delta / 1000);
  });
  const byFile = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  for (const [id, msSelf] of self) {
    const frame = (byId.get(id) as Node).callFrame;
    const bucket = bucketOf(frame.url, frame.functionName);
    total += msSelf;
    byFile.set(bucket, (byFile.get(bucket) ?? 0) + msSelf);
    const fnKey = `${frame.functionName || '(anon)'} ${bucket}`;
    byFn.set(fnKey, (byFn.get(fnKey) ?? 0) + msSelf);
  }
  const idle = (byFile.get('(idle)') ?? 0) + (byFile.get('(program)') ?? 0);
  console.log(
    `profile ${path.basename(file)}: ${total.toFixed(0)} ms sampled, idle+program ${idle.toFixed(0)} ms`,
  );
  const print = (title: string, map: Map<string, number>, top: number) => {
    console.log(`\n${title} (µs per call, share of non-idle)`);
    for (const [key, value] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      if (key === '(idle)') continue;
      console.log(
        `${((1000 * value) / calls).toFixed(1).padStart(8)}  ${((100 * value) / (total - idle)).toFixed(1).padStart(5)}%  ${key}`,
      );
    }
  };
  print('self time by file', byFile, 45);
  print('self time by function', byFn, 70);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, msSelf] of self) {
    if (['(idle)', '(program)'].includes((byId.get(id) as Node).callFrame.functionName)) continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = (byId.get(at) as Node).callFrame;
      if (!HTTP_PATH.test(frame.url)) continue;
      const key = `${frame.functionName || '(anon)'} ${bucketOf(frame.url, frame.functionName)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + msSelf);
    }
  }
  print('inclusive time by function of the HTTP path', inclusive, 60);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const profIndex = args.indexOf('--prof');
  const profDir = profIndex >= 0 ? args[profIndex + 1] : undefined;
  const positional = args.filter((a, i) => !a.startsWith('--') && (profIndex < 0 || i !== profIndex + 1));
  const calls = Number(positional[0] ?? 4000);
  const concurrency = Number(positional[1] ?? 16);
  if (profDir) process.env.PORTCULLIS_BENCH_CPU_PROF = profDir;
  let sink: OtlpSink | undefined;
  if (process.argv.includes('--otlp')) sink = await startOtlpSink();
  const echo = { transport: 'stdio', ...ECHO_STDIO, args: [...ECHO_STDIO.args] };
  const gateway = await startGatewayProcess({ stdio: echo }, sink?.endpoint('profile'));
  const client = await connectHttp(gateway.url);
  // The measured run, in µs of the monotonic clock: only samples inside it are summed.
  const window = { from: 0, to: 0 };
  try {
    await waitForTools(client, ['stdio_echo']);
    await collectLoad((i) => client.echo('stdio_echo', `warm-${i}`), 500, concurrency);
    const before = processCpuMs(gateway.pid);
    const [userBefore, systemBefore] = userSystemMs(gateway.pid);
    window.from = Number(process.hrtime.bigint() / 1000n);
    const run = await collectLoad((i) => client.echo('stdio_echo', `call-${i}`), calls, concurrency);
    window.to = Number(process.hrtime.bigint() / 1000n);
    const used = processCpuMs(gateway.pid) - before;
    const [userAfter, systemAfter] = userSystemMs(gateway.pid);
    const sorted = [...run.latenciesMs].sort((a, b) => a - b);
    console.log(
      `${calls} calls at c${concurrency}: gateway cpu ${(used / calls).toFixed(3)} ms/call, ` +
        `${((1000 * calls) / run.wallMs).toFixed(0)} calls/s, p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} ms, errors ${run.errors}; ` +
        `user ${((userAfter - userBefore) / calls).toFixed(3)}, system ${((systemAfter - systemBefore) / calls).toFixed(3)} ms/call`,
    );
  } finally {
    await client.close();
    await gateway.stop();
    await sink?.stop();
  }
  if (profDir) {
    // One profile per thread; the main thread's is the one with `.0.` after the pid (the other is tsx's loader).
    const main = readdirSync(profDir)
      .filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))
      .sort()
      .at(-1);
    if (main) summarize(path.join(profDir, main), calls, window.from, window.to);
  }
}

await main();
