/**
 * node --import tsx scripts/train-poisoning.ts: trains the scanner's linear model (docs/rules/poisoning.md,
 * R-POISON-MODEL) on the train and dev splits of eval/poisoning/, chooses its threshold on the out-of-fold
 * scores of a grouped 5-fold cross-validation over the same entries, and writes
 * src/poisoning/model-weights.json. Deterministic (scripts/corpus/model-training.ts): the same corpus gives
 * byte-identical weights. Never reads test.
 *
 *   --check   recompute and exit 1 when the committed weights differ (for CI)
 *   --cv K    print grouped K-fold cross-validation figures over train+dev instead of writing weights
 *   --salt S  with --cv, deal the folds differently (their hash of each group's key is salted with S); a list
 *             (`--salt ,0,1,2`: the committed deal and three others) prints each deal and their mean
 *   --logo G  print leave-one-group-out cross-validation over train+dev instead of writing weights: `batch`
 *             holds out each author batch (the table of scripts/corpus it was written in) whole, `family` each
 *             technique family's poisoned entries (honest ones dealt over the folds); the honest estimate of
 *             fresh phrasings, since every rule was written while reading the entries the k-fold deals
 *   --verbose with --cv or --logo, list the ids of every out-of-fold miss and false alarm
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadCorpus, selectSplit } from './corpus/load.ts';
import { corpusBatches } from './corpus/assemble.ts';
import { computeMetrics, formatRate } from './corpus/metrics.ts';
import {
  crossValidate,
  crossValidateFolds,
  groupFolds,
  weightsJson,
  type HeldOutGroup,
  type OutOfFold,
} from './corpus/model-training.ts';

const WEIGHTS_FILE = new URL('../src/poisoning/model-weights.json', import.meta.url);

function report(
  results: readonly OutOfFold[],
  thresholds: readonly number[],
  verbose: boolean,
  title = `Grouped ${thresholds.length}-fold cross-validation`,
): string {
  const combined = computeMetrics(results.map((r) => ({ entry: r.entry, flagged: r.flagged, patterns: [] })));
  const rules = computeMetrics(results.map((r) => ({ entry: r.entry, flagged: r.byRule, patterns: [] })));
  const rows: Array<[string, string, string]> = [
    ['TPR', formatRate(combined.tpr), formatRate(rules.tpr)],
    ['FPR', formatRate(combined.fpr), formatRate(rules.fpr)],
    ['hard-negative FPR', formatRate(combined.hardNegativeFpr), formatRate(rules.hardNegativeFpr)],
    ...Object.keys(combined.perTechnique).map((name): [string, string, string] => [
      `  ${name}`,
      formatRate(combined.perTechnique[name] as never),
      formatRate(rules.perTechnique[name] as never),
    ]),
    ...Object.keys(combined.perHonestKind).map((name): [string, string, string] => [
      `  FPR ${name}`,
      formatRate(combined.perHonestKind[name] as never),
      formatRate(rules.perHonestKind[name] as never),
    ]),
  ];
  // Honest tools scanned as redefinitions of themselves (model-training.ts, honestUpdate): false alarms on updates.
  const updates = results.filter((r) => r.update !== undefined);
  const updateRate = (flagged: (r: OutOfFold) => boolean): string => {
    const hits = updates.filter(flagged).length;
    return `${(hits / Math.max(updates.length, 1)).toFixed(3)} (${hits}/${updates.length})`;
  };
  rows.push([
    'FPR honest updates',
    updateRate((r) => r.update?.byRule === true || (r.update?.score ?? 0) >= r.threshold),
    updateRate((r) => r.update?.byRule === true),
  ]);
  const width = Math.max(...rows.map(([name]) => name.length));
  const lines = [
    `${title} over train+dev (${results.length} entries, live wiring)`,
    `thresholds per fold: ${thresholds.join(', ')}`,
    '',
    `  ${''.padEnd(width)}  ${'rules + model'.padEnd(20)}  rules alone`,
    ...rows.map(([name, a, b]) => `  ${name.padEnd(width)}  ${a.padEnd(20)}  ${b}`),
  ];
  if (verbose) {
    lines.push('', `Misses: ${combined.misses.join(' ') || 'none'}`);
    lines.push(`False alarms: ${combined.falsePositives.map((f) => f.id).join(' ') || 'none'}`);
    const updateAlarms = updates.filter(
      (r) => r.update?.byRule === true || (r.update?.score ?? 0) >= r.threshold,
    );
    lines.push(`False alarms on honest updates: ${updateAlarms.map((r) => r.entry.id).join(' ') || 'none'}`);
  }
  return lines.join('\n');
}

// One line per deal of the folds (TPR, FPR, hard-negative FPR, weakest family), then their mean.
function deals(entries: Parameters<typeof crossValidate>[0], k: number, salts: readonly string[]): string {
  const rows = salts.map((salt) => {
    const { results } = crossValidate(entries, k, undefined, salt);
    const m = computeMetrics(results.map((r) => ({ entry: r.entry, flagged: r.flagged, patterns: [] })));
    const weakest = Object.entries(m.perTechnique).sort(([, a], [, b]) => (a.rate ?? 0) - (b.rate ?? 0))[0];
    return { salt, tpr: m.tpr, fpr: m.fpr, hn: m.hardNegativeFpr, weakest };
  });
  const mean = (pick: (row: (typeof rows)[number]) => number | null): string =>
    (rows.reduce((sum, row) => sum + (pick(row) ?? 0), 0) / rows.length).toFixed(3);
  return [
    `Grouped ${k}-fold cross-validation over train+dev (${entries.length} entries), ${rows.length} deals`,
    ...rows.map(
      (r) =>
        `  salt ${JSON.stringify(r.salt).padEnd(6)} TPR ${formatRate(r.tpr)}  FPR ${formatRate(r.fpr)}  ` +
        `hard-negative FPR ${formatRate(r.hn)}  weakest ${r.weakest?.[0] ?? '-'} ${r.weakest === undefined ? '' : formatRate(r.weakest[1])}`,
    ),
    `  mean        TPR ${mean((r) => r.tpr.rate)}  FPR ${mean((r) => r.fpr.rate)}  hard-negative FPR ${mean((r) => r.hn.rate)}`,
  ].join('\n');
}

// Leave-one-group-out: the pooled figures, then each held-out group's own (what a model that never saw it did).
function leaveOneGroupOut(
  entries: Parameters<typeof crossValidate>[0],
  by: HeldOutGroup,
  verbose: boolean,
): string {
  const { names, folds } = groupFolds(entries, by, corpusBatches());
  const { results, thresholds } = crossValidateFolds(folds);
  const perGroup = names.map((name, fold) => {
    const m = computeMetrics(
      results
        .filter((r) => r.fold === fold)
        .map((r) => ({ entry: r.entry, flagged: r.flagged, patterns: [] })),
    );
    return `  ${name.padEnd(24)} threshold ${thresholds[fold]}  TPR ${formatRate(m.tpr)}  FPR ${formatRate(m.fpr)}`;
  });
  return [
    report(results, thresholds, verbose, `Leave-one-${by}-out cross-validation (${names.length} folds)`),
    '',
    `Each held-out ${by}`,
    ...perGroup,
  ].join('\n');
}

function main(): void {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      cv: { type: 'string' },
      salt: { type: 'string', default: '' },
      logo: { type: 'string' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const corpus = loadCorpus();
  const entries = [...selectSplit(corpus, 'train'), ...selectSplit(corpus, 'dev')];
  if (values.logo !== undefined) {
    if (values.logo !== 'batch' && values.logo !== 'family')
      throw new Error(`--logo must be batch or family (got "${values.logo}")`);
    console.log(leaveOneGroupOut(entries, values.logo, values.verbose));
    return;
  }
  if (values.cv !== undefined) {
    const k = Number(values.cv);
    if (!Number.isInteger(k) || k < 2)
      throw new Error(`--cv needs an integer of at least 2 (got "${values.cv}")`);
    const salts = values.salt.split(',');
    if (salts.length === 1) {
      const { results, thresholds } = crossValidate(entries, k, undefined, values.salt);
      console.log(report(results, thresholds, values.verbose));
      return;
    }
    console.log(deals(entries, k, salts));
    return;
  }
  const { json, threshold } = weightsJson(entries);
  if (values.check) {
    const same = readFileSync(WEIGHTS_FILE, 'utf8') === json;
    console.log(same ? 'model weights are up to date' : 'model weights differ from a fresh training run');
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(WEIGHTS_FILE, json);
  console.log(
    `trained on ${entries.length} train+dev entries; threshold ${threshold} chosen by cross-validation`,
  );
}

main();
