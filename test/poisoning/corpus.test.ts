// The poisoning corpus (eval/poisoning/README.md) keeps its shape: sizes, fields, unique ids, a split that
// covers every entry once and is stratified, the techniques and hard negatives the issue asks for, escaped
// invisible characters, and JSON that is exactly what the generator in scripts/corpus produces.
// Detection rates are measured by `npm run eval:poisoning`, never asserted here.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectVisibleStrings } from '../../src/poisoning/tool-strings.ts';
import { assembleCorpus } from '../../scripts/corpus/assemble.ts';
import { isInvisible } from '../../scripts/corpus/escape.ts';
import { CORPUS_DIR, loadCorpus, selectSplit, SPLIT_SEED, SPLITS } from '../../scripts/corpus/load.ts';
import { dealSplit, SPLIT_SHARES, stratum } from '../../scripts/corpus/split.ts';
import { POISONED_TECHNIQUES } from '../../scripts/corpus/types.ts';
import type { CorpusEntry } from '../../scripts/corpus/types.ts';

const corpus = loadCorpus();
const poisoned = corpus.entries.filter((e) => e.label === 'poisoned');
const honest = corpus.entries.filter((e) => e.label === 'honest');
const hard = honest.filter((e) => e.hardNegative === true);
const text = (e: CorpusEntry): string =>
  collectVisibleStrings(e.tool)
    .map((s) => s.text)
    .join('\n');
const nonEmpty = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

describe('poisoning corpus', () => {
  it('has at least 300 poisoned, 300 honest and 120 hard-negative definitions', () => {
    expect(poisoned.length).toBeGreaterThanOrEqual(300);
    expect(honest.length).toBeGreaterThanOrEqual(300);
    expect(hard.length).toBeGreaterThanOrEqual(120);
  });

  it('gives every entry the fields of its label and a tool definition', () => {
    for (const e of corpus.entries) {
      const where = `entry ${e.id}`;
      expect(e.id, where).toMatch(/^(p-[a-z-]+|h-[A-Za-z0-9_-]+)-[0-9a-f]{8}$/);
      expect(nonEmpty(e.variant) && nonEmpty(e.source), where).toBe(true);
      expect(nonEmpty(e.tool.name) && nonEmpty(e.tool.description), where).toBe(true);
      expect((e.tool.inputSchema as { type?: unknown }).type, where).toBe('object');
      if (e.label === 'poisoned') {
        expect(POISONED_TECHNIQUES as readonly string[], where).toContain(e.technique);
        expect(nonEmpty(e.surface) && e.source.startsWith('authored for this corpus'), where).toBe(true);
        expect(e.hardNegative === undefined && e.whySuspicious === undefined, where).toBe(true);
        expect(e.previous !== undefined, where).toBe(e.technique === 'rug-pull');
      } else {
        expect(e.label, where).toBe('honest');
        expect(e.technique, where).toBe('honest');
        expect(nonEmpty(e.whySuspicious), where).toBe(true);
        expect(e.hardNegative, where).toBe(e.variant !== 'plain' && e.variant !== 'carrier');
        expect(/^(modelled on|written for this corpus|published by)/.test(e.source), where).toBe(true);
        expect(e.surface, where).toBeUndefined();
        expect(e.previous !== undefined, where).toBe(e.variant === 'honest-update');
      }
    }
  });

  it('keeps rug pulls and honest updates as a first version and a different second one under the same name', () => {
    for (const e of corpus.entries.filter(
      (p) => p.technique === 'rug-pull' || p.variant === 'honest-update',
    )) {
      expect(e.previous?.name, e.id).toBe(e.tool.name);
      expect(JSON.stringify(e.previous), e.id).not.toBe(JSON.stringify(e.tool));
    }
  });

  it('has unique ids', () => {
    expect(new Set(corpus.entries.map((e) => e.id)).size).toBe(corpus.entries.length);
  });

  it('is exactly what scripts/corpus/build.ts generates (no hand edits, no stale JSON)', () => {
    const built = assembleCorpus(corpus.splits);
    expect(poisoned).toEqual(built.poisoned);
    expect(honest).toEqual(built.honest);
    expect(corpus.splits).toEqual(built.splits);
  });

  it('writes every invisible character as a \\u escape in the committed JSON', () => {
    for (const file of ['poisoned.json', 'honest.json']) {
      const raw = readFileSync(new URL(file, CORPUS_DIR), 'utf8');
      const hidden = [...raw].filter((ch) => ch !== '\n' && isInvisible(ch.codePointAt(0) as number));
      expect(
        hidden.map((ch) => (ch.codePointAt(0) as number).toString(16)),
        file,
      ).toEqual([]);
    }
  });
});

describe('poisoning corpus split', () => {
  it('was drawn with the fixed seed and places every id in exactly one split', () => {
    expect(corpus.seed).toBe(SPLIT_SEED);
    const placed = SPLITS.flatMap((name) => [...corpus.splits[name]]);
    expect(placed.length).toBe(new Set(placed).size);
    expect([...placed].sort()).toEqual(corpus.entries.map((e) => e.id).sort());
  });

  it('is close to 60/20/20 overall and for each label', () => {
    for (const group of [corpus.entries, poisoned, honest]) {
      for (const name of SPLITS) {
        const share = group.filter((e) => corpus.splits[name].includes(e.id)).length / group.length;
        expect(Math.abs(share - SPLIT_SHARES[name]), name).toBeLessThan(0.03);
      }
    }
  });

  it('is stratified: every technique and every larger honest kind appears in train, dev and test', () => {
    const strata = new Map<string, CorpusEntry[]>();
    for (const e of corpus.entries) strata.set(stratum(e), [...(strata.get(stratum(e)) ?? []), e]);
    for (const [key, members] of strata) {
      if (members.length < 5) continue;
      for (const name of SPLITS) {
        const count = members.filter((e) => corpus.splits[name].includes(e.id)).length;
        expect(Math.abs(count - members.length * SPLIT_SHARES[name]), `${key} in ${name}`).toBeLessThan(1.5);
      }
    }
    for (const name of ['dev', 'test'] as const) {
      const techniques = new Set(selectSplit(corpus, name).map((e) => e.technique));
      for (const technique of POISONED_TECHNIQUES)
        expect(techniques, `${technique} in ${name}`).toContain(technique);
    }
  });
  it('deals deterministically, and a rebuild with new entries moves no existing one', () => {
    const fresh = dealSplit(corpus.entries, SPLIT_SEED);
    expect(dealSplit(corpus.entries, SPLIT_SEED)).toEqual(fresh);
    const older = corpus.entries.filter((_, index) => index % 7 !== 0);
    const before = dealSplit(older, SPLIT_SEED);
    const after = dealSplit(corpus.entries, SPLIT_SEED, before);
    for (const name of SPLITS) for (const id of before[name]) expect(after[name], id).toContain(id);
    expect(SPLITS.flatMap((name) => after[name]).length).toBe(corpus.entries.length);
  });
});

describe('poisoning corpus coverage', () => {
  it('covers every technique family of the issue with at least 15 entries', () => {
    for (const technique of POISONED_TECHNIQUES)
      expect(poisoned.filter((e) => e.technique === technique).length, technique).toBeGreaterThanOrEqual(15);
  });

  it.each([
    ['Unicode tag characters', /[\u{E0000}-\u{E007F}]/u],
    ['zero-width characters', /[\u200B-\u200D\u2060]/],
    ['bidi controls', /[\u202A-\u202E\u2066-\u2069]/],
    [
      'ANSI/OSC escapes',
      {
        test: (t: string) =>
          /\[|\]/.test(t) && [...t].some((ch) => [0x1b, 0x9b, 0x9d].includes(ch.codePointAt(0) as number)),
      },
    ],
    ['Llama 2 [INST] and <<SYS>>', /\[INST\][\s\S]*<<SYS>>|<<SYS>>/],
    ['Llama 3 headers', /<\|start_header_id\|>/],
    ['ChatML', /<\|im_start\|>/],
    ['### System:', /### System:/],
    ['<IMPORTANT> blocks', /<IMPORTANT>/i],
    ['~/.ssh/id_rsa', /~\/\.ssh\/id_rsa/],
    ['mcp.json', /mcp\.json/],
    ['markdown image URLs', /!\[[^\]]*\]\(https:/],
    ['typosquatted packages', /reqeusts|colourama|lodahs/],
  ])('has poisoned definitions with %s', (_name, pattern) => {
    expect(poisoned.some((e) => pattern.test(text(e)))).toBe(true);
  });

  it.each([
    ['~/.ssh', /~\/\.ssh/],
    ['.env', /\.env\b/],
    ['mcp.json', /mcp\.json/],
    ['"list_tables first"', /list_tables (first|أولًا)/],
    ['IMPORTANT:', /IMPORTANT:/],
    ['ChatML described', /<\|im_start\|>/],
    ['Llama templates described', /\[INST\]/],
    ['quoted attacks', /ignore previous instructions/i],
    ['emoji ZWJ sequences', /\u200D/],
    ['variation selectors', /\uFE0F/],
    ['Arabic', /[\u0600-\u06FF]/],
    ['Hebrew', /[\u0590-\u05FF]/],
    ['CJK', /[\u4E00-\u9FFF]/],
    ['Cyrillic', /[\u0400-\u04FF]/],
  ])('has hard negatives with %s', (_name, pattern) => {
    expect(hard.some((e) => pattern.test(text(e)))).toBe(true);
  });

  it('names a real source server for most honest definitions', () => {
    expect(honest.filter((e) => e.source.startsWith('modelled on')).length).toBeGreaterThanOrEqual(150);
  });
});

describe('poisoning corpus: definitions as real servers publish them', () => {
  const PUBLISHED_DIR = new URL('../../scripts/corpus/published/', import.meta.url);
  const servers = readdirSync(PUBLISHED_DIR)
    .filter((file) => file.endsWith('.json'))
    .map(
      (file) =>
        JSON.parse(readFileSync(new URL(file, PUBLISHED_DIR), 'utf8')) as {
          repo: string;
          commit: string;
          license: string;
          taken: string;
          tools: Array<{ path: string; tool: CorpusEntry['tool'] }>;
        },
    );
  const from = (repo: string) => honest.filter((e) => e.source.startsWith(`published by ${repo} (`));

  it('keeps every published tool as exactly one honest entry, unchanged, with repository, commit and licence', () => {
    expect(servers.flatMap((server) => server.tools).length).toBeGreaterThanOrEqual(250);
    for (const server of servers) {
      expect(server.commit, server.repo).toMatch(/^[0-9a-f]{40}$/);
      expect(nonEmpty(server.license) && nonEmpty(server.taken), server.repo).toBe(true);
      for (const { tool } of server.tools) {
        const same = from(server.repo).filter((e) => JSON.stringify(e.tool) === JSON.stringify(tool));
        expect(same.length, `${server.repo} ${tool.name}`).toBe(1);
      }
    }
  });

  it('plants each of its poisoned payloads in a published tool whose clean version is an honest entry', () => {
    const planted = poisoned.filter((e) => / as modelled on \S+$/.test(e.source));
    expect(planted.length).toBeGreaterThanOrEqual(50);
    for (const e of planted) {
      const [, name, repo] = / planted in (\S+) as modelled on (\S+)$/.exec(e.source) ?? [];
      const clean = from(repo ?? '').find((h) => h.tool.name === name);
      expect(clean, e.id).toBeDefined();
      expect(e.tool.name, e.id).toBe(name);
      expect(JSON.stringify(e.tool), e.id).not.toBe(JSON.stringify(clean?.tool));
      if (e.technique === 'rug-pull') expect(e.previous, e.id).toEqual(clean?.tool);
    }
  });
});
