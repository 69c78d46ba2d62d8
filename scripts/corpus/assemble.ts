/**
 * Assembles the poisoning corpus from the tables of scripts/corpus: gives each entry its content-derived id
 * and deals the split (keeping a previous one). Pure: scripts/corpus/build.ts writes the result, and the
 * corpus test compares it with the committed JSON.
 */
import { createHash } from 'node:crypto';
import { EXTRA_TOOLS } from './honest-extra.ts';
import { HONEST_BATCH3_HARD } from './honest-batch3-hard.ts';
import { HONEST_BATCH3_PERSONA } from './honest-batch3-persona.ts';
import { HONEST_BATCH3_RULES } from './honest-batch3-rules.ts';
import { HONEST_BATCH3_FIRST_VERSIONS, HONEST_BATCH3_UPDATES } from './honest-batch3-updates.ts';
import { HONEST_BATCH5_PUBLISHED } from './honest-batch5-published.ts';
import { HONEST_BATCH5_UPDATES } from './honest-batch5-updates.ts';
import { HARD_FRESH } from './honest-fresh.ts';
import { HARD_MORE } from './honest-hard-more.ts';
import { HARD_SCRIPTS } from './honest-hard-scripts.ts';
import { HARD_THIN } from './honest-thin.ts';
import { HARD_THIN_MORE } from './honest-thin-more.ts';
import { HARD_TEXT } from './honest-hard-text.ts';
import { OFFICIAL_CORE } from './honest-official.ts';
import { PUBLISHED_TOOLS } from './honest-published.ts';
import { VENDOR_TOOLS } from './honest-vendors.ts';
import { SPLIT_SEED, type Split } from './load.ts';
import { POISONED_BATCH3_ORDERS } from './poisoned-batch3-orders.ts';
import { POISONED_BATCH3_PERSONA } from './poisoned-batch3-persona.ts';
import { POISONED_BATCH3_UPDATES } from './poisoned-batch3-updates.ts';
import { POISONED_BATCH5_ORDERS } from './poisoned-batch5-orders.ts';
import { POISONED_BATCH5_PERSONA } from './poisoned-batch5-persona.ts';
import { POISONED_BATCH5_UPDATES } from './poisoned-batch5-updates.ts';
import { CARRIERS, fromCarrier } from './poisoned-carriers.ts';
import { POISONED_DIRECT } from './poisoned-direct.ts';
import { POISONED_FRESH } from './poisoned-fresh.ts';
import { POISONED_MORE } from './poisoned-more.ts';
import { POISONED_OBFUSCATED } from './poisoned-obfuscated.ts';
import { POISONED_PUBLISHED } from './poisoned-published.ts';
import { POISONED_SCHEMA } from './poisoned-schema.ts';
import { POISONED_THIN } from './poisoned-thin.ts';
import { POISONED_THIN_LONG } from './poisoned-thin-long.ts';
import { BATCH4_HONEST, BATCH4_POISONED } from './batch4.ts';
import { dealSplit } from './split.ts';
import { honest as honestSpec } from './types.ts';
import type { CorpusEntry, HonestSpec, PoisonedSpec } from './types.ts';

// Ids come from the content, so reordering the tables never renames an entry (nor moves it between splits).
function contentHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 8);
}

function poisonedEntries(specs: readonly PoisonedSpec[]): CorpusEntry[] {
  return specs.map((spec) => {
    return {
      id: `p-${spec.technique}-${contentHash([spec.previous ?? null, spec.tool])}`,
      label: 'poisoned',
      technique: spec.technique,
      variant: spec.variant,
      surface: spec.surface,
      source: spec.source,
      ...(spec.coexistingTools === undefined ? {} : { coexistingTools: spec.coexistingTools }),
      ...(spec.previous === undefined ? {} : { previous: spec.previous }),
      tool: spec.tool,
    };
  });
}

function honestEntries(specs: readonly HonestSpec[]): CorpusEntry[] {
  return specs.map((spec) => ({
    // An entry without `previous` keeps the id it had before honest entries could carry one.
    id: `h-${spec.tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}-${contentHash(spec.previous === undefined ? spec.tool : [spec.previous, spec.tool])}`,
    label: 'honest',
    technique: 'honest',
    variant: spec.variant,
    hardNegative: spec.hard,
    whySuspicious: spec.why,
    source: spec.source,
    ...(spec.coexistingTools === undefined ? {} : { coexistingTools: spec.coexistingTools }),
    ...(spec.previous === undefined ? {} : { previous: spec.previous }),
    tool: spec.tool,
  }));
}

// The clean carriers are honest entries too: their text then appears under both labels, so a model trained
// on the corpus has to learn the payloads, not the carrier tools they happen to ride on.
const CLEAN_CARRIERS: HonestSpec[] = CARRIERS.map((body) =>
  honestSpec(
    'written for this corpus: the clean body that poisoned entries hide their payloads in',
    'carrier',
    'none: it is the benign carrier without a payload',
    fromCarrier(body),
    { hard: false },
  ),
);

/** The assembled corpus: entries by label and the split. */
export interface AssembledCorpus {
  readonly poisoned: CorpusEntry[];
  readonly honest: CorpusEntry[];
  readonly splits: Record<Split, string[]>;
}

// The tables by author batch: written at one time, by one hand, often while reading the scanner's misses. The
// honest and poisoned tables written together share a name (the published tools are the poisoned ones'
// carriers), so holding out a batch holds out both sides of it.
const POISONED_BATCHES: Readonly<Record<string, readonly PoisonedSpec[]>> = {
  'poisoned-direct': POISONED_DIRECT,
  'poisoned-schema': POISONED_SCHEMA,
  'poisoned-obfuscated': POISONED_OBFUSCATED,
  'poisoned-more': POISONED_MORE,
  fresh: POISONED_FRESH,
  published: POISONED_PUBLISHED,
  thin: [...POISONED_THIN, ...POISONED_THIN_LONG],
  batch3: [...POISONED_BATCH3_UPDATES, ...POISONED_BATCH3_PERSONA, ...POISONED_BATCH3_ORDERS],
  batch4: BATCH4_POISONED,
  batch5: [...POISONED_BATCH5_UPDATES, ...POISONED_BATCH5_PERSONA, ...POISONED_BATCH5_ORDERS],
};
const HONEST_BATCHES: Readonly<Record<string, readonly HonestSpec[]>> = {
  'honest-official': OFFICIAL_CORE,
  'honest-vendors': VENDOR_TOOLS,
  'honest-extra': EXTRA_TOOLS,
  'honest-hard-text': HARD_TEXT,
  'honest-hard-scripts': HARD_SCRIPTS,
  'honest-hard-more': HARD_MORE,
  fresh: HARD_FRESH,
  thin: [...HARD_THIN, ...HARD_THIN_MORE],
  batch3: [
    ...HONEST_BATCH3_UPDATES,
    ...HONEST_BATCH3_PERSONA,
    ...HONEST_BATCH3_HARD,
    ...HONEST_BATCH3_RULES,
    ...HONEST_BATCH3_FIRST_VERSIONS,
  ],
  batch4: BATCH4_HONEST,
  batch5: [...HONEST_BATCH5_PUBLISHED, ...HONEST_BATCH5_UPDATES],
  published: PUBLISHED_TOOLS,
  'honest-carriers': CLEAN_CARRIERS,
};

/** Builds every entry from the tables and deals the split, keeping `previous` assignments when given. */
export function assembleCorpus(previous?: Readonly<Record<Split, readonly string[]>>): AssembledCorpus {
  const poisoned = poisonedEntries(Object.values(POISONED_BATCHES).flat());
  const honest = honestEntries(Object.values(HONEST_BATCHES).flat());
  const all = [...poisoned, ...honest];
  if (new Set(all.map((entry) => entry.id)).size !== all.length)
    throw new Error('two corpus entries have the same content (same id)');
  return { poisoned, honest, splits: dealSplit(all, SPLIT_SEED, previous) };
}

/** The author batch (the table in scripts/corpus it was written in) of every entry, by id. */
export function corpusBatches(): Map<string, string> {
  const batches = new Map<string, string>();
  for (const [name, specs] of Object.entries(POISONED_BATCHES))
    for (const entry of poisonedEntries(specs)) batches.set(entry.id, name);
  for (const [name, specs] of Object.entries(HONEST_BATCHES))
    for (const entry of honestEntries(specs)) batches.set(entry.id, name);
  return batches;
}
