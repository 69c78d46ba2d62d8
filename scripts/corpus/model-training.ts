/**
 * Training and cross-validation of the poisoning scanner's linear model (docs/rules/poisoning.md,
 * R-POISON-MODEL), shared by scripts/train-poisoning.ts. Deterministic: weights start at zero, full-batch
 * gradient descent with a fixed iteration count and step, folds dealt by a hash of each group's key.
 * Everything here reads only the entries it is handed; the callers hand it train and dev, never test.
 */
import { createHash } from 'node:crypto';
import { defaultAlias } from '../../src/exposure/aliases.ts';
import { FEATURE_BUCKETS, LEXICAL_BUCKETS, MIN_NORM_FEATURES } from '../../src/poisoning/features.ts';
import { symbolicBucket, symbolicScale, WINDOW_FEATURE } from '../../src/poisoning/features.ts';
import { sigmoid, type ModelWeights } from '../../src/poisoning/model.ts';
import { createPoisoningScanner, skeletonOf } from '../../src/poisoning/index.ts';
import { toolWindows } from '../../src/poisoning/poisoning-scanner.ts';
import type { McpToolDefinition } from '../../src/risk/index.ts';
import type { CorpusEntry } from './types.ts';

/** The hyperparameters of one training run. */
export interface TrainingParameters {
  readonly iterations: number;
  readonly step: number;
  readonly momentum: number;
  readonly l2: number;
  /**
   * How much an honest carrier counts (its text also appears under the poisoned label). Half: counting it
   * more taught the model the carrier's words as honest, and lowered cross-validated recall.
   */
  readonly carrierWeight: number;
  /**
   * Whether a tool scores its highest window (every string, every sentence of a description) or its whole
   * vector alone (src/poisoning/model.ts, `combine`). With windows, training is multiple-instance: each step
   * moves the weights of the window that scored highest, so an honest tool's every window is pushed down and a
   * poisoned tool's strongest one up.
   */
  readonly windows: boolean;
  /**
   * Whether each honest entry is also trained as an honest redefinition (`honestUpdate`): the corpus's
   * redefinitions are all rug pulls, so without these the "added in a redefinition" feature would learn that
   * any update is poisoned.
   */
  readonly honestUpdates: boolean;
  /**
   * Whether a poisoned entry with an honest twin (its `previous`, or an honest entry of the training set with
   * the same tool name: the carrier it was planted in) is trained with window labels read from the twin: only
   * the windows the twin does not hold may score it as poisoned. Off: leave-one-batch-out read TPR 0.654 with it
   * and 0.669 without, at the same false alarms (docs/rules/poisoning.md, R-POISON-FIGURES).
   */
  readonly twins: boolean;
  /** How much each window a poisoned entry shares with its twin counts as an honest window (0: not trained). */
  readonly sharedWeight: number;
}

/** The parameters the committed weights are trained with. */
export const TRAINING: TrainingParameters = {
  iterations: 1000,
  step: 2,
  momentum: 0.9,
  l2: 5e-5,
  carrierWeight: 0.5,
  windows: true,
  honestUpdates: true,
  twins: false,
  sharedWeight: 0.5,
};

/** Weights are stored as integers: value × SCALE. */
export const SCALE = 1000;

/**
 * The false-positive budgets the threshold may spend, with more than half the margin under the 3 % and
 * 5 % targets: held-out text is read by rules written on train and dev, so it false-alarms more than the folds
 * do (the test split read 0.032 against 0.015 here). 0.013 since the strong rules catch more on their own: over
 * four deals it keeps the out-of-fold FPR and hard-negative FPR below the 0.015 budget's before them.
 */
export const MAX_FPR = 0.013;
export const MAX_HN_FPR = 0.025;
const MIN_THRESHOLD = 0.05;
const NEVER = 1.01;

// The upstream id the evaluation pretends every corpus tool comes from (scripts/eval-poisoning.ts): the model
// is trained on what the live gateway hands its scanner, the sanitized alias with no other-server names.
const UPSTREAM_ID = 'eval';

/** What the gateway hands its scanner for a corpus entry (src/exposure/registry.ts). */
export function liveDefinition(entry: CorpusEntry): McpToolDefinition {
  return liveTool(entry.tool);
}

function liveTool(tool: McpToolDefinition): McpToolDefinition {
  return { ...tool, name: defaultAlias(UPSTREAM_ID, tool.name) };
}

/**
 * The approved definition the gateway hands its scanner with a redefinition (src/guards/tool-facts.ts): the
 * entry's `previous`, where the corpus has one (rug pulls and honest updates), under the same alias.
 */
export function livePrevious(entry: CorpusEntry): McpToolDefinition | undefined {
  return entry.previous === undefined ? undefined : liveTool(entry.previous);
}

/**
 * An honest redefinition made from an honest tool, for training and for measuring false alarms on updates:
 * the previous version is the tool without the last sentence of its description and without its last
 * parameter, so the current one adds an honest sentence and parameter. Undefined when it has neither to drop.
 */
export function honestUpdate(tool: McpToolDefinition): McpToolDefinition | undefined {
  let changed = false;
  const previous: Record<string, unknown> = { ...tool };
  const description = typeof tool.description === 'string' ? tool.description.trimEnd() : '';
  const cut = description.slice(0, -1).search(/[.!?]\s+[^.!?]*$/);
  if (cut > 0) {
    previous['description'] = description.slice(0, cut + 1);
    changed = true;
  }
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: unknown } | undefined;
  const keys = schema?.properties === undefined ? [] : Object.keys(schema.properties);
  if (keys.length >= 2) {
    const last = keys[keys.length - 1] as string;
    const properties = { ...schema?.properties };
    delete properties[last];
    const required = Array.isArray(schema?.required)
      ? { required: (schema.required as unknown[]).filter((key) => key !== last) }
      : {};
    previous['inputSchema'] = { ...schema, properties, ...required };
    changed = true;
  }
  return changed ? (previous as unknown as McpToolDefinition) : undefined;
}

/** One feature vector as the trainer sees it: its sorted buckets, lexical ones first, and their scales. */
export interface Vector {
  readonly buckets: Uint32Array;
  /** How many of `buckets` are lexical: those are multiplied by `norm`, the rest by `symbolicNorm`. */
  readonly lexical: number;
  readonly norm: number;
  readonly symbolicNorm: number;
}

/** One entry as the trainer sees it: its whole vector, its windows (none unless trained with them), label, weight. */
export interface Row extends Vector {
  readonly windows: readonly Vector[];
  /** Windows known to be honest (those a poisoned entry shares with its twin), each trained as honest. */
  readonly honestWindows: readonly Vector[];
  readonly label: 0 | 1;
  readonly weight: number;
  readonly entry: CorpusEntry;
}

function toVector(set: Iterable<number>): Vector {
  const buckets = Uint32Array.from(set).sort();
  let lexical = 0;
  while (lexical < buckets.length && (buckets[lexical] as number) < LEXICAL_BUCKETS) lexical += 1;
  return {
    buckets,
    lexical,
    norm: 1 / Math.sqrt(Math.max(lexical, MIN_NORM_FEATURES)),
    symbolicNorm: symbolicScale(buckets.length - lexical),
  };
}

// A window as the model scores it (src/poisoning/model.ts, windowMargin): its symbolic features and the window
// feature, all at the symbolic scale; none for a window with no symbolic feature.
function toWindowVector(set: ReadonlySet<number>): Vector[] {
  const symbolic = [...set].filter((bucket) => bucket >= LEXICAL_BUCKETS);
  if (symbolic.length === 0) return [];
  const buckets = Uint32Array.from([...symbolic, symbolicBucket(WINDOW_FEATURE)]).sort();
  return [{ buckets, lexical: 0, norm: 0, symbolicNorm: symbolicScale(buckets.length) }];
}

/**
 * The honest twin of a poisoned entry among `pool` (the entries a model may be trained on): its own `previous`,
 * else the first honest entry of the pool with the same tool name (the carrier it was planted in).
 */
export function twinOf(entry: CorpusEntry, pool: ReadonlyMap<string, CorpusEntry>): CorpusEntry | undefined {
  if (entry.label !== 'poisoned') return undefined;
  if (entry.previous !== undefined) return entry;
  return pool.get(entry.tool.name);
}

/** The honest entries of `entries` by tool name, the first of each name (twinOf's pool). */
export function honestByName(entries: readonly CorpusEntry[]): Map<string, CorpusEntry> {
  const byName = new Map<string, CorpusEntry>();
  for (const entry of entries)
    if (entry.label === 'honest' && !byName.has(entry.tool.name)) byName.set(entry.tool.name, entry);
  return byName;
}

/** The training row of an entry, from its live definition; `twin` as twinOf gives it (R-POISON-MODEL). */
export function toRow(
  entry: CorpusEntry,
  parameters: TrainingParameters = TRAINING,
  twin?: CorpusEntry,
): Row {
  // An entry's own earlier version first (rug pulls, honest updates); else an honest tool's made-up update.
  const update =
    parameters.honestUpdates && entry.label === 'honest' && entry.previous === undefined
      ? honestUpdate(entry.tool)
      : undefined;
  const previous = update === undefined ? livePrevious(entry) : liveTool(update);
  const twinTool =
    !parameters.twins || !parameters.windows || twin === undefined
      ? undefined
      : twin === entry
        ? livePrevious(entry)
        : liveDefinition(twin);
  const { whole, windows, shared } = toolWindows(liveDefinition(entry), [], previous, twinTool);
  const vectors = windows.map(toWindowVector);
  // Only the windows the twin lacks may carry the label; none lacking (a payload outside every window), all may.
  const own = shared === undefined ? vectors : vectors.filter((_, i) => shared[i] !== true);
  const payload = own.flat().length > 0 ? own : vectors;
  return {
    ...toVector(whole.buckets),
    windows: parameters.windows ? payload.flat() : [],
    honestWindows:
      shared === undefined || parameters.sharedWeight === 0 || payload === vectors
        ? []
        : vectors.filter((_, i) => shared[i] === true).flat(),
    label: entry.label === 'poisoned' ? 1 : 0,
    weight: entry.label === 'honest' && entry.variant === 'carrier' ? parameters.carrierWeight : 1,
    entry,
  };
}

function scaleOf(vector: Vector, index: number): number {
  return index < vector.lexical ? vector.norm : vector.symbolicNorm;
}

function marginOf(vector: Vector, weights: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < vector.buckets.length; i += 1)
    sum += (weights[vector.buckets[i] as number] as number) * scaleOf(vector, i);
  return sum;
}

// The vector a row scores by: its whole vector, or the window of higher margin (the first among equals).
function scoringVector(row: Row, weights: Float64Array): { vector: Vector; margin: number } {
  let best: Vector = row;
  let margin = marginOf(row, weights);
  for (const window of row.windows) {
    const m = marginOf(window, weights);
    if (m > margin) [best, margin] = [window, m];
  }
  return { vector: best, margin };
}

/**
 * Logistic regression with class weights (both labels count equally), L2 and momentum. No bias: a learned
 * bias grew large to offset the boilerplate every tool shares, and then a definition with few features (a
 * bare name, a one-word text) scored as poisoned. Returns weights already rounded to the stored precision.
 */
export function train(rows: readonly Row[], parameters: TrainingParameters = TRAINING): Float64Array {
  const weights = new Float64Array(FEATURE_BUCKETS);
  const velocity = new Float64Array(FEATURE_BUCKETS);
  const gradient = new Float64Array(FEATURE_BUCKETS);
  const total = rows.reduce((sum, r) => sum + r.weight, 0);
  const positives = rows.filter((r) => r.label === 1).reduce((sum, r) => sum + r.weight, 0);
  const classWeight = [total / (2 * (total - positives)), total / (2 * positives)];
  for (let iteration = 0; iteration < parameters.iterations; iteration += 1) {
    gradient.fill(0);
    for (const row of rows) {
      const { vector, margin } = scoringVector(row, weights);
      const error = (sigmoid(margin) - row.label) * (classWeight[row.label] as number) * row.weight;
      for (let i = 0; i < vector.buckets.length; i += 1) {
        const bucket = vector.buckets[i] as number;
        gradient[bucket] = (gradient[bucket] as number) + error * scaleOf(vector, i);
      }
      const honestError = (classWeight[0] as number) * row.weight * parameters.sharedWeight;
      for (const window of row.honestWindows) {
        const e = sigmoid(marginOf(window, weights)) * honestError;
        for (let i = 0; i < window.buckets.length; i += 1) {
          const bucket = window.buckets[i] as number;
          gradient[bucket] = (gradient[bucket] as number) + e * scaleOf(window, i);
        }
      }
    }
    for (let i = 0; i < FEATURE_BUCKETS; i += 1) {
      const g = (gradient[i] as number) / total + parameters.l2 * (weights[i] as number);
      velocity[i] = parameters.momentum * (velocity[i] as number) - parameters.step * g;
      weights[i] = (weights[i] as number) + (velocity[i] as number);
    }
  }
  return Float64Array.from(weights, (w) => Math.round(w * SCALE) / SCALE);
}

/** Weights in the shape the scanner loads; `threshold` is the model-only flag level. */
export function toModelWeights(
  weights: Float64Array,
  threshold: number,
  parameters: TrainingParameters = TRAINING,
): ModelWeights {
  return {
    buckets: FEATURE_BUCKETS,
    scale: SCALE,
    bias: 0,
    threshold,
    ...(parameters.windows ? { combine: 'max-window' as const } : {}),
    weights: Array.from(weights, (w) => Math.round(w * SCALE)),
  };
}

/** One entry scanned by a fold's model: flagged by a rule alone, and the model's score. */
export interface Scored {
  readonly entry: CorpusEntry;
  readonly byRule: boolean;
  readonly score: number;
  /** An honest entry scanned as its `honestUpdate` (not part of the corpus figures): rule verdict and score. */
  readonly update?: { readonly byRule: boolean; readonly score: number };
}

/** Scans entries in the live wiring with the given weights; the model never flags on its own here. */
export function scoreEntries(
  entries: readonly CorpusEntry[],
  weights: Float64Array,
  parameters: TrainingParameters = TRAINING,
): Scored[] {
  const scanner = createPoisoningScanner({
    model: toModelWeights(weights, NEVER, parameters),
    cache: { maxEntries: 0 },
  });
  return entries.map((entry) => {
    const result = scanner.scanTool(liveDefinition(entry), { previous: livePrevious(entry) });
    const scored = { entry, byRule: !result.clean, score: result.score ?? 0 };
    const update = entry.label === 'honest' ? honestUpdate(entry.tool) : undefined;
    if (update === undefined) return scored;
    const updated = scanner.scanTool(liveDefinition(entry), { previous: liveTool(update) });
    return { ...scored, update: { byRule: !updated.clean, score: updated.score ?? 0 } };
  });
}

/**
 * The lowest threshold at which the combined verdict (a rule, or the model) stays within the FPR budgets on
 * the scored entries, rounded to three decimals and never under 0.05.
 */
export function chooseThreshold(scored: readonly Scored[]): number {
  const honest = scored.filter((s) => s.entry.label === 'honest');
  const hard = honest.filter((s) => s.entry.hardNegative === true);
  const candidates = [...new Set(scored.map((s) => Math.ceil(s.score * 1000) / 1000))].sort((a, b) => a - b);
  for (const t of candidates) {
    const flagged = (s: Scored): boolean => s.byRule || s.score >= t;
    const fpr = honest.filter(flagged).length / Math.max(honest.length, 1);
    const hnFpr = hard.filter(flagged).length / Math.max(hard.length, 1);
    if (fpr <= MAX_FPR && hnFpr <= MAX_HN_FPR) return Math.max(t, MIN_THRESHOLD);
  }
  return 0.99;
}

/**
 * The group an entry is kept with in cross-validation: its tool name read as a person reads it (look-alike
 * letters mapped, case and separators dropped). Poisoned entries built on one carrier tool and the clean
 * carrier itself, and the versions of one real tool, then fall in the same fold.
 */
export function groupKey(entry: CorpusEntry): string {
  return skeletonOf(entry.tool.name)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Deals entries into `k` folds by group: groups in hash order, each to the fold with fewest entries so far. */
export function dealFolds(entries: readonly CorpusEntry[], k: number, salt = ''): CorpusEntry[][] {
  const groups = new Map<string, CorpusEntry[]>();
  for (const entry of entries) {
    const key = groupKey(entry);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const order = [...groups.keys()]
    .map((key) => ({ key, hash: createHash('sha256').update(`${salt}${key}`).digest('hex') }))
    .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  const folds: CorpusEntry[][] = Array.from({ length: k }, () => []);
  for (const { key } of order) {
    let smallest = 0;
    for (let i = 1; i < k; i += 1)
      if ((folds[i] as CorpusEntry[]).length < (folds[smallest] as CorpusEntry[]).length) smallest = i;
    (folds[smallest] as CorpusEntry[]).push(...(groups.get(key) ?? []));
  }
  return folds;
}

/** The out-of-fold result of one entry: its score, rule verdict, fold, and the threshold applied to it. */
export interface OutOfFold extends Scored {
  readonly fold: number;
  readonly threshold: number;
  readonly flagged: boolean;
}

/**
 * Grouped k-fold cross-validation. Each fold is scored by a model trained on the other folds. The threshold
 * applied to fold i is chosen on the out-of-fold scores of the other folds, so no entry's verdict uses a
 * threshold picked with its own score (those scores came from models that did see fold i: a small optimism).
 */
export function crossValidate(
  entries: readonly CorpusEntry[],
  k: number,
  parameters: TrainingParameters = TRAINING,
  salt = '',
): { results: OutOfFold[]; thresholds: number[]; pooledThreshold: number } {
  return crossValidateFolds(dealFolds(entries, k, salt), parameters);
}

/** Cross-validation over folds already dealt (each scored by a model trained on all the others). */
export function crossValidateFolds(
  folds: readonly (readonly CorpusEntry[])[],
  parameters: TrainingParameters = TRAINING,
): { results: OutOfFold[]; thresholds: number[]; pooledThreshold: number } {
  const rows = new Map<string, Row>();
  // A row is made once per entry and twin: a twin in the held-out fold is no twin there (no label of its text
  // is trained on while it is scored).
  const rowOf = (entry: CorpusEntry, twin: CorpusEntry | undefined): Row => {
    const key = `${entry.id} ${twin?.id ?? ''}`;
    let row = rows.get(key);
    if (row === undefined) {
      row = toRow(entry, parameters, twin);
      rows.set(key, row);
    }
    return row;
  };
  const scoredFolds = folds.map((fold, i) => {
    const training = folds.filter((_, j) => j !== i).flat();
    const pool = honestByName(training);
    const trainingRows = training.map((entry) => rowOf(entry, twinOf(entry, pool)));
    return scoreEntries(fold, train(trainingRows, parameters), parameters);
  });
  const thresholds = scoredFolds.map((_, i) =>
    chooseThreshold(scoredFolds.filter((__, j) => j !== i).flat()),
  );
  const results = scoredFolds.flatMap((scored, fold) => {
    const threshold = thresholds[fold] as number;
    return scored.map((s) => ({ ...s, fold, threshold, flagged: s.byRule || s.score >= threshold }));
  });
  return { results, thresholds, pooledThreshold: chooseThreshold(scoredFolds.flat()) };
}

/** What a leave-one-group-out cross-validation holds out whole. */
export type HeldOutGroup = 'batch' | 'family';

/**
 * Folds for leave-one-group-out cross-validation. `batch`: one fold per author batch (`batchOf`, the table an
 * entry was written in), so every phrasing of a batch is read by a model that never saw that batch, as the
 * test split's fresh text is. `family`: one fold per technique family, holding all its poisoned entries, with
 * the honest entries dealt over the folds by group as in `dealFolds`: recall of a family no model saw.
 */
export function groupFolds(
  entries: readonly CorpusEntry[],
  by: HeldOutGroup,
  batchOf: ReadonlyMap<string, string>,
): { names: string[]; folds: CorpusEntry[][] } {
  if (by === 'batch') {
    const folds = new Map<string, CorpusEntry[]>();
    for (const entry of entries) {
      const name = batchOf.get(entry.id);
      if (name === undefined) throw new Error(`corpus entry ${entry.id} is in no batch`);
      folds.set(name, [...(folds.get(name) ?? []), entry]);
    }
    return { names: [...folds.keys()], folds: [...folds.values()] };
  }
  const poisoned = entries.filter((entry) => entry.label === 'poisoned');
  const names = [...new Set(poisoned.map((entry) => entry.technique))].sort();
  const honest = dealFolds(
    entries.filter((entry) => entry.label === 'honest'),
    names.length,
  );
  const folds = names.map((name, i) => [
    ...poisoned.filter((entry) => entry.technique === name),
    ...(honest[i] as CorpusEntry[]),
  ]);
  return { names, folds };
}

/** Folds of the cross-validation that chooses the committed threshold. */
export const THRESHOLD_FOLDS = 5;

/**
 * The committed model-weights.json, byte for byte: weights trained on `entries` (train and dev), threshold
 * from their grouped cross-validation.
 */
export function weightsJson(entries: readonly CorpusEntry[]): { json: string; threshold: number } {
  const { pooledThreshold } = crossValidate(entries, THRESHOLD_FOLDS);
  const pool = honestByName(entries);
  const weights = train(entries.map((entry) => toRow(entry, TRAINING, twinOf(entry, pool))));
  const json = `${JSON.stringify({
    buckets: FEATURE_BUCKETS,
    scale: SCALE,
    bias: 0,
    threshold: pooledThreshold,
    ...(TRAINING.windows ? { combine: 'max-window' } : {}),
    trainedOn: {
      splits: ['train', 'dev'],
      entries: entries.length,
      thresholdFrom: `grouped ${THRESHOLD_FOLDS}-fold cross-validation`,
      ...TRAINING,
    },
    weights: Array.from(weights, (w) => Math.round(w * SCALE)),
  })}\n`;
  return { json, threshold: pooledThreshold };
}
