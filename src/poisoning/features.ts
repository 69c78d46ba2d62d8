// The features of the linear model (docs/rules/poisoning.md, "Model"): hashed word unigrams and bigrams and
// character 4-grams of the normalized text, plus one feature per rule or detector that fired, per hidden kind
// and per decoded encoding. Shared by the scanner and scripts/train-poisoning.ts so both see the same vector.

/** Number of hash buckets (a power of two). */
export const FEATURE_BUCKETS = 1 << 15;
const MASK = FEATURE_BUCKETS - 1;
/**
 * The vector is divided by the square root of its size, but never of less than this many features, so a short
 * definition's few features do not each weigh as much as a whole description.
 */
export const MIN_NORM_FEATURES = 40;
const CHAR_GRAM = 4;
const CHAR_GRAMS = false;

/** FNV-1a over a string, folded into the bucket range. */
export function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i += 1) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & MASK;
}

/** A sparse binary vector under construction; `names` only when explaining. */
export interface FeatureSet {
  readonly buckets: Set<number>;
  readonly names?: Map<number, string>;
}

/** A new empty set; pass `explain` to keep the name of each bucket. */
export function createFeatureSet(explain = false): FeatureSet {
  return explain ? { buckets: new Set(), names: new Map() } : { buckets: new Set() };
}

/** Adds one named feature. */
export function addFeature(set: FeatureSet, feature: string): void {
  const bucket = hashFeature(feature);
  set.buckets.add(bucket);
  if (set.names !== undefined && !set.names.has(bucket)) set.names.set(bucket, feature);
}

const TOKEN = /[\p{L}\p{N}]+/gu;
const MAX_WORD = 24;

function hashString(hash: number, text: string, from = 0, to = text.length): number {
  let h = hash;
  for (let i = from; i < to; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

const SEED = 0x811c9dc5;
const prefixes = new Map<string, { w: number; b: number; c: number }>();

function prefixHashes(prefix: string): { w: number; b: number; c: number } {
  let found = prefixes.get(prefix);
  if (found === undefined) {
    found = {
      w: hashString(SEED, `${prefix}w:`),
      b: hashString(SEED, `${prefix}b:`),
      c: hashString(SEED, `${prefix}c:`),
    };
    prefixes.set(prefix, found);
  }
  return found;
}

function put(set: FeatureSet, hash: number): number {
  const bucket = (hash >>> 0) & MASK;
  set.buckets.add(bucket);
  return bucket;
}

function nameOnce(set: FeatureSet, bucket: number, name: string): void {
  if (set.names !== undefined && !set.names.has(bucket)) set.names.set(bucket, name);
}

/**
 * Adds the word 1- and 2-grams and the character 4-grams of a normalized text. Hashes are computed over the
 * text in place (the same FNV-1a as `hashFeature` of `w:word`, `b:first second`, `c:gram`), with no substring
 * per feature, to keep the scan fast.
 */
export function addTextFeatures(set: FeatureSet, text: string, prefix = ''): void {
  const heads = prefixHashes(prefix);
  let previousStart = -1;
  let previousEnd = -1;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    const start = match.index;
    const end = Math.min(start + match[0].length, start + MAX_WORD);
    const word = put(set, hashString(heads.w, text, start, end));
    if (set.names !== undefined) nameOnce(set, word, `${prefix}w:${text.slice(start, end)}`);
    if (previousStart >= 0) {
      const first = hashString(heads.b, text, previousStart, previousEnd);
      const bigram = hashString(Math.imul(first ^ 0x20, 0x01000193), text, start, end);
      const pair = put(set, bigram);
      if (set.names !== undefined)
        nameOnce(set, pair, `${prefix}b:${text.slice(previousStart, previousEnd)} ${text.slice(start, end)}`);
    }
    previousStart = start;
    previousEnd = end;
  }
  for (let i = 0; CHAR_GRAMS && i + CHAR_GRAM <= text.length; i += 1) {
    const gram = put(set, hashString(heads.c, text, i, i + CHAR_GRAM));
    if (set.names !== undefined) nameOnce(set, gram, `${prefix}c:${text.slice(i, i + CHAR_GRAM)}`);
  }
}
