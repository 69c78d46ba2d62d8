/**
 * Section "scale" (`--only scale`), each part on its own `portcullis serve` child, as users run it:
 *   many upstreams (part `upstreams`): 50 stdio upstreams of 100 generated tools each (bench/many-tools-server.mjs,
 *     plain Node, no SDK): time from spawn to /healthz (the gateway's own start, which includes the first process
 *     spawn of every upstream: `serve` starts the upstreams before it listens), to /readyz with every upstream
 *     connected, to a tools/list holding all 5,000 tools; then tools/list p50 through the SDK client (the judged
 *     figure: the client's parse and validation included) and on the raw wire (plain fetch on a 2025-era session,
 *     timed to the body's last byte: what the gateway itself takes);
 *   idle sessions (part `sessions`, with the sandbox): 2,000 idle 2025-era sessions on /mcp (session caps raised in the
 *     config), and the gateway's RSS growth per session; then (part `heap`) the same on an in-process gateway, its
 *     heap after GC per session (the target);
 *   sandbox: the bundled base64 catalog tool (isolated-vm) warm, next to the upstream echo on the same gateway.
 * `--only scale:upstreams` (or `:sessions`, `:heap`) runs one part; the others are reported as not measured.
 * Bounded: fixed counts, every wait has a timeout, loopback only, every child stopped on the way out.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createCleanupStack, type CleanupStack } from '../cleanup.ts';
import { connectHttp } from '../clients.ts';
import { ECHO_STDIO, ROOT } from '../echo-upstream.ts';
import { ms, signedMs } from '../format.ts';
import { startGatewayProcess, waitForTools } from '../gateway-process.ts';
import { startBenchGateway } from '../gateway.ts';
import { openLegacySession, openLegacySessions, postOnSession } from '../legacy-sessions.ts';
import { forceGc } from '../signal-probe.ts';
import { collectLoad, mergeSamples, summarizeSamples, type LoadSamples } from '../load.ts';
import { generatedToolName } from '../generated-tools.ts';
import { processRssKiB } from '../proc-cpu.ts';
import { summarize, type CellStats } from '../stats.ts';
import type { BenchOptions, Section, SectionResult, TargetResult } from '../types.ts';
import {
  BASE64_CALL,
  ECHO_TOOL,
  measureEchoAndBase64,
  SANDBOX_P50_DELTA_TARGET_MS,
  type EchoAndBase64,
} from './sandbox.ts';

/** Upstreams and tools per upstream of the many-upstreams part. */
export const SCALE_UPSTREAMS = 50;
/** Generated tools on each upstream. */
export const TOOLS_PER_UPSTREAM = 100;
/** Idle legacy sessions of the sessions part. */
export const IDLE_SESSIONS = 2000;
/** How long a part waits for its gateway (bounded: a loaded machine reports a miss instead of hanging). */
export const READY_WAIT_MS = 120_000;
/** Target: every upstream connected within this many ms of the gateway's spawn. */
export const READY_TARGET_MS = 5000;
/** Target: tools/list p50 with every tool listed. */
export const TOOLS_LIST_TARGET_MS = 50;
/** Target: gateway memory per idle legacy session. */
export const SESSION_KIB_TARGET = 15;

/** The upstreams section of the config: `count` copies of the generated server with `tools` tools each. */
export function scaleUpstreams(count: number, tools: number): Record<string, Record<string, unknown>> {
  const script = path.join(ROOT, 'bench/many-tools-server.mjs');
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `s${String(i).padStart(2, '0')}`,
      { transport: 'stdio', command: process.execPath, args: [script, String(tools)], cwd: ROOT },
    ]),
  );
}

/** The parts `--only scale:PART` may pick. */
export const SCALE_PARTS = ['upstreams', 'sessions', 'heap'] as const;

/** What the three parts measured. */
export interface ScaleFigures {
  readyMs: number;
  allListedMs: number;
  toolsListed: number;
  /** tools/list through the SDK client (judged). */
  toolsList: CellStats;
  /** tools/list on the raw wire, to the body's last byte (shown beside the judged figure). */
  toolsListWire: CellStats;
  sessions: number;
  rssBeforeKiB: number;
  rssAfterKiB: number;
  /** Idle sessions opened on the in-process gateway, and the bench process's heap after GC before and after. */
  heapSessions: number;
  heapBeforeKiB: number;
  heapAfterKiB: number;
  echo: CellStats;
  base64: CellStats;
}

/** The part that measures each target of checkScaleTargets, in its order. */
const TARGET_PARTS: readonly (typeof SCALE_PARTS)[number][] = ['upstreams', 'upstreams', 'heap', 'sessions'];

/** RSS growth per session in KiB; NaN when either reading is missing. */
export function kibPerSession(beforeKiB: number, afterKiB: number, sessions: number): number {
  return sessions > 0 ? (afterKiB - beforeKiB) / sessions : Number.NaN;
}

/** The scale targets, met or missed. */
export function checkScaleTargets(f: ScaleFigures): TargetResult[] {
  const perSession = kibPerSession(f.heapBeforeKiB, f.heapAfterKiB, f.heapSessions);
  const sandboxDelta = f.base64.p50Ms - f.echo.p50Ms;
  const upstreams = `${SCALE_UPSTREAMS} upstreams x ${TOOLS_PER_UPSTREAM} tools`;
  return [
    {
      name: `${upstreams}: every upstream connected (/readyz) <= ${READY_TARGET_MS / 1000} s after the gateway's spawn`,
      pass: f.readyMs <= READY_TARGET_MS,
      detail: `${ms(f.readyMs)} ms`,
    },
    {
      name: `${upstreams}: tools/list p50 <= ${TOOLS_LIST_TARGET_MS} ms`,
      pass: f.toolsList.p50Ms <= TOOLS_LIST_TARGET_MS,
      detail: `${ms(f.toolsList.p50Ms)} ms for ${f.toolsListed} tools (raw wire ${ms(f.toolsListWire.p50Ms)} ms)`,
    },
    {
      name: `${f.heapSessions} idle legacy sessions: gateway heap after GC <= ${SESSION_KIB_TARGET} KiB per session`,
      pass: perSession <= SESSION_KIB_TARGET,
      detail: `${ms(perSession)} KiB`,
    },
    {
      name: `sandboxed base64 warm p50 <= upstream echo p50 + ${SANDBOX_P50_DELTA_TARGET_MS.toFixed(1)} ms`,
      pass: sandboxDelta <= SANDBOX_P50_DELTA_TARGET_MS,
      detail: `${signedMs(sandboxDelta)} ms`,
    },
  ];
}

/** Waits (bounded) until the gateway lists at least `count` tools; returns how many it listed. */
async function untilListed(list: () => Promise<number>, count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const listed = await list();
    if (listed >= count) return listed;
    if (Date.now() > deadline)
      throw new Error(`only ${listed} of ${count} tools listed after ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface ManyUpstreams {
  /** Spawn to /healthz: the gateway's own start (module loading, config, store, build, each upstream's first spawn, listen). */
  healthyMs: number;
  readyMs: number;
  allListedMs: number;
  toolsListed: number;
  toolsList: CellStats;
  /** The same tools/list on the raw wire, to the body's last byte, and the body's size. */
  toolsListWire: CellStats;
  wireBytes: number;
  listCalls: number;
}

/** How many tools a tools/list answer's JSON holds (0 for anything else). */
export function countListedTools(text: string): number {
  const tools = (JSON.parse(text) as { result?: { tools?: unknown } }).result?.tools;
  return Array.isArray(tools) ? tools.length : 0;
}

/**
 * tools/list on the raw wire: a 2025-era session opened with plain fetch, each answer timed to its last byte and
 * then (outside the timing) parsed and checked to hold every tool.
 */
async function measureWire(
  url: string,
  total: number,
  calls: number,
): Promise<LoadSamples & { bytes: number }> {
  const session = await openLegacySession(url, 0);
  let id = 1;
  const latenciesMs: number[] = [];
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) {
    const before = performance.now();
    const response = await postOnSession(url, session, {
      jsonrpc: '2.0',
      id: (id += 1),
      method: 'tools/list',
    });
    const text = await response.text();
    latenciesMs.push(performance.now() - before);
    if (response.status !== 200)
      throw new Error(`tools/list answered ${response.status}: ${text.slice(0, 200)}`);
    const listed = countListedTools(text);
    if (listed < total) throw new Error(`the raw tools/list held ${listed} of ${total} tools`);
    bytes = Buffer.byteLength(text);
  }
  return { latenciesMs, wallMs: performance.now() - started, errors: 0, cpuMs: Number.NaN, bytes };
}

/** Part 1: the gateway in front of the generated upstreams, from spawn to tools/list p50. */
async function measureManyUpstreams(options: BenchOptions, cleanups: CleanupStack): Promise<ManyUpstreams> {
  const started = performance.now();
  const many = await startGatewayProcess(
    scaleUpstreams(SCALE_UPSTREAMS, TOOLS_PER_UPSTREAM),
    undefined,
    READY_WAIT_MS,
  );
  const readyMs = performance.now() - started;
  const healthyMs = many.healthyAt - many.spawnedAt;
  cleanups.push(() => many.stop());
  const lister = await connectHttp(many.url);
  cleanups.push(() => lister.close());
  const total = SCALE_UPSTREAMS * TOOLS_PER_UPSTREAM;
  const listTools = async () => (await lister.client.listTools()).tools.length;
  const toolsListed = await untilListed(listTools, total, READY_WAIT_MS);
  const allListedMs = performance.now() - started;
  // One generated tool answers through the gateway: the 5,000 are real tools, not just names.
  await lister.echo(`s${String(SCALE_UPSTREAMS - 1).padStart(2, '0')}_${generatedToolName(0)}`, 'scale');
  const listCalls = options.quick ? 20 : 100;
  await collectLoad(listTools, Math.min(10, listCalls), 1);
  let wireBytes = (await measureWire(many.url, total, Math.min(10, listCalls))).bytes;
  // The two ways take turns in blocks, so a busy moment of the machine falls on both.
  const sdk: LoadSamples[] = [];
  const raw: LoadSamples[] = [];
  const blocks = 5;
  for (let block = 0; block < blocks; block += 1) {
    const calls = Math.ceil(listCalls / blocks);
    sdk.push(
      await collectLoad(
        async () => {
          if ((await listTools()) < total) throw new Error('tools/list lost tools');
        },
        calls,
        1,
      ),
    );
    const wire = await measureWire(many.url, total, calls);
    raw.push(wire);
    wireBytes = wire.bytes;
  }
  return {
    healthyMs,
    readyMs,
    allListedMs,
    toolsListed,
    toolsList: summarizeSamples(mergeSamples(sdk)),
    toolsListWire: summarizeSamples(mergeSamples(raw)),
    wireBytes,
    listCalls: blocks * Math.ceil(listCalls / blocks),
  };
}

interface SessionsAndSandbox {
  sessions: number;
  rssBeforeKiB: number;
  rssAfterKiB: number;
  sandbox: EchoAndBase64;
}

/** Parts 2 and 3: one gateway with the echo upstream, session caps raised above the sessions opened. */
async function measureSessionsAndSandbox(
  options: BenchOptions,
  cleanups: CleanupStack,
): Promise<SessionsAndSandbox> {
  const served = await startGatewayProcess(
    {
      stdio: {
        transport: 'stdio',
        command: ECHO_STDIO.command,
        args: [...ECHO_STDIO.args],
        cwd: ECHO_STDIO.cwd,
      },
    },
    undefined,
    READY_WAIT_MS,
    { http: { maxSessions: IDLE_SESSIONS + 100, maxSessionsPerPrincipal: IDLE_SESSIONS + 100 } },
  );
  cleanups.push(() => served.stop());
  const client = await connectHttp(served.url);
  cleanups.push(() => client.close());
  await waitForTools(client, [BASE64_CALL.tool, ECHO_TOOL]);
  const sandbox = await measureEchoAndBase64(client, served.pid, options);
  // Warm the session path (and the allocator) before the baseline reading.
  await openLegacySessions(served.url, 50);
  const rssBeforeKiB = processRssKiB(served.pid);
  const opened = await openLegacySessions(served.url, IDLE_SESSIONS);
  // Idle: give the gateway a moment to settle what the last requests allocated.
  await sleep(1000);
  const rssAfterKiB = processRssKiB(served.pid);
  await client.echo(ECHO_TOOL, 'still answering with every session open');
  return { sessions: opened.length, rssBeforeKiB, rssAfterKiB, sandbox };
}

/**
 * Part 3: the same idle sessions on an in-process gateway, the heap read after a full GC before and after. RSS
 * (part 2) moves with whatever the allocator and the last collection left: two runs read -10 and +19 KiB per
 * session. The heap after GC is what the sessions keep.
 */
async function measureSessionHeap(
  cleanups: CleanupStack,
): Promise<{ sessions: number; beforeKiB: number; afterKiB: number }> {
  const gateway = await startBenchGateway({}, {}, undefined, {
    http: { maxSessions: IDLE_SESSIONS + 100, maxSessionsPerPrincipal: IDLE_SESSIONS + 100 },
  });
  cleanups.push(() => gateway.close());
  await openLegacySessions(gateway.url, 50);
  await forceGc();
  const beforeKiB = process.memoryUsage().heapUsed / 1024;
  const opened = await openLegacySessions(gateway.url, IDLE_SESSIONS);
  await forceGc();
  const afterKiB = process.memoryUsage().heapUsed / 1024;
  return { sessions: opened.length, beforeKiB, afterKiB };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The targets of the parts that ran: a part left out with --only is not measured, which is not a miss. */
export function scaleTargetsRun(options: BenchOptions, f: ScaleFigures): TargetResult[] {
  return checkScaleTargets(f).filter((_target, i) => runsPart(options, TARGET_PARTS[i] ?? ''));
}

/** Whether `part` runs: every part when none was picked. */
export function runsPart(options: BenchOptions, part: string): boolean {
  return options.parts === undefined || options.parts.length === 0 || options.parts.includes(part);
}

async function runScale(options: BenchOptions): Promise<SectionResult> {
  const cleanups = createCleanupStack();
  const failures: string[] = [];
  // Each part is measured on its own: one that cannot finish on this machine is reported, the other still runs.
  const none = summarize([], 0);
  let many: ManyUpstreams = {
    healthyMs: NaN,
    readyMs: NaN,
    allListedMs: NaN,
    toolsListed: 0,
    toolsList: none,
    toolsListWire: none,
    wireBytes: NaN,
    listCalls: 0,
  };
  let rest: SessionsAndSandbox = {
    sessions: 0,
    rssBeforeKiB: NaN,
    rssAfterKiB: NaN,
    sandbox: { stats: { echo: none, base64: none }, gatewayCpu: { echo: NaN, base64: NaN } },
  };
  const skipped = SCALE_PARTS.filter((part) => !runsPart(options, part));
  if (skipped.length > 0) failures.push(`not measured in this run (--only): ${skipped.join(', ')}`);
  if (runsPart(options, 'upstreams')) {
    try {
      many = await measureManyUpstreams(options, cleanups);
    } catch (error) {
      failures.push(`many upstreams not measured: ${message(error)}`);
    } finally {
      await cleanups.unwind();
    }
  }
  if (runsPart(options, 'sessions')) {
    try {
      rest = await measureSessionsAndSandbox(options, cleanups);
    } catch (error) {
      failures.push(`idle sessions / sandbox not measured: ${message(error)}`);
    } finally {
      await cleanups.unwind();
    }
  }
  let heap = { sessions: 0, beforeKiB: NaN, afterKiB: NaN };
  if (runsPart(options, 'heap')) {
    try {
      heap = await measureSessionHeap(cleanups);
    } catch (error) {
      failures.push(`session heap not measured: ${message(error)}`);
    } finally {
      await cleanups.unwind();
    }
  }
  const { sandbox } = rest;
  const figures: ScaleFigures = {
    readyMs: many.readyMs,
    allListedMs: many.allListedMs,
    toolsListed: many.toolsListed,
    toolsList: many.toolsList,
    toolsListWire: many.toolsListWire,
    sessions: rest.sessions,
    rssBeforeKiB: rest.rssBeforeKiB,
    rssAfterKiB: rest.rssAfterKiB,
    heapSessions: heap.sessions,
    heapBeforeKiB: heap.beforeKiB,
    heapAfterKiB: heap.afterKiB,
    echo: sandbox.stats.echo,
    base64: sandbox.stats.base64,
  };
  const perSession = kibPerSession(rest.rssBeforeKiB, rest.rssAfterKiB, rest.sessions);
  const heapPerSession = kibPerSession(heap.beforeKiB, heap.afterKiB, heap.sessions);
  const total = SCALE_UPSTREAMS * TOOLS_PER_UPSTREAM;
  const pair = (a: number, b: number) => `${ms(a)} / ${ms(b)}`;
  return {
    tables: [
      {
        title: 'Scale, each part on its own portcullis serve child (default config, audit on, no OTLP)',
        columns: ['measure', 'value'],
        rows: [
          [
            `${SCALE_UPSTREAMS} upstreams x ${TOOLS_PER_UPSTREAM} tools: spawn to /readyz all connected, ms`,
            ms(many.readyMs),
          ],
          [
            "  of which spawn to /healthz (own start, with the upstreams' first spawns), ms",
            ms(many.healthyMs),
          ],
          [`  spawn to a tools/list holding all ${total} tools, ms`, ms(many.allListedMs)],
          [
            `  tools/list p50 / p99 over ${many.listCalls} sequential calls, SDK client, ms`,
            pair(many.toolsList.p50Ms, many.toolsList.p99Ms),
          ],
          [
            `  tools/list p50 / p99, raw wire to the last byte (${ms(many.wireBytes / 1e6)} MB), ms`,
            pair(many.toolsListWire.p50Ms, many.toolsListWire.p99Ms),
          ],
          [
            `${rest.sessions} idle legacy sessions: gateway RSS before / after, MiB`,
            pair(rest.rssBeforeKiB / 1024, rest.rssAfterKiB / 1024),
          ],
          ['  RSS growth per session, KiB', ms(perSession)],
          [
            `${heap.sessions} idle legacy sessions, in-process gateway: heap after GC per session, KiB`,
            ms(heapPerSession),
          ],
          [
            `sandboxed ${BASE64_CALL.tool} warm p50 / p99, ms (${options.calls} sequential calls)`,
            pair(sandbox.stats.base64.p50Ms, sandbox.stats.base64.p99Ms),
          ],
          [
            `upstream ${ECHO_TOOL} warm p50 / p99, ms (same gateway, alternating blocks)`,
            pair(sandbox.stats.echo.p50Ms, sandbox.stats.echo.p99Ms),
          ],
        ],
      },
    ],
    targets: scaleTargetsRun(options, figures),
    lines: [
      `upstreams: ${SCALE_UPSTREAMS} copies of \`node bench/many-tools-server.mjs ${TOOLS_PER_UPSTREAM}\` ` +
        "(dependency-free JSON-RPC over stdio, default era probe); ready time includes the gateway's own start (compiled, dist/main.js)",
      'tools/list: the SDK client figure (judged) includes its JSON parse, schema validation and list cache; the raw ' +
        'wire figure is plain fetch on a 2025-era session, the two taking turns in blocks',
      `sessions: plain fetch, initialize (${IDLE_SESSIONS} + 50 warm-up) then notifications/initialized, held open; ` +
        'RSS from /proc/<pid>/status VmRSS of the gateway child (its upstream not included); heap: the same ' +
        'sessions on a gateway in the bench process, heapUsed after two full GCs before and after (the target)',
      ...failures,
    ],
    figures: {
      ...figures,
      healthyMs: many.healthyMs,
      wireBytes: many.wireBytes,
      kibPerSession: perSession,
      heapKibPerSession: heapPerSession,
      failures,
    },
  };
}

/** The scale section. */
export const scaleSection: Section = { name: 'scale', parts: SCALE_PARTS, run: runScale };
