/**
 * node --import tsx scripts/train-poisoning.ts: trains the scanner's linear model (docs/rules/poisoning.md,
 * "Model") on the train split of eval/poisoning/, chooses its threshold on the dev split, and writes
 * src/poisoning/model-weights.json. Deterministic: weights start at zero, full-batch gradient descent with a
 * fixed iteration count and step, no sampling, so the same corpus gives byte-identical weights. Never reads test.
 *
 *   --check   recompute and exit 1 when the committed weights differ (for CI)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FEATURE_BUCKETS, MIN_NORM_FEATURES } from '../src/poisoning/features.ts';
import { sigmoid } from '../src/poisoning/model.ts';
import { countFindings, toolFeatures } from '../src/poisoning/poisoning-scanner.ts';
import { loadCorpus, selectSplit } from './corpus/load.ts';
import type { CorpusEntry } from './corpus/types.ts';

const WEIGHTS_FILE = new URL('../src/poisoning/model-weights.json', import.meta.url);
const ITERATIONS = 1000;
const STEP = 2;
const MOMENTUM = 0.9;
const L2 = 5e-5;
const SCALE = 1000;
const BIAS_RATE = 0;
/** The dev false-positive rate the threshold may spend on model-only flags, with margin under the 3 % target. */
const MAX_DEV_FPR = 0.02;
const MAX_DEV_HN_FPR = 0.035;

/**
 * Honest carriers (the clean bodies poisoned entries hide payloads in) count this many times: their text also
 * appears under the poisoned label, and the model must learn the payload, not the carrier.
 */
const CARRIER_WEIGHT = 4;

interface Row {
  readonly buckets: Uint32Array;
  readonly norm: number;
  readonly label: 0 | 1;
  readonly weight: number;
  readonly entry: CorpusEntry;
}

function toRow(entry: CorpusEntry): Row {
  const buckets = Uint32Array.from(toolFeatures(entry.tool, entry.coexistingTools ?? []).buckets).sort();
  return {
    buckets,
    norm: 1 / Math.sqrt(Math.max(buckets.length, MIN_NORM_FEATURES)),
    label: entry.label === 'poisoned' ? 1 : 0,
    weight: entry.label === 'honest' && entry.variant === 'carrier' ? CARRIER_WEIGHT : 1,
    entry,
  };
}

function margin(row: Row, weights: Float64Array, bias: number): number {
  let sum = 0;
  for (const bucket of row.buckets) sum += weights[bucket] as number;
  return bias + sum * row.norm;
}

function train(rows: readonly Row[]): { weights: Float64Array; bias: number } {
  const weights = new Float64Array(FEATURE_BUCKETS);
  const velocity = new Float64Array(FEATURE_BUCKETS);
  const gradient = new Float64Array(FEATURE_BUCKETS);
  const total = rows.reduce((sum, r) => sum + r.weight, 0);
  const positives = rows.filter((r) => r.label === 1).reduce((sum, r) => sum + r.weight, 0);
  // Class weights make both labels count equally whatever their shares.
  const classWeight = [total / (2 * (total - positives)), total / (2 * positives)];
  let bias = 0;
  let biasVelocity = 0;
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    gradient.fill(0);
    let biasGradient = 0;
    for (const row of rows) {
      const error =
        (sigmoid(margin(row, weights, bias)) - row.label) * (classWeight[row.label] as number) * row.weight;
      biasGradient += error;
      for (const bucket of row.buckets) gradient[bucket] = (gradient[bucket] as number) + error * row.norm;
    }
    for (let i = 0; i < FEATURE_BUCKETS; i += 1) {
      const g = (gradient[i] as number) / total + L2 * (weights[i] as number);
      velocity[i] = MOMENTUM * (velocity[i] as number) - STEP * g;
      weights[i] = (weights[i] as number) + (velocity[i] as number);
    }
    // The bias stays at zero: a learned bias grew large to offset the boilerplate every tool shares, and then
    // a definition with few features (a bare name, a one-word text) scored as poisoned.
    biasVelocity = MOMENTUM * biasVelocity - (STEP * biasGradient * BIAS_RATE) / total;
    bias += biasVelocity;
  }
  return { weights, bias };
}

function quantize(value: number): number {
  return Math.round(value * SCALE);
}

// The lowest threshold whose combined verdict (a strong finding, or the model) stays within the dev FPR budgets.
function chooseThreshold(dev: readonly Row[], weights: Float64Array, bias: number): number {
  const scored = dev.map((row) => ({
    row,
    p: sigmoid(margin(row, weights, bias)),
    ...countFindings(row.entry.tool, row.entry.coexistingTools ?? []),
  }));
  const honest = scored.filter((s) => s.row.label === 0);
  const hard = honest.filter((s) => s.row.entry.hardNegative === true);
  const candidates = [...new Set(scored.map((s) => Math.round(s.p * 1000) / 1000))].sort((a, b) => a - b);
  for (const t of candidates) {
    const flagged = (s: (typeof scored)[number]): boolean => s.strong > 0 || s.p >= t;
    const fpr = honest.filter(flagged).length / honest.length;
    const hnFpr = hard.filter(flagged).length / hard.length;
    if (fpr <= MAX_DEV_FPR && hnFpr <= MAX_DEV_HN_FPR) return Math.max(t, 0.05);
  }
  return 0.99;
}

function main(): void {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  const corpus = loadCorpus();
  const trainRows = selectSplit(corpus, 'train').map(toRow);
  const devRows = selectSplit(corpus, 'dev').map(toRow);
  // The committed weights must not feed their own training: features do not depend on them, only the threshold.
  const { weights, bias } = train(trainRows);
  const rounded = Float64Array.from(weights, (w) => quantize(w) / SCALE);
  const threshold = chooseThreshold(devRows, rounded, quantize(bias) / SCALE);
  const json = `${JSON.stringify({
    buckets: FEATURE_BUCKETS,
    scale: SCALE,
    bias: quantize(bias) / SCALE,
    threshold,
    trainedOn: { split: 'train', entries: trainRows.length, iterations: ITERATIONS, step: STEP, l2: L2 },
    weights: Array.from(weights, quantize),
  })}\n`;
  if (values.check) {
    const same = readFileSync(WEIGHTS_FILE, 'utf8') === json;
    console.log(same ? 'model weights are up to date' : 'model weights differ from a fresh training run');
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(WEIGHTS_FILE, json);
  console.log(
    `trained on ${trainRows.length} entries; threshold ${threshold} chosen on ${devRows.length} dev entries`,
  );
}

main();
