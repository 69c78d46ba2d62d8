// The linear model of the scanner (docs/rules/poisoning.md, R-POISON-MODEL): logistic regression over the
// hashed features of features.ts, trained by scripts/train-poisoning.ts on the train and dev splits of
// eval/poisoning/, its threshold chosen by cross-validation over them. The
// weights ship beside the code (model-weights.json) because the pure scanner reads them at import, without I/O.
import weightsJson from './model-weights.json' with { type: 'json' };
import {
  FEATURE_BUCKETS,
  LEXICAL_BUCKETS,
  MIN_NORM_FEATURES,
  symbolicBucket,
  symbolicScale,
  WINDOW_FEATURE,
} from './features.ts';

/** The committed model: integer weights (value × scale), bias, and the threshold chosen by cross-validation. */
export interface ModelWeights {
  readonly buckets: number;
  readonly scale: number;
  readonly bias: number;
  /** Probability at or above which a tool is flagged by the model alone. */
  readonly threshold: number;
  readonly weights: readonly number[];
  /**
   * How a tool's score is read: `max-window`, the highest margin of the whole tool's vector and of each of its
   * windows (every string, every sentence of a description), so one poisoned sentence is not averaged away by
   * a long honest text around it; absent, the whole tool's vector alone.
   */
  readonly combine?: 'max-window';
}

/** A model ready to score. */
export interface LinearModel {
  readonly threshold: number;
  /** The raw weight of one bucket (before the vector's norm or the symbolic scale). */
  weight(bucket: number): number;
  /** Whether a tool is scored by its highest window (ModelWeights.combine). */
  readonly windowed: boolean;
  /** Probability that the tool whose features these are is poisoned. */
  score(features: { readonly buckets: Iterable<number> }): number;
  /** The log-odds of a whole tool's feature vector, before the logistic function. */
  margin(buckets: Iterable<number>): number;
  /**
   * The log-odds of one window: its symbolic features alone (concepts, detectors, rules) and WINDOW_FEATURE;
   * undefined for a window with no symbolic feature.
   */
  windowMargin(buckets: Iterable<number>): number | undefined;
}

/** Builds a model from weights (the committed ones by default). */
export function createLinearModel(raw: ModelWeights = weightsJson as ModelWeights): LinearModel {
  if (raw.buckets !== FEATURE_BUCKETS || raw.weights.length !== FEATURE_BUCKETS)
    throw new Error(`poisoning model: expected ${FEATURE_BUCKETS} weights, got ${raw.weights.length}`);
  const weights = Float64Array.from(raw.weights, (w) => w / raw.scale);
  const margin = (buckets: Iterable<number>): number => {
    let lexical = 0;
    let lexicalSize = 0;
    let symbolic = 0;
    let symbolicSize = 0;
    for (const bucket of buckets) {
      if (bucket < LEXICAL_BUCKETS) {
        lexical += weights[bucket] ?? 0;
        lexicalSize += 1;
      } else {
        symbolic += weights[bucket] ?? 0;
        symbolicSize += 1;
      }
    }
    return (
      raw.bias +
      lexical / Math.sqrt(Math.max(lexicalSize, MIN_NORM_FEATURES)) +
      symbolic * symbolicScale(symbolicSize)
    );
  };
  const windowWeight = weights[symbolicBucket(WINDOW_FEATURE)] as number;
  const windowMargin = (buckets: Iterable<number>): number | undefined => {
    let symbolic = windowWeight;
    let size = 1;
    for (const bucket of buckets)
      if (bucket >= LEXICAL_BUCKETS) {
        symbolic += weights[bucket] ?? 0;
        size += 1;
      }
    return size === 1 ? undefined : raw.bias + symbolic * symbolicScale(size);
  };
  return {
    threshold: raw.threshold,
    windowMargin,
    windowed: raw.combine === 'max-window',
    weight: (bucket) => weights[bucket] ?? 0,
    margin,
    score: (features) => sigmoid(margin(features.buckets)),
  };
}

/** The logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
