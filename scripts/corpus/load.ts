/** Reads the committed poisoning corpus (eval/poisoning/*.json) and selects a split of it. */
import { readFileSync } from 'node:fs';
import type { CorpusEntry } from './types.ts';

/** Where the corpus lives. */
export const CORPUS_DIR = new URL('../../eval/poisoning/', import.meta.url);
/** The seed the split was drawn with, once; changing it re-deals every entry. */
export const SPLIT_SEED = 20_251_125;
/** The three splits. */
export const SPLITS = ['train', 'dev', 'test'] as const;
/** One split. */
export type Split = (typeof SPLITS)[number];

/** The corpus as committed: every entry, and the ids of each split. */
export interface Corpus {
  readonly entries: readonly CorpusEntry[];
  readonly splits: Readonly<Record<Split, readonly string[]>>;
  readonly seed: number;
}

function readJson(name: string): unknown {
  const text = readFileSync(new URL(name, CORPUS_DIR), 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`eval/poisoning/${name} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function entriesOf(name: string): CorpusEntry[] {
  const value = readJson(name) as { entries?: unknown };
  if (!Array.isArray(value.entries)) throw new Error(`eval/poisoning/${name} has no "entries" array`);
  return value.entries as CorpusEntry[];
}

/** Reads split.json: the seed and the ids of each split. */
export function loadSplit(): Pick<Corpus, 'splits' | 'seed'> {
  const split = readJson('split.json') as Partial<Record<Split, unknown>> & { seed?: unknown };
  const splits = {} as Record<Split, readonly string[]>;
  for (const name of SPLITS) {
    const ids = split[name];
    if (!Array.isArray(ids)) throw new Error(`eval/poisoning/split.json has no "${name}" array`);
    splits[name] = ids as string[];
  }
  return { splits, seed: typeof split.seed === 'number' ? split.seed : Number.NaN };
}

/** Loads poisoned.json, honest.json and split.json. */
export function loadCorpus(): Corpus {
  return { entries: [...entriesOf('poisoned.json'), ...entriesOf('honest.json')], ...loadSplit() };
}

/** The entries of one split, or of the whole corpus for `all`, in corpus order. */
export function selectSplit(corpus: Corpus, name: Split | 'all'): CorpusEntry[] {
  if (name === 'all') return [...corpus.entries];
  const wanted = new Set(corpus.splits[name]);
  return corpus.entries.filter((entry) => wanted.has(entry.id));
}
