/**
 * npm run eval:poisoning: runs the current poisoning scanner over a split of the labelled corpus
 * (eval/poisoning/README.md) exactly as the live gateway calls it, and prints TPR, FPR, hard-negative FPR,
 * per-family figures and throughput.
 *
 *   --split train|dev|test|all   which split (default test; tune only on train and dev)
 *   --wiring live|full           live (default): the wiring before issue 17, one scanner with no other-server
 *                                names, each tool scanned under its sanitized alias (kept so figures compare
 *                                across rounds); full: as the gateway scans now, the original name and the
 *                                entry's coexistingTools as other-server names; in both, an entry with a
 *                                `previous` version (a rug pull, an honest update) is scanned with it, as the
 *                                gateway scans a changed tool with the definition its ledger approved before
 *   --json                       print the figures as JSON instead of the table
 *   --out FILE                   also write the JSON figures to FILE
 *   --verbose                    list the ids of every miss and false alarm
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultAlias } from '../src/exposure/aliases.ts';
import { createPoisoningScanner } from '../src/poisoning/index.ts';
import type { McpToolDefinition } from '../src/risk/index.ts';
import type { PoisoningScanner } from '../src/poisoning/index.ts';
import { loadCorpus, selectSplit, SPLITS, type Split } from './corpus/load.ts';
import { computeMetrics, formatRate, type DetectionMetrics, type ScoredEntry } from './corpus/metrics.ts';
import type { CorpusEntry } from './corpus/types.ts';

type Wiring = 'live' | 'full';
// The upstream id the evaluation pretends every corpus tool comes from; only its alias prefix matters.
const UPSTREAM_ID = 'eval';
const MIN_BENCH_MS = 1000;

class UsageError extends Error {}

function parseOptions(): {
  split: Split | 'all';
  wiring: Wiring;
  json: boolean;
  out?: string;
  verbose: boolean;
} {
  const { values } = parseArgs({
    options: {
      split: { type: 'string', default: 'test' },
      wiring: { type: 'string', default: 'live' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const split = values.split as string;
  if (split !== 'all' && !(SPLITS as readonly string[]).includes(split))
    throw new UsageError(`--split must be one of ${SPLITS.join(', ')}, all (got "${split}")`);
  if (values.wiring !== 'live' && values.wiring !== 'full')
    throw new UsageError(`--wiring must be live or full (got "${values.wiring}")`);
  return {
    split: split as Split | 'all',
    wiring: values.wiring,
    json: values.json,
    ...(values.out === undefined ? {} : { out: values.out }),
    verbose: values.verbose,
  };
}

// What the gateway handed its scanner before issue 17: the advertised definition, whose name is the sanitized
// alias, scanned by one scanner with no other-server names (the gateway now scans the original name with the
// registry's other names, which is the `full` wiring).
function liveDefinition(entry: CorpusEntry): McpToolDefinition {
  return { ...entry.tool, name: defaultAlias(UPSTREAM_ID, entry.tool.name) };
}

// A redefinition (a rug pull's `previous`) is scanned with the definition it replaces, as the gateway scans a
// changed tool with the one its ledger approved before (src/guards/tool-facts.ts), under the same name.
function scanEntry(entry: CorpusEntry, wiring: Wiring, live: PoisoningScanner): ScoredEntry {
  const { previous } = entry;
  const result =
    wiring === 'live'
      ? live.scanTool(liveDefinition(entry), {
          previous: previous === undefined ? undefined : liveDefinition({ ...entry, tool: previous }),
        })
      : createPoisoningScanner({ otherNames: entry.coexistingTools ?? [] }).scanTool(entry.tool, {
          previous,
        });
  return { entry, flagged: !result.clean, patterns: [...new Set(result.matches.map((m) => m.patternId))] };
}

/** Scans per second, by the wall clock and by this process's CPU time (what a loaded machine leaves us). */
interface Throughput {
  readonly wall: number;
  readonly cpu: number;
}

// Repeated passes over at least a second; `fresh` makes the scanner each pass uses.
function timePasses(definitions: readonly McpToolDefinition[], fresh: () => PoisoningScanner): Throughput {
  let scanner = fresh();
  for (const definition of definitions) scanner.scanTool(definition);
  let scanned = 0;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let elapsed = 0;
  while (elapsed < MIN_BENCH_MS) {
    scanner = fresh();
    for (const definition of definitions) scanner.scanTool(definition);
    scanned += definitions.length;
    elapsed = performance.now() - started;
  }
  const cpu = process.cpuUsage(cpuStarted);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { wall: Math.round((scanned / elapsed) * 1000), cpu: Math.round((scanned / cpuMs) * 1000) };
}

/**
 * Tool definitions per second through the live scanner: on first sight (a new scanner per pass, so its
 * short-string memo starts empty and its result cache is off), uncached (one scanner, result cache off, memo
 * warm, as in a running gateway that scans changed definitions) and cached (every definition already seen).
 */
function measureThroughput(entries: readonly CorpusEntry[]): Record<ThroughputKind, Throughput> {
  const definitions = entries.map(liveDefinition);
  const uncached = createPoisoningScanner({ cache: { maxEntries: 0 } });
  const warm = createPoisoningScanner();
  return {
    firstSight: timePasses(definitions, () => createPoisoningScanner({ cache: { maxEntries: 0 } })),
    uncached: timePasses(definitions, () => uncached),
    cached: timePasses(definitions, () => warm),
  };
}

const THROUGHPUT_LABELS = {
  firstSight: 'throughput, first sight',
  uncached: 'throughput, uncached',
  cached: 'throughput, cached',
} as const;
type ThroughputKind = keyof typeof THROUGHPUT_LABELS;

function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n');
}

function render(
  split: string,
  wiring: Wiring,
  m: DetectionMetrics,
  throughput: Record<ThroughputKind, Throughput>,
  verbose: boolean,
): string {
  const lines = [
    `Poisoning scanner on the ${split} split (wiring: ${wiring})`,
    '',
    table([
      ['TPR (poisoned flagged)', formatRate(m.tpr)],
      ['FPR (honest flagged)', formatRate(m.fpr)],
      ['hard-negative FPR', formatRate(m.hardNegativeFpr)],
      ...(Object.keys(THROUGHPUT_LABELS) as ThroughputKind[]).map((kind): [string, string] => [
        THROUGHPUT_LABELS[kind],
        `${throughput[kind].wall} tool definitions/s (${throughput[kind].cpu}/s of CPU time)`,
      ]),
    ]),
    '',
    'Recall per technique family',
    table(Object.entries(m.perTechnique).map(([name, value]) => [name, formatRate(value)])),
    '',
    'False-positive rate per honest kind',
    table(Object.entries(m.perHonestKind).map(([name, value]) => [name, formatRate(value)])),
  ];
  if (verbose) {
    lines.push('', `Misses: ${m.misses.join(' ') || 'none'}`);
    lines.push(
      `False alarms: ${m.falsePositives.map((f) => `${f.id}[${f.patterns.join(',')}]`).join(' ') || 'none'}`,
    );
  }
  return lines.join('\n');
}

function main(): void {
  const options = parseOptions();
  const entries = selectSplit(loadCorpus(), options.split);
  const live = createPoisoningScanner();
  const metrics = computeMetrics(entries.map((entry) => scanEntry(entry, options.wiring, live)));
  const throughput = measureThroughput(entries);
  const report = {
    split: options.split,
    wiring: options.wiring,
    entries: entries.length,
    toolsPerSecond: throughput.uncached.wall,
    throughput,
    ...metrics,
  };
  if (options.out !== undefined) writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    options.json
      ? JSON.stringify(report, null, 2)
      : render(options.split, options.wiring, metrics, throughput, options.verbose),
  );
}

try {
  main();
} catch (error) {
  console.error(`eval:poisoning: ${(error as Error).message}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
