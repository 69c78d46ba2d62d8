/**
 * `node --import tsx bench/profile-serve.ts [calls] [concurrency] [--otlp] [--stdio] [--prof DIR]`: one gateway
 * in front of the stdio echo upstream, driven by one SDK client, a warm-up run, then the measured run; prints the
 * gateway's CPU per call (from /proc). By default the gateway is `portcullis serve` and the client speaks
 * Streamable HTTP to /mcp; with --stdio it is `portcullis stdio`, launched by the client as its stdio server. Both
 * run compiled (dist/main.js, built first by bench/gateway-process.ts), as the installed command runs it.
 * With --prof DIR the gateway runs under `node --cpu-prof` (serve: PORTCULLIS_BENCH_CPU_PROF; stdio: the flags on
 * its launch line, so its profile is written when the client closes its stdin) and the samples of the measured
 * run are printed per call: self time by file and by function, inclusive time of the functions of the call path
 * (src/, the SDK server, hono, node's http), and time by owner, where each sample goes to the nearest frame of
 * src/ or of a package above it (a write syscall and the garbage collector get their own rows; the corked writes of
 * both stdio hops, upstream stdin and `portcullis stdio`'s stdout, leave from shared/json-lines). V8 samples wall
 * time on the main thread, so a write that gets the process preempted (the pipe write to the upstream on a busy
 * machine) shows more time than it costs in CPU, and so does any function the process was preempted in. A quick
 * loop for work on the call path, lighter than the proxy section.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connectHttp, connectStdio, type BenchClient } from './clients.ts';
import { ECHO_STDIO } from './echo-upstream.ts';
import {
  buildGateway,
  gatewayLaunch,
  startGatewayProcess,
  waitForTools,
  writeGatewayConfig,
} from './gateway-process.ts';
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

/** The frames whose inclusive time is printed: the call path of either door. */
const CALL_PATH = /\/src\/|@modelcontextprotocol\/server|\/hono\/|@hono\/|^node:_http/;

function bucketOf(url: string, fn: string): string {
  if (url === '') return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return url;
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const rest = url.slice(at + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}/${rest.at(-1)}` : `${rest[0]}/${rest.at(-1)}`;
  }
  const src = /\/(?:src|dist)\//.exec(url);
  return src ? url.slice(src.index + 1) : url;
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
      if (!CALL_PATH.test(frame.url)) continue;
      const key = `${frame.functionName || '(anon)'} ${bucketOf(frame.url, frame.functionName)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + msSelf);
    }
  }
  print('inclusive time by function of the call path', inclusive, 60);
  print('time by owner', ownerTimes(byId, parent, self), 40);
}

const TELEMETRY_OWNER = 'telemetry (src/telemetry, @opentelemetry)';

/** The owner of a frame: its src/ (or compiled dist/) domain and file, or its package; undefined for node's own code. */
function ownerOf(url: string): string | undefined {
  if (url.includes('@opentelemetry/')) return TELEMETRY_OWNER;
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const [scope, name] = url.slice(at + '/node_modules/'.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : scope;
  }
  // The gateway runs compiled (dist/), so a frame of dist/x/y.js is charged to src/x/y.ts.
  const src = /\/(?:src|dist)\/([a-z-]+)\/([a-z-]+)\.(?:ts|js)/.exec(url);
  if (!src) return undefined;
  return src[1] === 'telemetry' ? TELEMETRY_OWNER : `src/${src[1]}/${src[2]}`;
}

const WRITES = /^(writeGeneric|writevGeneric|handleWriteReq)$/;

/**
 * Self time of each sampled node summed by owner: the nearest frame with an owner (ownerOf) from the sample up,
 * a write syscall as "write syscall via <owner>", the garbage collector as itself.
 */
function ownerTimes(
  byId: Map<number, Node>,
  parent: Map<number, number>,
  self: Map<number, number>,
): Map<string, number> {
  const owners = new Map<string, number>();
  for (const [id, msSelf] of self) {
    const leaf = (byId.get(id) as Node).callFrame;
    if (['(idle)', '(program)'].includes(leaf.functionName)) continue;
    let owner: string | undefined;
    let write = false;
    if (leaf.functionName === '(garbage collector)') owner = '(garbage collector)';
    for (let at: number | undefined = id, depth = 0; owner === undefined && at !== undefined; depth += 1) {
      const frame = (byId.get(at) as Node).callFrame;
      if (depth < 4 && WRITES.test(frame.functionName)) write = true;
      owner = ownerOf(frame.url);
      at = parent.get(at);
    }
    const key = `${write ? 'write syscall via ' : ''}${owner ?? "node's own code"}`;
    owners.set(key, (owners.get(key) ?? 0) + msSelf);
  }
  return owners;
}

/** The gateway under test: its pid, a connected client, and how to stop both. */
interface Door {
  pid: number | null | undefined;
  client: BenchClient;
  stop(): Promise<void>;
}

/** `portcullis serve` as its own process, with an SDK client on its /mcp. */
async function serveDoor(otlpEndpoint: string | undefined): Promise<Door> {
  const echo = { transport: 'stdio', ...ECHO_STDIO, args: [...ECHO_STDIO.args] };
  const gateway = await startGatewayProcess({ stdio: echo }, otlpEndpoint);
  const client = await connectHttp(gateway.url);
  return {
    pid: gateway.pid,
    client,
    async stop() {
      await client.close();
      await gateway.stop();
    },
  };
}

/** `portcullis stdio` launched by an SDK client as its stdio server; `profDir` adds node's --cpu-prof flags. */
async function stdioDoor(otlpEndpoint: string | undefined, profDir: string | undefined): Promise<Door> {
  const echo = { transport: 'stdio', ...ECHO_STDIO, args: [...ECHO_STDIO.args] };
  const config = writeGatewayConfig({ stdio: echo }, otlpEndpoint);
  buildGateway();
  const launch = gatewayLaunch('stdio', config.file);
  const prof = profDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profDir}`];
  const client = await connectStdio({ ...launch, args: [...prof, ...launch.args] }, () => {});
  const transport = client.transport as { pid?: number | null };
  return {
    pid: transport.pid,
    client,
    async stop() {
      // Closing stdin ends the gateway normally, which is when node writes its profile.
      await client.close();
      config.remove();
    },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const profIndex = args.indexOf('--prof');
  const profDir = profIndex >= 0 ? args[profIndex + 1] : undefined;
  const positional = args.filter((a, i) => !a.startsWith('--') && (profIndex < 0 || i !== profIndex + 1));
  const calls = Number(positional[0] ?? 4000);
  const concurrency = Number(positional[1] ?? 16);
  const stdio = args.includes('--stdio');
  if (profDir && !stdio) process.env.PORTCULLIS_BENCH_CPU_PROF = profDir;
  let sink: OtlpSink | undefined;
  if (args.includes('--otlp')) sink = await startOtlpSink();
  const endpoint = sink?.endpoint('profile');
  const door = stdio ? await stdioDoor(endpoint, profDir) : await serveDoor(endpoint);
  const { client } = door;
  const window = { from: 0, to: 0 };
  try {
    await waitForTools(client, ['stdio_echo']);
    await collectLoad((i) => client.echo('stdio_echo', `warm-${i}`), 500, concurrency);
    const before = processCpuMs(door.pid);
    const [userBefore, systemBefore] = userSystemMs(door.pid as number);
    window.from = Number(process.hrtime.bigint() / 1000n);
    const run = await collectLoad((i) => client.echo('stdio_echo', `call-${i}`), calls, concurrency);
    window.to = Number(process.hrtime.bigint() / 1000n);
    const used = processCpuMs(door.pid) - before;
    const [userAfter, systemAfter] = userSystemMs(door.pid as number);
    const sorted = [...run.latenciesMs].sort((a, b) => a - b);
    console.log(
      `${stdio ? 'stdio' : 'http'} door, ${calls} calls at c${concurrency}: gateway cpu ${(used / calls).toFixed(3)} ms/call, ` +
        `${((1000 * calls) / run.wallMs).toFixed(0)} calls/s, p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(2)} ms, errors ${run.errors}; ` +
        `user ${((userAfter - userBefore) / calls).toFixed(3)}, system ${((systemAfter - systemBefore) / calls).toFixed(3)} ms/call`,
    );
  } finally {
    await door.stop();
    await sink?.stop();
  }
  if (profDir) {
    // One profile per thread; the main thread's is the one with `.0.` after the pid (others are worker threads).
    const main = readdirSync(profDir)
      .filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))
      .sort()
      .at(-1);
    if (main) summarize(path.join(profDir, main), calls, window.from, window.to);
  }
}

await main();
