/**
 * Detection metrics of the poisoning scanner over corpus entries: TPR, FPR, hard-negative FPR, recall per
 * technique family, false-positive rate per honest kind, and the entries behind each miss and false alarm.
 */
import type { CorpusEntry } from './types.ts';

/** One entry after the scan: flagged when the scan had at least one finding. */
export interface ScoredEntry {
  readonly entry: CorpusEntry;
  readonly flagged: boolean;
  /** Pattern ids of the findings, deduplicated, in first-seen order. */
  readonly patterns: readonly string[];
}

/** A count of flagged entries out of a total. */
export interface Rate {
  readonly flagged: number;
  readonly total: number;
  /** flagged / total, or null when total is 0. */
  readonly rate: number | null;
}

/** Every figure the evaluation prints. */
export interface DetectionMetrics {
  readonly tpr: Rate;
  readonly fpr: Rate;
  readonly hardNegativeFpr: Rate;
  /** Recall of each poisoned technique family. */
  readonly perTechnique: Readonly<Record<string, Rate>>;
  /** False-positive rate of each honest kind (`variant`), hard negatives and plain tools alike. */
  readonly perHonestKind: Readonly<Record<string, Rate>>;
  readonly misses: readonly string[];
  readonly falsePositives: ReadonlyArray<{ readonly id: string; readonly patterns: readonly string[] }>;
}

function rate(flagged: number, total: number): Rate {
  return { flagged, total, rate: total === 0 ? null : flagged / total };
}

function rateOf(scored: readonly ScoredEntry[]): Rate {
  return rate(scored.filter((s) => s.flagged).length, scored.length);
}

function groupRates(scored: readonly ScoredEntry[], key: (s: ScoredEntry) => string): Record<string, Rate> {
  const groups = new Map<string, ScoredEntry[]>();
  for (const item of scored) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return Object.fromEntries([...groups.keys()].sort().map((name) => [name, rateOf(groups.get(name) ?? [])]));
}

/** Computes the metrics of a scanned split. */
export function computeMetrics(scored: readonly ScoredEntry[]): DetectionMetrics {
  const poisoned = scored.filter((s) => s.entry.label === 'poisoned');
  const honest = scored.filter((s) => s.entry.label === 'honest');
  return {
    tpr: rateOf(poisoned),
    fpr: rateOf(honest),
    hardNegativeFpr: rateOf(honest.filter((s) => s.entry.hardNegative === true)),
    perTechnique: groupRates(poisoned, (s) => s.entry.technique),
    perHonestKind: groupRates(honest, (s) => s.entry.variant),
    misses: poisoned.filter((s) => !s.flagged).map((s) => s.entry.id),
    falsePositives: honest.filter((s) => s.flagged).map((s) => ({ id: s.entry.id, patterns: s.patterns })),
  };
}

/** A rate as "0.573 (47/82)", or "n/a" for an empty group. */
export function formatRate(value: Rate): string {
  return value.rate === null ? 'n/a' : `${value.rate.toFixed(3)} (${value.flagged}/${value.total})`;
}
