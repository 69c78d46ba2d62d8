/**
 * The train/dev/test split of the poisoning corpus (eval/poisoning/README.md): stratified, seeded, dealt
 * once; a rebuild keeps every existing assignment and only deals the ids that are new.
 */
import { createRandom } from '../../bench/tool-corpus.ts';
import { SPLITS, type Split } from './load.ts';
import type { CorpusEntry } from './types.ts';

/** The stratum an entry is split within: label and technique; for honest ones, hard or not and the kind. */
export function stratum(
  entry: Pick<CorpusEntry, 'label' | 'technique' | 'hardNegative' | 'variant'>,
): string {
  return entry.label === 'poisoned'
    ? `poisoned/${entry.technique}`
    : `honest/${entry.hardNegative === true ? 'hard' : 'plain'}/${entry.variant}`;
}

/** The share of each split. */
export const SPLIT_SHARES: Readonly<Record<Split, number>> = { train: 0.6, dev: 0.2, test: 0.2 };
// Five slots per cycle: three train, one dev, one test.
const PATTERN: readonly Split[] = ['train', 'train', 'train', 'dev', 'test'];

function shuffled(ids: readonly string[], random: () => number): string[] {
  const out = [...ids];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as string, out[i] as string];
  }
  return out;
}

function byStratum(entries: readonly CorpusEntry[]): Map<string, string[]> {
  const strata = new Map<string, string[]>();
  for (const entry of entries) strata.set(stratum(entry), [...(strata.get(stratum(entry)) ?? []), entry.id]);
  return new Map([...strata.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// The split of a stratum furthest below its share once `kept` entries are placed (ties: train, dev, test).
function neediest(counts: Record<Split, number>): Split {
  const total = SPLITS.reduce((sum, name) => sum + counts[name], 0) + 1;
  let best: Split = 'train';
  let bestDeficit = -Infinity;
  for (const name of SPLITS) {
    const deficit = SPLIT_SHARES[name] * total - counts[name];
    if (deficit > bestDeficit + 1e-9) [best, bestDeficit] = [name, deficit];
  }
  return best;
}

/**
 * Deals entries into train/dev/test. Without a previous split: each stratum is shuffled with the seeded
 * generator, the strata are laid end to end in sorted order and dealt through the 3:1:1 pattern, so every
 * stratum and the whole corpus come out close to 60/20/20. With one: ids it already places keep their split,
 * ids it lacks are dropped, and each new id (shuffled, per stratum) goes to its stratum's neediest split.
 */
export function dealSplit(
  entries: readonly CorpusEntry[],
  seed: number,
  previous?: Readonly<Record<Split, readonly string[]>>,
): Record<Split, string[]> {
  const random = createRandom(seed);
  const result: Record<Split, string[]> = { train: [], dev: [], test: [] };
  const placed = new Map<string, Split>();
  for (const name of SPLITS) for (const id of previous?.[name] ?? []) placed.set(id, name);
  let dealt = 0;
  for (const ids of byStratum(entries).values()) {
    const counts: Record<Split, number> = { train: 0, dev: 0, test: 0 };
    for (const id of ids) {
      const kept = placed.get(id);
      if (kept === undefined) continue;
      result[kept].push(id);
      counts[kept] += 1;
    }
    for (const id of shuffled(
      ids.filter((id) => !placed.has(id)),
      random,
    )) {
      const name = previous === undefined ? (PATTERN[dealt % PATTERN.length] as Split) : neediest(counts);
      dealt += 1;
      result[name].push(id);
      counts[name] += 1;
    }
  }
  for (const name of SPLITS) result[name].sort();
  return result;
}
