/**
 * Portcullis over HTTP against the npm peers (mcp-proxy, supergateway) measured in the same run, in front of the
 * same stdio echo upstream: one row per path, ratios against the better peer, and the HTTP door's targets as
 * met/missed lines.
 */
import { ms, rate } from './format.ts';
import type { CellStats } from './stats.ts';
import type { Table, TargetResult } from './types.ts';

/** Target: gateway CPU per call on the HTTP path at concurrency 16, audit and OTLP export on. */
export const HTTP_CPU_TARGET_MS = 0.35;
/** Target: the HTTP path's CPU per call at most this share of the cheaper peer's. */
export const PEER_CPU_SHARE_TARGET = 1 / 3;
/** Target: calls/s at concurrency 16 at least this multiple of the better peer's. */
export const PEER_THROUGHPUT_TARGET = 1.3;

/** What one HTTP path measured: sequential latency, concurrent rate and the relay process's CPU. */
export interface PathFigures {
  path: string;
  seqP50Ms: number;
  seqP99Ms: number;
  parCallsPerSec: number;
  /** CPU ms per call of the relay process (the gateway or the peer, not its upstream) at concurrency. */
  parCpuMsPerCall: number;
}

/** The best peer on each measure (they may differ); undefined when no peer was measured. */
export interface BestPeers {
  /** Most calls/s at concurrency. */
  fastest: PathFigures;
  /** Lowest sequential p50. */
  quickest: PathFigures;
  /** Least CPU per call (a NaN never wins). */
  cheapest: PathFigures;
}

/** Picks the best peer on each measure. */
export function bestPeers(peers: readonly PathFigures[]): BestPeers | undefined {
  const [first] = peers;
  if (!first) return undefined;
  const pick = (better: (a: PathFigures, b: PathFigures) => boolean) =>
    peers.reduce((best, p) => (better(p, best) ? p : best), first);
  return {
    fastest: pick((a, b) => a.parCallsPerSec > b.parCallsPerSec),
    quickest: pick((a, b) => a.seqP50Ms < b.seqP50Ms),
    cheapest: pick((a, b) => !Number.isNaN(a.parCpuMsPerCall) && !(a.parCpuMsPerCall >= b.parCpuMsPerCall)),
  };
}

/** `value / base` as `1.23x`, or n/a. */
export function times(value: number, base: number): string {
  const ratio = value / base;
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a';
}

/** One row per path (Portcullis first), with each measure as a ratio of the best peer's. */
export function peerTable(rows: readonly PathFigures[], best: BestPeers, concurrency: number): Table {
  return {
    title:
      `Streamable HTTP relays in front of the stdio echo upstream, same SDK client, taking turns in the same ` +
      `rounds (ratios: this path / the best peer on that measure)`,
    columns: [
      'path',
      'seq p50 ms',
      'seq p99 ms',
      'p50 / best',
      `c${concurrency} calls/s`,
      'calls/s / best',
      `relay cpu ms/call (c${concurrency})`,
      'cpu / cheapest',
    ],
    rows: rows.map((r) => [
      r.path,
      ms(r.seqP50Ms),
      ms(r.seqP99Ms),
      times(r.seqP50Ms, best.quickest.seqP50Ms),
      rate(r.parCallsPerSec),
      times(r.parCallsPerSec, best.fastest.parCallsPerSec),
      ms(r.parCpuMsPerCall),
      times(r.parCpuMsPerCall, best.cheapest.parCpuMsPerCall),
    ]),
  };
}

/** The HTTP door's targets for `gateway` against the peers measured in the same run. */
export function peerTargets(
  gateway: PathFigures,
  best: BestPeers | undefined,
  concurrency: number,
): TargetResult[] {
  const label = `[${gateway.path}]`;
  const cpu = gateway.parCpuMsPerCall;
  const targets: TargetResult[] = [
    {
      name: `${label} gateway CPU <= ${ms(HTTP_CPU_TARGET_MS)} ms per call at concurrency ${concurrency}`,
      pass: cpu <= HTTP_CPU_TARGET_MS,
      detail: `${ms(cpu)} ms`,
    },
  ];
  if (!best) {
    const missing = { pass: false, detail: 'no peer measured' };
    return [
      ...targets,
      { name: `${label} CPU per call <= a third of the cheaper peer's`, ...missing },
      { name: `${label} calls/s at concurrency ${concurrency} >= 1.3x the better peer's`, ...missing },
      { name: `${label} sequential p50 below the better peer's`, ...missing },
    ];
  }
  const { cheapest, fastest, quickest } = best;
  return [
    ...targets,
    {
      name: `${label} CPU per call <= a third of the cheaper peer's (${cheapest.path})`,
      pass: cpu <= cheapest.parCpuMsPerCall * PEER_CPU_SHARE_TARGET,
      detail: `${ms(cpu)} vs ${ms(cheapest.parCpuMsPerCall)} ms (${times(cpu, cheapest.parCpuMsPerCall)})`,
    },
    {
      name: `${label} calls/s at concurrency ${concurrency} >= ${PEER_THROUGHPUT_TARGET.toFixed(1)}x the better peer's (${fastest.path})`,
      pass: gateway.parCallsPerSec >= fastest.parCallsPerSec * PEER_THROUGHPUT_TARGET,
      detail:
        `${rate(gateway.parCallsPerSec)} vs ${rate(fastest.parCallsPerSec)} calls/s ` +
        `(${times(gateway.parCallsPerSec, fastest.parCallsPerSec)})`,
    },
    {
      name: `${label} sequential p50 below the better peer's (${quickest.path})`,
      pass: gateway.seqP50Ms < quickest.seqP50Ms,
      detail: `${ms(gateway.seqP50Ms)} vs ${ms(quickest.seqP50Ms)} ms`,
    },
  ];
}

/** The parts of a measured proxy cell the comparison reads. */
export interface MeasuredCell {
  upstream: string;
  path: string;
  concurrency: number;
  stats: CellStats;
  gatewayCpuMsPerCall?: number;
}

/** The figures of `path` in front of the stdio upstream, or undefined when a cell is missing. */
export function pathFigures(
  cells: readonly MeasuredCell[],
  path: string,
  concurrency: number,
): PathFigures | undefined {
  const of = (c: number) =>
    cells.find((x) => x.upstream === 'stdio' && x.path === path && x.concurrency === c);
  const seq = of(1);
  const par = of(concurrency);
  if (!seq || !par) return undefined;
  return {
    path,
    seqP50Ms: seq.stats.p50Ms,
    seqP99Ms: seq.stats.p99Ms,
    parCallsPerSec: par.stats.callsPerSec,
    parCpuMsPerCall: par.gatewayCpuMsPerCall ?? Number.NaN,
  };
}

/** What the proxy section prints about the peers: the table (when anything was measured), targets and lines. */
export interface PeerReport {
  tables: Table[];
  targets: TargetResult[];
  lines: string[];
  figures: { rows: PathFigures[]; notStarted: Record<string, string> };
}

/**
 * Compares `gatewayPath` with every peer measured in `cells`; `notStarted` holds the peers that could not start
 * and why, which the lines say instead of silently dropping them.
 */
export function peerReport(
  cells: readonly MeasuredCell[],
  gatewayPath: string,
  peerPaths: readonly string[],
  notStarted: Record<string, string>,
  concurrency: number,
): PeerReport {
  const gateway = pathFigures(cells, gatewayPath, concurrency);
  const peers = peerPaths.flatMap((p) => pathFigures(cells, p, concurrency) ?? []);
  const best = bestPeers(peers);
  const lines = Object.entries(notStarted).map(
    ([peer, reason]) => `peer ${peer} could not start on this machine, so it has no row: ${reason}`,
  );
  const rows = gateway ? [gateway, ...peers] : peers;
  return {
    tables: best ? [peerTable(rows, best, concurrency)] : [],
    targets: gateway ? peerTargets(gateway, best, concurrency) : [],
    lines,
    figures: { rows, notStarted },
  };
}
