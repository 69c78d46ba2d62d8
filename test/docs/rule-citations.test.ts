/**
 * Everything the code cites must be in the repository: no file cites the design document or the reference notes
 * that live outside it, nor a bare decision number such as D13 (the rules are written in docs/rules/), and every
 * `docs/rules/<page>.md#<anchor>` and every rule id (`R-TOOL-5`) that a file cites exists in docs/rules/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = relative(ROOT, fileURLToPath(import.meta.url));
const RULES_DIR = 'docs/rules';

/** Folders and files whose text is searched for citations. */
const SCANNED = [
  'src',
  'test',
  'scripts',
  'bench',
  'conformance',
  'docs',
  'policies',
  'README.md',
  'eslint.config.js',
];
const TEXT_FILE = /\.(?:ts|js|mjs|cjs|md|ya?ml)$/;

/** Each pattern names a document outside the repository, or a decision by a number only that document gives. */
const OUTSIDE_CITATIONS: ReadonlyArray<readonly [string, RegExp]> = [
  ['the reference notes', /reference-rules/i],
  ['the reference notes', /\breference §/i],
  ['the design document', /DESIGN\.md/],
  ['the design document', /\bDESIGN (?:decision|§|\d)/],
  ['a bare decision number', /(?<![\w:!./-])D[0-9]{1,2}(?![\w.])/],
  ['a section of an outside document', /§/],
  [
    'an outside spec document',
    /(?:safe-tool-spec|mcp-server-safety|tool-safety-architecture)(?:\.md)?[\s,)]/,
  ],
];
/** A `§` is fine where it cites a public standard by name on the same line. */
const PUBLIC_STANDARD = /ECMA-262|RFC ?\d+/;

function walk(path: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(join(ROOT, path), { withFileTypes: true });
  } catch {
    if (TEXT_FILE.test(path)) out.push(path);
    return;
  }
  for (const entry of entries) {
    const child = `${path}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(child, out);
    } else if (TEXT_FILE.test(entry.name)) out.push(child);
  }
}

function scannedFiles(): string[] {
  const files: string[] = [];
  for (const path of SCANNED) walk(path, files);
  return files.filter((file) => file !== SELF);
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces as `-`. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

interface RulePages {
  /** page file name → its heading anchors */
  readonly anchors: ReadonlyMap<string, ReadonlySet<string>>;
  /** every rule id given in a heading */
  readonly ids: ReadonlySet<string>;
}

const RULE_ID = /\bR-[A-Z]+-[A-Z0-9]+\b/g;

function rulePages(): RulePages {
  const anchors = new Map<string, Set<string>>();
  const ids = new Set<string>();
  for (const name of readdirSync(join(ROOT, RULES_DIR))) {
    if (!name.endsWith('.md')) continue;
    const set = new Set<string>();
    for (const line of readFileSync(join(ROOT, RULES_DIR, name), 'utf8').split('\n')) {
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      if (heading === null) continue;
      set.add(headingAnchor(heading[1] ?? ''));
      for (const id of (heading[1] ?? '').matchAll(RULE_ID)) ids.add(id[0]);
    }
    anchors.set(name, set);
  }
  return { anchors, ids };
}

interface Citation {
  readonly at: string;
  readonly page: string;
  readonly anchor: string | undefined;
}

/** `docs/rules/x.md#a` anywhere, and relative `x.md#a` / `#a` links inside docs/rules pages. */
function ruleCitations(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  text.split('\n').forEach((line, index) => {
    const at = `${file}:${index + 1}`;
    for (const match of line.matchAll(/docs\/rules\/([\w-]+\.md)(?:#([\w-]+))?/g)) {
      out.push({ at, page: match[1] ?? '', anchor: match[2] });
    }
    if (!file.startsWith(`${RULES_DIR}/`)) return;
    const own = file.slice(RULES_DIR.length + 1);
    for (const match of line.matchAll(/\]\(([\w-]+\.md)?(?:#([\w-]+))?\)/g)) {
      if (match[1] === undefined && match[2] === undefined) continue;
      out.push({ at, page: match[1] ?? own, anchor: match[2] });
    }
  });
  return out;
}

describe('citations', () => {
  const files = scannedFiles();
  const texts = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const pages = rulePages();

  it('finds the files it checks and the rule pages', () => {
    expect(files.some((file) => file.startsWith('src/risk/'))).toBe(true);
    expect(pages.anchors.get('risk-model.md')?.has('r-tool-5-tool-floors')).toBe(true);
  });

  it('cite no document outside the repository', () => {
    const found: string[] = [];
    for (const [file, text] of texts) {
      text.split('\n').forEach((line, index) => {
        for (const [what, pattern] of OUTSIDE_CITATIONS) {
          if (!pattern.test(line)) continue;
          if (pattern.source === '§' && PUBLIC_STANDARD.test(line)) continue;
          found.push(`${file}:${index + 1} cites ${what}: ${line.trim().slice(0, 120)}`);
          break;
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('cite only rule pages and anchors that exist', () => {
    const broken: string[] = [];
    for (const [file, text] of texts) {
      for (const citation of ruleCitations(file, text)) {
        const anchors = pages.anchors.get(citation.page);
        if (anchors === undefined) broken.push(`${citation.at}: no page docs/rules/${citation.page}`);
        else if (citation.anchor !== undefined && !anchors.has(citation.anchor)) {
          broken.push(`${citation.at}: no anchor #${citation.anchor} in docs/rules/${citation.page}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('cite only rule ids that exist', () => {
    const unknown: string[] = [];
    for (const [file, text] of texts) {
      text.split('\n').forEach((line, index) => {
        for (const id of line.matchAll(RULE_ID)) {
          if (!pages.ids.has(id[0])) unknown.push(`${file}:${index + 1}: ${id[0]}`);
        }
      });
    }
    expect(unknown).toEqual([]);
  });
});

describe('headingAnchor', () => {
  it.each([
    ['R-TOOL-5 Tool floors', 'r-tool-5-tool-floors'],
    ['R-POISON-1 HIDDEN_INSTRUCTION', 'r-poison-1-hidden_instruction'],
    ['R-SPEC-14 The Local Pass', 'r-spec-14-the-local-pass'],
    ['R-HOST-1 Host extraction (literal)', 'r-host-1-host-extraction-literal'],
  ])('%s → %s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });
});
