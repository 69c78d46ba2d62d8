/**
 * The reference relays of the proxy section (bench/reference-relay.ts) as bench paths, and the lines that read
 * the targets against them: what a relay that governs nothing already costs on this machine.
 */
import path from 'node:path';
import type { StdioLaunch } from './clients.ts';
import { ECHO_STDIO, ROOT } from './echo-upstream.ts';
import { percent, signedMs } from './format.ts';
import { tsxLaunch } from './gateway-process.ts';
import { RELAY_MODES, type RelayMode } from './reference-relay.ts';

/** The bench path of each reference relay, cheapest first. */
export const RELAY_PATHS = RELAY_MODES.map((mode) => `relay-${mode}` as const);
/** A reference relay's bench path. */
export type RelayPath = (typeof RELAY_PATHS)[number];

const RELAY_SCRIPT = path.join(ROOT, 'bench/reference-relay.ts');

/** The command line of one reference relay in front of the stdio echo upstream (node flags as the gateway's). */
export function relayLaunch(mode: RelayMode): StdioLaunch {
  return tsxLaunch(RELAY_SCRIPT, [mode, ECHO_STDIO.command, ...ECHO_STDIO.args]);
}

/** The figures of one path against direct that the floor lines read. */
export interface FloorComparison {
  path: string;
  concurrency: number;
  p50DeltaMs: number;
  throughputRatio: number;
}

/**
 * Lines on what the reference relays show about the two targets: each relay's sequential delta and concurrent
 * share, and, where even a relay that governs nothing misses a target, that no gateway in its place can meet it
 * on this machine in this run.
 */
export function floorLines(
  comparisons: readonly FloorComparison[],
  concurrency: number,
  targets: { p50DeltaMs: number; throughputRatio: number },
): string[] {
  const of = (p: RelayPath, c: number) => comparisons.find((x) => x.path === p && x.concurrency === c);
  const measured = RELAY_PATHS.map((p) => ({ path: p, seq: of(p, 1), par: of(p, concurrency) }));
  if (measured.some((m) => !m.seq || !m.par)) return ['reference relays: not measured'];
  const lines = [
    `reference relays (stdio upstream, no governance, same client and upstream): ` +
      measured
        .map(
          (m) =>
            `${m.path} ${signedMs(m.seq?.p50DeltaMs ?? NaN)} ms sequential, ` +
            `${percent(m.par?.throughputRatio ?? NaN)} of direct at concurrency ${concurrency}`,
        )
        .join('; '),
  ];
  // The claim holds only if no relay that leaves messages alone reached the share: the best of bytes and json.
  const plain = measured
    .slice(0, 2)
    .reduce((best, m) => ((m.par?.throughputRatio ?? 0) > (best.par?.throughputRatio ?? 0) ? m : best));
  if (plain.par && plain.par.throughputRatio < targets.throughputRatio) {
    lines.push(
      `  the best relay that governs nothing (${plain.path}) reached ${percent(plain.par.throughputRatio)} of ` +
        `direct at concurrency ${concurrency}: in this run no process placed between client and upstream ` +
        `could reach ${percent(targets.throughputRatio)}`,
    );
  }
  for (const m of measured) {
    if (m.seq && m.seq.p50DeltaMs > targets.p50DeltaMs) {
      lines.push(
        `  ${m.path} alone adds ${signedMs(m.seq.p50DeltaMs)} ms sequential, over the ` +
          `${targets.p50DeltaMs.toFixed(1)} ms budget before any governance`,
      );
      break;
    }
  }
  return lines;
}
