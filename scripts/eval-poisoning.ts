/**
 * npm run eval:poisoning: runs the current poisoning scanner over a split of the labelled corpus
 * (eval/poisoning/README.md) exactly as the live gateway calls it, and prints TPR, FPR, hard-negative FPR,
 * per-family figures and throughput.
 *
 *   --split train|dev|test|all   which split (default test; tune only on train and dev)
 *   --wiring live|full           live (default): today's gateway, one scanner with no other-server names, each
 *                                tool scanned under its sanitized alias; full: the original name and the
 *                                entry's coexistingTools as other-server names
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

// What the gateway hands its scanner: the advertised definition, whose name is the sanitized alias
// (src/exposure/registry.ts), scanned by the one scanner built in src/app/create-gateway.ts.
function liveDefinition(entry: CorpusEntry): McpToolDefinition {
  return { ...entry.tool, name: defaultAlias(UPSTREAM_ID, entry.tool.name) };
}

function scanEntry(entry: CorpusEntry, wiring: Wiring, live: PoisoningScanner): ScoredEntry {
  const result =
    wiring === 'live'
      ? live.scanTool(liveDefinition(entry))
      : createPoisoningScanner({ otherNames: entry.coexistingTools ?? [] }).scanTool(entry.tool);
  return { entry, flagged: !result.clean, patterns: [...new Set(result.matches.map((m) => m.patternId))] };
}

/** Tool definitions per second through the live scanner, over at least a second of repeated passes. */
function measureThroughput(entries: readonly CorpusEntry[], live: PoisoningScanner): number {
  const definitions = entries.map(liveDefinition);
  for (const definition of definitions) live.scanTool(definition);
  let scanned = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_BENCH_MS) {
    for (const definition of definitions) live.scanTool(definition);
    scanned += definitions.length;
    elapsed = performance.now() - started;
  }
  return Math.round((scanned / elapsed) * 1000);
}

function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`).join('\n');
}

function render(
  split: string,
  wiring: Wiring,
  m: DetectionMetrics,
  toolsPerSecond: number,
  verbose: boolean,
): string {
  const lines = [
    `Poisoning scanner on the ${split} split (wiring: ${wiring})`,
    '',
    table([
      ['TPR (poisoned flagged)', formatRate(m.tpr)],
      ['FPR (honest flagged)', formatRate(m.fpr)],
      ['hard-negative FPR', formatRate(m.hardNegativeFpr)],
      ['throughput', `${toolsPerSecond} tool definitions/s`],
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
  const toolsPerSecond = measureThroughput(entries, live);
  const report = {
    split: options.split,
    wiring: options.wiring,
    entries: entries.length,
    toolsPerSecond,
    ...metrics,
  };
  if (options.out !== undefined) writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    options.json
      ? JSON.stringify(report, null, 2)
      : render(options.split, options.wiring, metrics, toolsPerSecond, options.verbose),
  );
}

try {
  main();
} catch (error) {
  console.error(`eval:poisoning: ${(error as Error).message}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
