import type { ConceptSentences } from './concepts.ts';

// The features of the linear model (docs/rules/poisoning.md, R-POISON-MODEL): hashed word unigrams and bigrams
// of the normalized text (lexical), plus named symbolic features: one per rule or detector that fired, per
// hidden kind, per decoded encoding, and the concepts of concepts.ts. Shared by the scanner and
// scripts/train-poisoning.ts so both see the same vector.

/** Buckets of the lexical features (a power of two): the first LEXICAL_BUCKETS of the vector. */
export const LEXICAL_BUCKETS = 1 << 15;
const MASK = LEXICAL_BUCKETS - 1;
/** Buckets of the symbolic features (a power of two), after the lexical ones. */
export const SYMBOLIC_BUCKETS = 1 << 12;
const SYMBOLIC_MASK = SYMBOLIC_BUCKETS - 1;
/** Number of weights of the model. */
export const FEATURE_BUCKETS = LEXICAL_BUCKETS + SYMBOLIC_BUCKETS;
/**
 * The lexical part is divided by the square root of its size, but never of less than this many features, so a
 * short definition's few words do not each weigh as much as a whole description.
 */
export const MIN_NORM_FEATURES = 40;
/** The scale of the symbolic features of a tool that has at most MIN_SYMBOLIC_FEATURES of them. */
const SYMBOLIC_SCALE = 1 / Math.sqrt(MIN_NORM_FEATURES);
/**
 * Below this many symbolic features a tool's symbolic part is not divided by its size: a payload's order +
 * private data weighs the same in a one-line tool and in a longer one. Above it, it is divided by the square
 * root of its size, so a long honest rule list, whose sentences meet every concept pair in turn, does not add
 * them all up (cross-validated: TPR +2 points at equal FPR over four deals of the folds).
 */
const MIN_SYMBOLIC_FEATURES = 30;

/** The factor of every symbolic weight of a tool with `size` distinct symbolic features. */
export function symbolicScale(size: number): number {
  return SYMBOLIC_SCALE * Math.sqrt(MIN_SYMBOLIC_FEATURES / Math.max(size, MIN_SYMBOLIC_FEATURES));
}

/** FNV-1a over a string, folded into the lexical bucket range. */
export function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i += 1) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & MASK;
}

/** A sparse binary vector under construction; `names` only when explaining, of `named` buckets when given. */
export interface FeatureSet {
  readonly buckets: Set<number>;
  readonly names?: Map<number, string>;
  readonly named?: ReadonlySet<number>;
}

/**
 * A new empty set; pass `explain` to keep the name of each bucket (the first feature added to it), and `named`
 * to keep only those buckets' names, so no other name string is built.
 */
export function createFeatureSet(explain = false, named?: ReadonlySet<number>): FeatureSet {
  if (!explain) return { buckets: new Set() };
  return named === undefined
    ? { buckets: new Set(), names: new Map() }
    : { buckets: new Set(), names: new Map(), named };
}

// Whether the name of `bucket` is still to be kept.
function wantsName(set: FeatureSet, bucket: number): boolean {
  return (
    set.names !== undefined && (set.named === undefined || set.named.has(bucket)) && !set.names.has(bucket)
  );
}

/**
 * The distinct buckets of one tool in the order they were first added, as a Set would hold them, with a mark
 * per bucket rather than a hash table: reused scan after scan (`clear` between them), never by two at once.
 */
export class BucketUnion {
  readonly buckets: number[] = [];
  private readonly marks = new Uint32Array(FEATURE_BUCKETS);
  private mark = 1;

  /** Adds one bucket unless it is already in. */
  add(bucket: number): void {
    if (this.marks[bucket] === this.mark) return;
    this.marks[bucket] = this.mark;
    this.buckets.push(bucket);
  }

  /** Empties the union for the next tool. */
  clear(): void {
    this.buckets.length = 0;
    this.mark += 1;
    if (this.mark === 0xffff_ffff) {
      this.marks.fill(0);
      this.mark = 1;
    }
  }
}

/** The bucket of a named symbolic feature. */
export function symbolicBucket(feature: string): number {
  return LEXICAL_BUCKETS + (hashFeature(feature) & SYMBOLIC_MASK);
}

/**
 * The feature every window of the model holds (R-POISON-MODEL): a learned offset between a window's score and
 * the whole tool's, so a window is not flagged merely for being short.
 */
export const WINDOW_FEATURE = 'win';

/**
 * The feature of a window that a redefinition adds (R-POISON-REDEFINITION): a learned offset, so a quiet order
 * added to an approved tool weighs more than the same words in a first version.
 */
export const ADDED_FEATURE = 'add';

/** The feature of a URL a redefinition made a value of a schema slot (a default, an enum entry). */
export const ADDED_URL_FEATURE = 'add:url';

/** Adds one named symbolic feature. */
export function addFeature(set: FeatureSet, feature: string): void {
  const bucket = symbolicBucket(feature);
  set.buckets.add(bucket);
  if (wantsName(set, bucket)) set.names?.set(bucket, feature);
}

const TOKEN = /[\p{L}\p{N}]+/gu;
const MAX_WORD = 24;

/** FNV-1a continued from `hash` over `text[from, to)` (unfolded: a signed 32-bit integer). */
export function hashString(hash: number, text: string, from = 0, to = text.length): number {
  let h = hash;
  for (let i = from; i < to; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** The FNV-1a offset basis: the hash of the empty string. */
export const SEED = 0x811c9dc5;
const prefixes = new Map<string, { w: number; b: number }>();

function prefixHashes(prefix: string): { w: number; b: number } {
  let found = prefixes.get(prefix);
  if (found === undefined) {
    found = {
      w: hashString(SEED, `${prefix}w:`),
      b: hashString(SEED, `${prefix}b:`),
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

/**
 * Adds the word 1- and 2-grams of a normalized text (character n-grams were tried and lowered the
 * cross-validated recall), and hands each word to `concepts` when given (`words` false: only to it). Hashes are computed over the text in place (the same FNV-1a as `hashFeature` of
 * `w:word`, `b:first second`), with no substring
 * per feature, to keep the scan fast.
 */
export function addTextFeatures(
  set: FeatureSet,
  text: string,
  prefix = '',
  concepts?: ConceptSentences,
  words = true,
): void {
  const heads = prefixHashes(prefix);
  let previousStart = -1;
  let previousEnd = -1;
  let previousHead = 0;
  let lastEnd = 0;
  const each = (start: number, length: number): boolean => {
    // Explaining, with every wanted name found: nothing later can change the names.
    if (set.named !== undefined && set.names?.size === set.named.size) return false;
    if (concepts !== undefined) {
      concepts.word(text, start, start + length, start > lastEnd && endsSentence(text, lastEnd, start));
      lastEnd = start + length;
      if (!words) return true;
    }
    const end = Math.min(start + length, start + MAX_WORD);
    // One pass over the word: its unigram, its bigram with the word before, and the head of its bigram with the
    // word after (what hashString(heads.b, ...) of it gives).
    const bigramSeed = previousStart >= 0 ? Math.imul(previousHead ^ 0x20, 0x01000193) : 0;
    let unigram = heads.w;
    let head = heads.b;
    let bigram = bigramSeed;
    for (let i = start; i < end; i += 1) {
      const code = text.charCodeAt(i);
      unigram = Math.imul(unigram ^ code, 0x01000193);
      head = Math.imul(head ^ code, 0x01000193);
      bigram = Math.imul(bigram ^ code, 0x01000193);
    }
    const word = put(set, unigram);
    if (wantsName(set, word)) set.names?.set(word, `${prefix}w:${text.slice(start, end)}`);
    if (previousStart >= 0) {
      const pair = put(set, bigram);
      if (wantsName(set, pair))
        set.names?.set(
          pair,
          `${prefix}b:${text.slice(previousStart, previousEnd)} ${text.slice(start, end)}`,
        );
    }
    previousStart = start;
    previousEnd = end;
    previousHead = head;
    return true;
  };
  forEachToken(text, each);
  concepts?.finish();
}

const NON_ASCII = /[\u0080-\uffff]/;

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a);
}

// The runs of letters and digits (TOKEN) of a text, in order, until `each` returns false; in ASCII text, read
// without the regex and without a string per word.
function forEachToken(text: string, each: (start: number, length: number) => boolean): void {
  if (NON_ASCII.test(text)) {
    TOKEN.lastIndex = 0;
    for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text))
      if (!each(match.index, match[0].length)) return;
    return;
  }
  let start = -1;
  for (let i = 0; i < text.length; i += 1) {
    if (isAsciiAlnum(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (!each(start, i - start)) return;
      start = -1;
    }
  }
  if (start >= 0) each(start, text.length - start);
}

/**
 * The sentences of a normalized text as `[start, end)` pairs, split where the gap between two words ends a
 * sentence (as the concepts read them); an empty list when the text holds one sentence or none.
 */
export function sentenceSpans(text: string): number[] {
  const spans: number[] = [];
  let start = -1;
  let lastEnd = 0;
  forEachToken(text, (at, length) => {
    if (start < 0) start = at;
    else if (endsSentence(text, lastEnd, at)) {
      spans.push(start, lastEnd);
      start = at;
    }
    lastEnd = at + length;
    return true;
  });
  if (spans.length === 0) return spans;
  spans.push(start, lastEnd);
  return spans;
}

/** Whether the gap between two words, `text[from, to)`, ends a sentence. */
export function endsSentence(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x21 || code === 0x3f || code === 0x3b || code === 0x0a) return true;
    if ((code === 0x2e || code === 0x3a) && (i + 1 === text.length || text.charCodeAt(i + 1) === 0x20))
      return true;
  }
  return false;
}
