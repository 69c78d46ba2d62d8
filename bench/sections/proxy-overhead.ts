/**
 * Section "proxy": the echo upstream called directly and through Portcullis, over stdio and Streamable HTTP,
 * sequentially and at concurrency 16, with the gateway/direct ratios and the two stdio targets.
 */
import { connectHttp, connectStdio, type BenchClient } from '../clients.ts';
import { ECHO_STDIO, startEchoHttp } from '../echo-upstream.ts';
import { ms, percent, rate, signedMs } from '../format.ts';
import { startBenchGateway } from '../gateway.ts';
import { runLoad } from '../load.ts';
import type { CellStats } from '../stats.ts';
import type { BenchOptions, Section, SectionResult, TargetResult } from '../types.ts';

/** Target: through Portcullis to a stdio upstream, sequential p50 at most this many ms above direct. */
export const P50_DELTA_TARGET_MS = 1.0;
/** Target: through Portcullis to a stdio upstream at concurrency 16, at least this share of direct calls/s. */
export const THROUGHPUT_TARGET_RATIO = 0.8;

type Upstream = 'stdio' | 'http';
type Path = 'direct' | 'portcullis';

/** One measured cell. */
export interface ProxyCell {
  upstream: Upstream;
  path: Path;
  concurrency: number;
  stats: CellStats;
}

/** Gateway versus direct for one upstream and concurrency. */
export interface ProxyComparison {
  upstream: Upstream;
  concurrency: number;
  p50DeltaMs: number;
  p99DeltaMs: number;
  throughputRatio: number;
}

/** Compares every portcullis cell with the direct cell of the same upstream and concurrency. */
export function compareCells(cells: readonly ProxyCell[]): ProxyComparison[] {
  const out: ProxyComparison[] = [];
  for (const gw of cells.filter((c) => c.path === 'portcullis')) {
    const direct = cells.find(
      (c) => c.path === 'direct' && c.upstream === gw.upstream && c.concurrency === gw.concurrency,
    );
    if (!direct) continue;
    out.push({
      upstream: gw.upstream,
      concurrency: gw.concurrency,
      p50DeltaMs: gw.stats.p50Ms - direct.stats.p50Ms,
      p99DeltaMs: gw.stats.p99Ms - direct.stats.p99Ms,
      throughputRatio: gw.stats.callsPerSec / direct.stats.callsPerSec,
    });
  }
  return out;
}

/** Checks the two stdio targets against the comparisons. */
export function checkTargets(comparisons: readonly ProxyComparison[], concurrency: number): TargetResult[] {
  const seq = comparisons.find((c) => c.upstream === 'stdio' && c.concurrency === 1);
  const par = comparisons.find((c) => c.upstream === 'stdio' && c.concurrency === concurrency);
  return [
    {
      name: `stdio upstream, sequential: p50 through Portcullis <= direct + ${P50_DELTA_TARGET_MS.toFixed(1)} ms`,
      pass: seq !== undefined && seq.p50DeltaMs <= P50_DELTA_TARGET_MS,
      detail: seq ? `${signedMs(seq.p50DeltaMs)} ms` : 'not measured',
    },
    {
      name: `stdio upstream, concurrency ${concurrency}: calls/s through Portcullis >= ${percent(THROUGHPUT_TARGET_RATIO)} of direct`,
      pass: par !== undefined && par.throughputRatio >= THROUGHPUT_TARGET_RATIO,
      detail: par ? percent(par.throughputRatio) : 'not measured',
    },
  ];
}

async function measure(
  client: BenchClient,
  tool: string,
  concurrency: number,
  options: BenchOptions,
): Promise<CellStats> {
  await runLoad((i) => client.echo(tool, `warm-${i}`), options.warmup, concurrency);
  return runLoad((i) => client.echo(tool, `call-${i}`), options.calls, concurrency);
}

async function runProxy(options: BenchOptions): Promise<SectionResult> {
  const http = await startEchoHttp();
  const gw = await startBenchGateway(
    {
      stdio: {
        transport: 'stdio',
        command: ECHO_STDIO.command,
        args: [...ECHO_STDIO.args],
        cwd: ECHO_STDIO.cwd,
      },
      http: { transport: 'http', url: http.url },
    },
    { PATH: process.env.PATH, HOME: process.env.HOME },
  );
  const cells: ProxyCell[] = [];
  const clients: BenchClient[] = [];
  try {
    for (const snapshot of gw.gateway.supervisor.snapshots()) {
      if (snapshot.state !== 'connected')
        throw new Error(
          `gateway upstream "${snapshot.id}" is ${snapshot.state}: ${snapshot.lastError ?? ''}`,
        );
    }
    const paths: Record<Upstream, Record<Path, { client: BenchClient; tool: string }>> = {
      stdio: {
        direct: { client: await connectStdio(), tool: 'echo' },
        portcullis: { client: await connectHttp(gw.url), tool: 'stdio_echo' },
      },
      http: {
        direct: { client: await connectHttp(http.url), tool: 'echo' },
        portcullis: { client: await connectHttp(gw.url), tool: 'http_echo' },
      },
    };
    for (const byPath of Object.values(paths)) clients.push(byPath.direct.client, byPath.portcullis.client);

    // Direct and gateway cells alternate so that drift (thermal, GC, JIT) hits both sides alike.
    for (const upstream of ['stdio', 'http'] as const) {
      for (const concurrency of [1, options.concurrency]) {
        for (const path of ['direct', 'portcullis'] as const) {
          const { client, tool } = paths[upstream][path];
          cells.push({
            upstream,
            path,
            concurrency,
            stats: await measure(client, tool, concurrency, options),
          });
        }
      }
    }
    const eras = {
      client: paths.stdio.portcullis.client.client.getProtocolEra() ?? 'legacy',
      gatewayUpstreams: Object.fromEntries(gw.gateway.supervisor.snapshots().map((s) => [s.id, s.era])),
    };
    const comparisons = compareCells(cells);
    const targets = checkTargets(comparisons, options.concurrency);
    return {
      tables: [
        {
          title: `Echo tool, ${options.calls} calls per cell after ${options.warmup} warm-up calls`,
          columns: [
            'upstream / path',
            'concurrency',
            'p50 ms',
            'p99 ms',
            'mean ms',
            'calls/s',
            'cpu ms/call',
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
            String(c.stats.errors),
          ]),
        },
        {
          title: 'Portcullis versus direct',
          columns: ['upstream', 'concurrency', 'p50 delta ms', 'p99 delta ms', 'throughput'],
          rows: comparisons.map((c) => [
            c.upstream,
            String(c.concurrency),
            signedMs(c.p50DeltaMs),
            signedMs(c.p99DeltaMs),
            percent(c.throughputRatio),
          ]),
        },
      ],
      targets,
      lines: [
        `shape: one SDK client per path; concurrency ${options.concurrency} = ${options.concurrency} workers sharing that one client and a call counter`,
        `eras: bench client -> ${eras.client}; gateway -> upstreams ${JSON.stringify(eras.gatewayUpstreams)}`,
        'cpu ms/call: CPU time of the bench process per call (the client; plus the gateway on portcullis rows)',
        `gateway: default config, in-process (same event loop as the bench client); ${gw.logLines()} log lines counted, not printed`,
      ],
      figures: { cells, comparisons, targets, eras },
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await gw.close();
    await http.stop();
  }
}

/** The gateway-versus-direct section. */
export const proxySection: Section = { name: 'proxy', run: runProxy };
