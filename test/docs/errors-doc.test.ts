/**
 * Keeps docs/errors.md and src/errors/codes.ts in sync (every stable error code is documented): the first
 * column of the code table in docs/errors.md must list every code of ERROR_CODES exactly once, and nothing else.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/errors/index.ts';

const DOC = fileURLToPath(new URL('../../docs/errors.md', import.meta.url));

/** The cells of a Markdown table row, trimmed (`| a | b |` → ['a', 'b']). */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** The first-column values of the table whose header's first cell is `Code`, backticks removed. */
function documentedCodes(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  const header = lines.findIndex((line) => line.trim().startsWith('|') && cells(line)[0] === 'Code');
  if (header < 0) throw new Error('docs/errors.md has no table whose first column is "Code"');
  const separator = lines[header + 1] ?? '';
  if (!/^\s*\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(separator)) {
    throw new Error('the "Code" table in docs/errors.md has no separator row under its header');
  }
  const codes: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.trim().startsWith('|')) break;
    codes.push((cells(line)[0] ?? '').replace(/`/g, ''));
  }
  return codes;
}

describe('docs/errors.md', () => {
  const documented = documentedCodes(readFileSync(DOC, 'utf8'));
  const defined = Object.keys(ERROR_CODES);

  it('lists every code only once', () => {
    const repeated = documented.filter((code, index) => documented.indexOf(code) !== index);
    expect(repeated).toEqual([]);
  });

  it('documents every code of src/errors/codes.ts', () => {
    expect(defined.filter((code) => !documented.includes(code))).toEqual([]);
  });

  it('documents no code that src/errors/codes.ts lacks', () => {
    expect(documented.filter((code) => !defined.includes(code))).toEqual([]);
  });

  it('has exactly the codes of src/errors/codes.ts', () => {
    expect([...documented].sort()).toEqual([...defined].sort());
  });
});
