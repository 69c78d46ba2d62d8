// The linear model of the scanner (docs/rules/poisoning.md, R-POISON-MODEL): logistic regression over the
// hashed features of features.ts, trained by scripts/train-poisoning.ts on the train and dev splits of
// eval/poisoning/, its threshold chosen by cross-validation over them. The
// weights ship beside the code (model-weights.json) because the pure scanner reads them at import, without I/O.
import weightsJson from './model-weights.json' with { type: 'json' };
import { FEATURE_BUCKETS, LEXICAL_BUCKETS, MIN_NORM_FEATURES, symbolicScale } from './features.ts';

/** The committed model: integer weights (value × scale), bias, and the threshold chosen by cross-validation. */
export interface ModelWeights {
  readonly buckets: number;
  readonly scale: number;
  readonly bias: number;
  /** Probability at or above which a tool is flagged by the model alone. */
  readonly threshold: number;
  readonly weights: readonly number[];
}

/** A model ready to score. */
export interface LinearModel {
  readonly threshold: number;
  /** The raw weight of one bucket (before the vector's norm or the symbolic scale). */
  weight(bucket: number): number;
  /** Probability that the tool whose features these are is poisoned. */
  score(features: { readonly buckets: Iterable<number> }): number;
}

/** Builds a model from weights (the committed ones by default). */
export function createLinearModel(raw: ModelWeights = weightsJson as ModelWeights): LinearModel {
  if (raw.buckets !== FEATURE_BUCKETS || raw.weights.length !== FEATURE_BUCKETS)
    throw new Error(`poisoning model: expected ${FEATURE_BUCKETS} weights, got ${raw.weights.length}`);
  const weights = Float64Array.from(raw.weights, (w) => w / raw.scale);
  return {
    threshold: raw.threshold,
    weight: (bucket) => weights[bucket] ?? 0,
    score(features) {
      let lexical = 0;
      let lexicalSize = 0;
      let symbolic = 0;
      let symbolicSize = 0;
      for (const bucket of features.buckets) {
        if (bucket < LEXICAL_BUCKETS) {
          lexical += weights[bucket] ?? 0;
          lexicalSize += 1;
        } else {
          symbolic += weights[bucket] ?? 0;
          symbolicSize += 1;
        }
      }
      return sigmoid(
        raw.bias +
          lexical / Math.sqrt(Math.max(lexicalSize, MIN_NORM_FEATURES)) +
          symbolic * symbolicScale(symbolicSize),
      );
    },
  };
}

/** The logistic function. */
export function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}
