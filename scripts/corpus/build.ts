/**
 * Writes the poisoning corpus (eval/poisoning/README.md): assigns ids, checks the entries, splits them once
 * into train/dev/test with a fixed seed, stratified (scripts/corpus/split.ts), and writes poisoned.json, honest.json and split.json.
 * Run: node --import tsx scripts/corpus/build.ts. Deterministic: the same sources give byte-identical files.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { EXTRA_TOOLS } from './honest-extra.ts';
import { HARD_SCRIPTS } from './honest-hard-scripts.ts';
import { HARD_TEXT } from './honest-hard-text.ts';
import { OFFICIAL_CORE } from './honest-official.ts';
import { VENDOR_TOOLS } from './honest-vendors.ts';
import { CORPUS_DIR, loadSplit, SPLIT_SEED } from './load.ts';
import { POISONED_DIRECT } from './poisoned-direct.ts';
import { POISONED_OBFUSCATED } from './poisoned-obfuscated.ts';
import { POISONED_SCHEMA } from './poisoned-schema.ts';
import { dealSplit } from './split.ts';
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
    id: `h-${spec.tool.name.replace(/[^A-Za-z0-9_-]/g, '_')}-${contentHash(spec.tool)}`,
    label: 'honest',
    technique: 'honest',
    variant: spec.variant,
    hardNegative: spec.hard,
    whySuspicious: spec.why,
    source: spec.source,
    ...(spec.coexistingTools === undefined ? {} : { coexistingTools: spec.coexistingTools }),
    tool: spec.tool,
  }));
}

// Characters a reviewer cannot see (inside strings; the layout's own newlines stay): controls, format characters
// (zero-width, bidi, tags), odd spaces, fillers and variation selectors. They are written as \uXXXX escapes so
// the JSON shows them.
const FORMAT_LIKE = /^[\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]$/u;
const ODD_SPACES = new Set([0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800]);

function isInvisible(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x2000 && code <= 0x200a) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xe0100 && code <= 0xe01ef) ||
    ODD_SPACES.has(code) ||
    FORMAT_LIKE.test(String.fromCodePoint(code))
  );
}

function escapeInvisible(json: string): string {
  let out = '';
  for (const ch of json) {
    if (!isInvisible(ch.codePointAt(0) as number)) out += ch;
    else
      for (let i = 0; i < ch.length; i += 1)
        out += `\\u${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const text = escapeInvisible(JSON.stringify(value, null, 2));
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(text, { ...options, parser: 'json', filepath: file }));
}

async function main(): Promise<void> {
  const poisoned = poisonedEntries([...POISONED_DIRECT, ...POISONED_SCHEMA, ...POISONED_OBFUSCATED]);
  const honest = honestEntries([
    ...OFFICIAL_CORE,
    ...VENDOR_TOOLS,
    ...EXTRA_TOOLS,
    ...HARD_TEXT,
    ...HARD_SCRIPTS,
  ]);
  const all = [...poisoned, ...honest];
  const ids = new Set(all.map((entry) => entry.id));
  if (ids.size !== all.length) throw new Error('two corpus entries have the same content (same id)');
  const previous = existsSync(new URL('split.json', CORPUS_DIR)) ? loadSplit().splits : undefined;
  const splits = dealSplit(all, SPLIT_SEED, previous);
  await writeJson(new URL('poisoned.json', CORPUS_DIR).pathname, { entries: poisoned });
  await writeJson(new URL('honest.json', CORPUS_DIR).pathname, { entries: honest });
  await writeJson(new URL('split.json', CORPUS_DIR).pathname, {
    seed: SPLIT_SEED,
    rule: 'stratified by label and technique (honest: hard or plain, and kind); 60/20/20; never tune on test',
    ...splits,
  });
  const hard = honest.filter((entry) => entry.hardNegative === true).length;
  console.log(
    `poisoned ${poisoned.length}, honest ${honest.length} (hard ${hard}); train ${splits.train.length}, dev ${splits.dev.length}, test ${splits.test.length}`,
  );
}

await main();
