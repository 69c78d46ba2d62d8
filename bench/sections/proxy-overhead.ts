/**
 * Section "proxy": the echo upstream called directly and through Portcullis, over stdio and Streamable HTTP,
 * sequentially and at concurrency 16. Portcullis runs three ways side by side: in the bench process
 * (`portcullis-inproc`, sharing the client's event loop), as `portcullis stdio` launched by the client
 * (`portcullis-stdio`, the same client transport as `stdio / direct`) and as `portcullis serve`
 * (`portcullis-http`). Every gateway has the whole pipeline on: default config, audit, and spans exported to an
 * OTLP/HTTP sink whose span counts are reported. Targets are evaluated on the portcullis-stdio rows and shown
 * for portcullis-http. In front of the stdio upstream, three reference relays that govern nothing (bytes, json,
 * sdk) take turns with the rest and show what any relay costs here, and so do the npm relays a user would pick
 * instead (mcp-proxy, supergateway: bench/peers.ts), compared with portcullis-http in bench/peer-compare.ts.
 * Longer than the usual file: it wires eleven paths of one run; its pure parts live in relay-floor.ts,
 * peer-compare.ts and peers.ts.
 */
import os from 'node:os';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createCleanupStack } from '../cleanup.ts';
import { connectHttp, connectStdio, type BenchClient } from '../clients.ts';
import { ECHO_STDIO, startEchoHttp } from '../echo-upstream.ts';
import { ms, percent, rate, signedMs } from '../format.ts';
import { startBenchGateway } from '../gateway.ts';
import {
  buildGateway,
  createLineCounter,
  gatewayLaunch,
  startGatewayProcess,
  waitForTools,
  writeGatewayConfig,
} from '../gateway-process.ts';
import {
  blockSizes,
  collectLoad,
  mergeSamples,
  runLoad,
  summarizeSamples,
  type LoadSamples,
} from '../load.ts';
import { countsFor, startOtlpSink } from '../otlp-sink.ts';
import { peerReport } from '../peer-compare.ts';
import { PEER_PATHS, startPeerPaths, type PeerPath } from '../peers.ts';
import { findChild, processCpuMs } from '../proc-cpu.ts';
import { RELAY_MODES } from '../reference-relay.ts';
import { floorLines, RELAY_PATHS, relayLaunch, type RelayPath } from '../relay-floor.ts';
import { measureTelemetryCost, TELEMETRY_TARGET_MS, type TelemetryCost } from '../telemetry-cost.ts';
import type { CellStats } from '../stats.ts';
import type { BenchOptions, Section, SectionResult, TargetResult } from '../types.ts';

/** Target: through Portcullis to a stdio upstream, sequential p50 at most this many ms above direct. */
export const P50_DELTA_TARGET_MS = 0.4;
/** Target: through Portcullis to a stdio upstream at concurrency 16, at least this share of direct calls/s. */
export const THROUGHPUT_TARGET_RATIO = 0.6;

/** The upstream transport a cell calls. */
export type Upstream = 'stdio' | 'http';
/** How the bench client reaches the upstream (a reference relay only in front of the stdio upstream). */
export type ProxyPath =
  'direct' | RelayPath | 'portcullis-inproc' | 'portcullis-stdio' | 'portcullis-http' | PeerPath;
/** The gateway paths, in the order cells run after `direct`. */
export const GATEWAY_PATHS = ['portcullis-inproc', 'portcullis-stdio', 'portcullis-http'] as const;
/** The path whose rows the targets are evaluated on (the same client transport as `stdio / direct`). */
export const TARGET_PATH: ProxyPath = 'portcullis-stdio';

/** One measured cell. */
export interface ProxyCell {
  upstream: Upstream;
  path: ProxyPath;
  concurrency: number;
  stats: CellStats;
  /** CPU ms per measured call of the gateway process (out-of-process paths; NaN otherwise). */
  gatewayCpuMsPerCall?: number;
  /** CPU ms per measured call of the upstream process (NaN when it could not be found). */
  upstreamCpuMsPerCall?: number;
}

/** One gateway path versus direct for one upstream and concurrency. */
export interface ProxyComparison {
  upstream: Upstream;
  path: ProxyPath;
  concurrency: number;
  p50DeltaMs: number;
  p99DeltaMs: number;
  throughputRatio: number;
}

/** Compares every gateway cell with the direct cell of the same upstream and concurrency. */
export function compareCells(cells: readonly ProxyCell[]): ProxyComparison[] {
  const out: ProxyComparison[] = [];
  for (const gw of cells.filter((c) => c.path !== 'direct')) {
    const direct = cells.find(
      (c) => c.path === 'direct' && c.upstream === gw.upstream && c.concurrency === gw.concurrency,
    );
    if (!direct) continue;
    out.push({
      upstream: gw.upstream,
      path: gw.path,
      concurrency: gw.concurrency,
      p50DeltaMs: gw.stats.p50Ms - direct.stats.p50Ms,
      p99DeltaMs: gw.stats.p99Ms - direct.stats.p99Ms,
      throughputRatio: gw.stats.callsPerSec / direct.stats.callsPerSec,
    });
  }
  return out;
}

/** Checks the two stdio-upstream targets on the rows of one gateway path. */
export function checkTargets(
  comparisons: readonly ProxyComparison[],
  concurrency: number,
  path: ProxyPath = TARGET_PATH,
): TargetResult[] {
  const of = (c: number) =>
    comparisons.find((x) => x.upstream === 'stdio' && x.path === path && x.concurrency === c);
  const seq = of(1);
  const par = of(concurrency);
  const label = path === TARGET_PATH ? `[${path}]` : `[${path}, shown for reference]`;
  return [
    {
      name: `${label} stdio upstream, sequential: p50 through Portcullis <= direct + ${P50_DELTA_TARGET_MS.toFixed(1)} ms`,
      pass: seq !== undefined && seq.p50DeltaMs <= P50_DELTA_TARGET_MS,
      detail: seq ? `${signedMs(seq.p50DeltaMs)} ms` : 'not measured',
    },
    {
      name: `${label} stdio upstream, concurrency ${concurrency}: calls/s through Portcullis >= ${percent(THROUGHPUT_TARGET_RATIO)} of direct`,
      pass: par !== undefined && par.throughputRatio >= THROUGHPUT_TARGET_RATIO,
      detail: par ? percent(par.throughputRatio) : 'not measured',
    },
  ];
}

interface PathClient {
  client: BenchClient;
  /** The gateway process, for its CPU time (undefined: direct or in-process). */
  pid?: number | null | undefined;
  /** The upstream process this path's calls reach, for its CPU time. */
  upstreamPid?: number | undefined;
}

/** Rounds each cell's calls are split into; the paths of a group take turns, one block each per round. */
export function roundsFor(options: BenchOptions): number {
  return Math.max(1, Math.min(options.quick ? 2 : 4, options.calls));
}

/**
 * Measures every path of one upstream at one concurrency: each path warms up, then the paths take turns in
 * rounds of blocks, so drift (JIT, GC, other load on the machine) hits every path alike.
 */
async function measureGroup(
  targets: readonly (PathClient & { path: ProxyPath; tool: string })[],
  concurrency: number,
  options: BenchOptions,
): Promise<Map<ProxyPath, Omit<ProxyCell, 'upstream' | 'path' | 'concurrency'>>> {
  for (const target of targets) {
    await runLoad((i) => target.client.echo(target.tool, `warm-${i}`), options.warmup, concurrency);
  }
  const samples = new Map<ProxyPath, LoadSamples[]>(targets.map((t) => [t.path, []]));
  const cpu = new Map(targets.map((t) => [t.path, { gateway: 0, upstream: 0 }]));
  for (const size of blockSizes(options.calls, roundsFor(options))) {
    for (const target of targets) {
      const gatewayBefore = processCpuMs(target.pid);
      const upstreamBefore = processCpuMs(target.upstreamPid);
      const block = await collectLoad((i) => target.client.echo(target.tool, `call-${i}`), size, concurrency);
      samples.get(target.path)?.push(block);
      const used = cpu.get(target.path) as { gateway: number; upstream: number };
      used.gateway += processCpuMs(target.pid) - gatewayBefore;
      used.upstream += processCpuMs(target.upstreamPid) - upstreamBefore;
    }
  }
  return new Map(
    targets.map((t) => {
      const stats = summarizeSamples(mergeSamples(samples.get(t.path) ?? []));
      const used = cpu.get(t.path) as { gateway: number; upstream: number };
      return [
        t.path,
        {
          stats,
          gatewayCpuMsPerCall: used.gateway / stats.calls,
          upstreamCpuMsPerCall: used.upstream / stats.calls,
        },
      ];
    }),
  );
}

/**
 * Where the CPU of one call goes at concurrency, direct versus one gateway path, and the throughput ratio the
 * machine's cores allow if every process is CPU-bound: direct needs client + upstream, the gateway path needs
 * client + gateway + upstream. Undefined when a figure is missing (no /proc).
 */
export function cpuBudget(
  direct: ProxyCell,
  gateway: ProxyCell,
  ratioTarget = THROUGHPUT_TARGET_RATIO,
): { directMs: number; gatewayPathMs: number; ceilingRatio: number; gatewayAllowanceMs: number } | undefined {
  const directMs = direct.stats.cpuMsPerCall + (direct.upstreamCpuMsPerCall ?? Number.NaN);
  const others = gateway.stats.cpuMsPerCall + (gateway.upstreamCpuMsPerCall ?? Number.NaN);
  const gatewayPathMs = others + (gateway.gatewayCpuMsPerCall ?? Number.NaN);
  if (![directMs, others, gatewayPathMs].every(Number.isFinite) || gatewayPathMs <= 0) return undefined;
  return {
    directMs,
    gatewayPathMs,
    ceilingRatio: directMs / gatewayPathMs,
    gatewayAllowanceMs: directMs / ratioTarget - others,
  };
}

async function runProxy(options: BenchOptions): Promise<SectionResult> {
  buildGateway();
  const cleanups = createCleanupStack();
  try {
    const sink = await startOtlpSink();
    cleanups.push(() => sink.stop());
    const http = await startEchoHttp();
    cleanups.push(() => http.stop());
    const upstreams = {
      stdio: {
        transport: 'stdio',
        command: ECHO_STDIO.command,
        args: [...ECHO_STDIO.args],
        cwd: ECHO_STDIO.cwd,
      },
      http: { transport: 'http', url: http.url },
    };
    // Everything above this mark is a gateway or a client: stopped (and flushed) before the sink is read.
    const gatewaysMark = cleanups.depth();
    const stdioConfig = writeGatewayConfig(upstreams, sink.endpoint('portcullis-stdio'));
    cleanups.push(() => stdioConfig.remove());
    const stdioLog = createLineCounter();
    // The three gateways start side by side; whichever started is stopped again if another one failed.
    const [inprocStart, servedStart, stdioStart] = await Promise.allSettled([
      startBenchGateway(
        upstreams,
        { PATH: process.env.PATH, HOME: process.env.HOME },
        sink.endpoint('portcullis-inproc'),
      ),
      startGatewayProcess(upstreams, sink.endpoint('portcullis-http')),
      connectStdio(gatewayLaunch('stdio', stdioConfig.file), stdioLog.onChunk),
    ]);
    if (inprocStart.status === 'fulfilled') cleanups.push(() => inprocStart.value.close());
    if (servedStart.status === 'fulfilled') cleanups.push(() => servedStart.value.stop());
    if (stdioStart.status === 'fulfilled') cleanups.push(() => stdioStart.value.close());
    for (const start of [inprocStart, servedStart, stdioStart]) {
      if (start.status === 'rejected') throw start.reason;
    }
    const inproc = (inprocStart as PromiseFulfilledResult<Awaited<ReturnType<typeof startBenchGateway>>>)
      .value;
    const served = (servedStart as PromiseFulfilledResult<Awaited<ReturnType<typeof startGatewayProcess>>>)
      .value;
    const stdioGateway = (stdioStart as PromiseFulfilledResult<BenchClient>).value;
    for (const snapshot of inproc.gateway.supervisor.snapshots()) {
      if (snapshot.state !== 'connected')
        throw new Error(
          `gateway upstream "${snapshot.id}" is ${snapshot.state}: ${snapshot.lastError ?? ''}`,
        );
    }

    const relays = await Promise.all(RELAY_MODES.map((mode) => connectStdio(relayLaunch(mode))));
    const peers = await startPeerPaths((step) => cleanups.push(step));
    for (const relay of relays) cleanups.push(() => relay.close());
    const clients = {
      stdioDirect: await connectStdio(),
      httpDirect: await connectHttp(http.url),
      inproc: await connectHttp(inproc.url),
      served: await connectHttp(served.url),
    };
    for (const c of Object.values(clients)) cleanups.push(() => c.close());
    await waitForTools(stdioGateway, ['stdio_echo', 'http_echo']);
    await waitForTools(clients.served, ['stdio_echo', 'http_echo']);
    await waitForTools(clients.inproc, ['stdio_echo', 'http_echo']);
    const stdioPid = (stdioGateway.transport as StdioClientTransport).pid;

    // The upstream process behind each path (CPU per call); the HTTP echo upstream is shared by every path.
    const directEchoPid = (clients.stdioDirect.transport as StdioClientTransport).pid ?? undefined;
    const echoStdioSuffix = ECHO_STDIO.args.join(' ');
    const stdioEcho = {
      direct: directEchoPid,
      inproc: findChild(process.pid, echoStdioSuffix, directEchoPid === undefined ? [] : [directEchoPid]),
      stdio: findChild(stdioPid, echoStdioSuffix),
      served: findChild(served.pid, echoStdioSuffix),
    };
    const httpEcho = http.child.pid;
    const relayPaths = Object.fromEntries(
      RELAY_PATHS.map((p, i) => {
        const relay = relays[i] as BenchClient;
        const pid = (relay.transport as StdioClientTransport).pid;
        return [p, { client: relay, tool: 'echo', pid, upstreamPid: findChild(pid, echoStdioSuffix) }];
      }),
    ) as Record<RelayPath, PathClient & { tool: string }>;
    const paths: Record<Upstream, Partial<Record<ProxyPath, PathClient & { tool: string }>>> = {
      stdio: {
        direct: { client: clients.stdioDirect, tool: 'echo', upstreamPid: stdioEcho.direct },
        ...relayPaths,
        ...Object.fromEntries(
          peers.flatMap((p) =>
            p.ok
              ? [[p.peer, { client: p.client, tool: 'echo', pid: p.process.pid, upstreamPid: p.upstreamPid }]]
              : [],
          ),
        ),
        'portcullis-inproc': { client: clients.inproc, tool: 'stdio_echo', upstreamPid: stdioEcho.inproc },
        'portcullis-stdio': {
          client: stdioGateway,
          tool: 'stdio_echo',
          pid: stdioPid,
          upstreamPid: stdioEcho.stdio,
        },
        'portcullis-http': {
          client: clients.served,
          tool: 'stdio_echo',
          pid: served.pid,
          upstreamPid: stdioEcho.served,
        },
      },
      http: {
        direct: { client: clients.httpDirect, tool: 'echo', upstreamPid: httpEcho },
        'portcullis-inproc': { client: clients.inproc, tool: 'http_echo', upstreamPid: httpEcho },
        'portcullis-stdio': { client: stdioGateway, tool: 'http_echo', pid: stdioPid, upstreamPid: httpEcho },
        'portcullis-http': {
          client: clients.served,
          tool: 'http_echo',
          pid: served.pid,
          upstreamPid: httpEcho,
        },
      },
    };
    const callsThrough: Record<string, number> = {};
    const cells: ProxyCell[] = [];
    for (const upstream of ['stdio', 'http'] as const) {
      for (const concurrency of [1, options.concurrency]) {
        const order = (['direct', ...RELAY_PATHS, ...GATEWAY_PATHS, ...PEER_PATHS] as const).filter(
          (path) => paths[upstream][path] !== undefined,
        );
        const group = await measureGroup(
          order.map((path) => ({ path, ...(paths[upstream][path] as PathClient & { tool: string }) })),
          concurrency,
          options,
        );
        for (const path of order) {
          const measured = group.get(path);
          if (measured) cells.push({ upstream, path, concurrency, ...measured });
          callsThrough[path] = (callsThrough[path] ?? 0) + options.warmup + options.calls;
        }
      }
    }
    const eras = {
      client: clients.inproc.client.getProtocolEra() ?? 'legacy',
      stdioClient: stdioGateway.client.getProtocolEra() ?? 'legacy',
      gatewayUpstreams: Object.fromEntries(inproc.gateway.supervisor.snapshots().map((s) => [s.id, s.era])),
    };
    const logLines = {
      'portcullis-inproc': inproc.logLines(),
      'portcullis-stdio': stdioLog.count(),
      'portcullis-http': served.logLines(),
    };
    // Stopping every gateway flushes its batched spans to the sink before the counts are read.
    await cleanups.unwind(gatewaysMark);
    const sinkStats = await sink.stats();
    const telemetryCost = await measureTelemetryCost(
      sink.endpoint('telemetry-cost'),
      options.calls,
      options.warmup,
    );
    const spans = Object.fromEntries(
      GATEWAY_PATHS.map((p) => [p, { toolCalls: callsThrough[p] ?? 0, ...countsFor(sinkStats, p) }]),
    );

    const comparisons = compareCells(cells);
    const peerFigures = peerReport(
      cells,
      'portcullis-http',
      PEER_PATHS,
      Object.fromEntries(peers.flatMap((p) => (p.ok ? [] : [[p.peer, p.reason]]))),
      options.concurrency,
    );
    const targets = [
      ...checkTargets(comparisons, options.concurrency, 'portcullis-stdio'),
      ...checkTargets(comparisons, options.concurrency, 'portcullis-http'),
      ...peerFigures.targets,
      {
        name: `telemetry alone, spans exported: <= ${TELEMETRY_TARGET_MS} ms of CPU per call`,
        pass: telemetryCost.onMsPerCall <= TELEMETRY_TARGET_MS,
        detail: `${ms(telemetryCost.onMsPerCall)} ms`,
      },
    ];
    return {
      tables: [
        {
          title:
            `Echo tool, ${options.calls} calls per cell after ${options.warmup} warm-up calls, the paths of each ` +
            `upstream and concurrency taking turns in ${roundsFor(options)} rounds`,
          columns: [
            'upstream / path',
            'concurrency',
            'p50 ms',
            'p99 ms',
            'mean ms',
            'calls/s',
            'bench cpu ms/call',
            'gw cpu ms/call',
            'upstream cpu ms/call',
            'errors',
          ],
          rows: cells.map((c) => [
            `${c.upstream} / ${c.path}`,
            String(c.concurrency),
            ms(c.stats.p50Ms),
            ms(c.stats.p99Ms),
            ms(c.stats.meanMs),
            rate(c.stats.callsPerSec),
            ms(c.stats.cpuMsPerCall),
            c.gatewayCpuMsPerCall === undefined || Number.isNaN(c.gatewayCpuMsPerCall)
              ? 'n/a'
              : ms(c.gatewayCpuMsPerCall),
            c.upstreamCpuMsPerCall === undefined || Number.isNaN(c.upstreamCpuMsPerCall)
              ? 'n/a'
              : ms(c.upstreamCpuMsPerCall),
            String(c.stats.errors),
          ]),
        },
        {
          title: 'Each path versus direct (same upstream, same concurrency)',
          columns: ['upstream', 'path', 'concurrency', 'p50 delta ms', 'p99 delta ms', 'throughput'],
          rows: comparisons.map((c) => [
            c.upstream,
            c.path,
            String(c.concurrency),
            signedMs(c.p50DeltaMs),
            signedMs(c.p99DeltaMs),
            percent(c.throughputRatio),
          ]),
        },
        {
          title: 'Spans the OTLP sink received (gateways stopped and flushed first)',
          columns: ['gateway', 'tool calls', 'spans', 'trace POSTs', 'metric POSTs', 'unparsed'],
          rows: GATEWAY_PATHS.map((p) => {
            const s = spans[p] as (typeof spans)[string];
            return [
              p,
              String(s.toolCalls),
              String(s.spans),
              String(s.tracePosts),
              String(s.metricPosts),
              String(s.unparsed),
            ];
          }),
        },
        ...peerFigures.tables,
      ],
      targets,
      lines: [
        `shape: one SDK client per path; concurrency ${options.concurrency} = ${options.concurrency} workers sharing that one client and a call counter`,
        `paths: direct = the client spawns/calls the echo upstream; portcullis-inproc = createGateway in the bench process ` +
          `(same event loop as the client); portcullis-stdio = the client launches \`node --no-node-snapshot dist/main.js stdio --config FILE\` ` +
          `(the compiled gateway, as bin/portcullis.js and the Docker image run it; same client transport as stdio / direct); ` +
          `portcullis-http = \`dist/main.js serve --config FILE --port N\` as a child, client over Streamable HTTP; ` +
          `relay-bytes|json|sdk = bench/reference-relay.ts in front of the stdio echo upstream (no governance; the floor); ` +
          `mcp-proxy, supergateway = the npm relays as children on 127.0.0.1 in front of the same stdio echo upstream, ` +
          `the same SDK client over Streamable HTTP as portcullis-http`,
        ...peers.flatMap((p) => (p.ok ? [`  ${p.process.note}`] : [])),
        ...peerFigures.lines,
        `config (all three gateways): default config + the two echo upstreams + temp store + telemetry.otlp.endpoint -> OTLP sink child on 127.0.0.1 (audit always on)`,
        `eras: bench client -> ${eras.client} (http) / ${eras.stdioClient} (stdio); gateway -> upstreams ${JSON.stringify(eras.gatewayUpstreams)}`,
        'bench cpu ms/call: CPU of the bench process per call (the client; plus the gateway on portcullis-inproc rows); ' +
          'gw cpu ms/call: CPU of the gateway (or relay, or peer) child from /proc/<pid>/stat (10 ms ticks; its upstream children not included); ' +
          'upstream cpu ms/call: CPU of the echo upstream the path reaches (the HTTP one is shared by all paths)',
        `log lines (counted, not printed): ${JSON.stringify(logLines)}`,
        `targets: evaluated on ${TARGET_PATH} (same client transport as direct); also shown for portcullis-http`,
        ...budgetLines(cells, options.concurrency, telemetryCost),
        ...floorLines(
          comparisons.filter((c) => c.upstream === 'stdio'),
          options.concurrency,
          { p50DeltaMs: P50_DELTA_TARGET_MS, throughputRatio: THROUGHPUT_TARGET_RATIO },
        ),
      ],
      figures: {
        cells,
        comparisons,
        targets,
        eras,
        spans,
        logLines,
        telemetryCost,
        peers: peerFigures.figures,
      },
    };
  } finally {
    await cleanups.unwind();
  }
}

function budgetLines(cells: readonly ProxyCell[], concurrency: number, telemetry: TelemetryCost): string[] {
  const find = (path: ProxyPath) =>
    cells.find((c) => c.upstream === 'stdio' && c.path === path && c.concurrency === concurrency);
  const direct = find('direct');
  const gateway = find(TARGET_PATH);
  const budget = direct && gateway ? cpuBudget(direct, gateway) : undefined;
  const telemetryLine =
    `  telemetry alone (the gateway's facade in the bench process: two spans exported to the sink, metrics, two ` +
    `log lines formatted; steady state, the median of rounds two to five): ${ms(telemetry.onMsPerCall)} ms of CPU per call ` +
    `(${ms(telemetry.offMsPerCall)} with no endpoint; ${ms(telemetry.firstOnMsPerCall)} in the first round, ` +
    `which compiles the code)`;
  if (!direct || !gateway || !budget) return ['cpu budget: not measured (needs /proc)', telemetryLine];
  return [
    `cpu budget, stdio upstream at concurrency ${concurrency} (${os.cpus().length} cores shared by every process): ` +
      `direct = client ${ms(direct.stats.cpuMsPerCall)} + upstream ${ms(direct.upstreamCpuMsPerCall ?? NaN)} = ` +
      `${ms(budget.directMs)} ms/call; ${TARGET_PATH} = client ${ms(gateway.stats.cpuMsPerCall)} + gateway ` +
      `${ms(gateway.gatewayCpuMsPerCall ?? NaN)} + upstream ${ms(gateway.upstreamCpuMsPerCall ?? NaN)} = ` +
      `${ms(budget.gatewayPathMs)} ms/call`,
    `  when the cores are the bottleneck, throughput through the gateway is at most ${percent(budget.ceilingRatio)} ` +
      `of direct; ` +
      (budget.gatewayAllowanceMs > 0
        ? `${percent(THROUGHPUT_TARGET_RATIO)} would need the gateway to spend at most ` +
          `${ms(budget.gatewayAllowanceMs)} ms of CPU per call`
        : `${percent(THROUGHPUT_TARGET_RATIO)} is out of reach on these cores even for a gateway that costs ` +
          `nothing: client and upstream alone spend more than ${ms(budget.directMs / THROUGHPUT_TARGET_RATIO)} ms per call`),
    `  even with client and upstream costing no more than direct, ${percent(THROUGHPUT_TARGET_RATIO)} leaves the ` +
      `gateway at most ${ms(budget.directMs * (1 / THROUGHPUT_TARGET_RATIO - 1))} ms of CPU per call`,
    telemetryLine,
  ];
}

/** The gateway-versus-direct section. */
export const proxySection: Section = { name: 'proxy', run: runProxy };
