// Golden fixtures of the poisoning scanner's rule layer: test/fixtures/poisoning/*.json (text → every expected
// rule match, in order), and what the full verdict makes of the same texts.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXTRA_PATTERN_IDS, REFERENCE_PATTERN_IDS } from './poisoning-patterns.ts';
import { scanRules, scanText } from './poisoning-scanner.ts';
import { isStrong } from './tool-reading.ts';
import type { TextMatch } from './poisoning-scanner.ts';

interface FixtureCase {
  name: string;
  text: string;
  otherNames?: string[];
  expected: TextMatch[];
}

const DIR = new URL('../../test/fixtures/poisoning/', import.meta.url);
const files = readdirSync(DIR).filter((file) => file.endsWith('.json'));
const fixtures = files.map((file) => ({
  file,
  cases: (JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { cases: FixtureCase[] }).cases,
}));

describe.each(fixtures)('$file', ({ cases }) => {
  it.each(cases)('$name', ({ text, otherNames, expected }) => {
    expect(scanRules(text, otherNames)).toEqual(expected);
    // A strong rule flags on its own; every rule match it reports is among the verdict's findings.
    const result = scanText(text, otherNames);
    if (expected.some((m) => isStrong(m.patternId))) {
      expect(result.clean).toBe(false);
      for (const match of expected) expect(result.matches).toContainEqual(match);
    }
  });
});

describe('fixture coverage', () => {
  const all = fixtures.flatMap(({ cases }) => cases);
  it.each([...REFERENCE_PATTERN_IDS, ...EXTRA_PATTERN_IDS])(
    '%s has a positive and a hard negative',
    (patternId) => {
      const file = fixtures.find(({ cases }) =>
        cases.some((c) => c.expected.some((m) => m.patternId === patternId)),
      );
      expect(file).toBeDefined();
      expect(file?.cases.some((c) => c.expected.every((m) => m.patternId !== patternId))).toBe(true);
    },
  );
  it('has honest descriptions in several scripts that stay clean', () => {
    const honest = all.filter((c) => c.expected.length === 0);
    expect(honest.length).toBeGreaterThanOrEqual(30);
    for (const script of [
      /[\u0400-\u04ff]/,
      /[\u0370-\u03ff]/,
      /[\u3040-\u30ff]/,
      /[\u0600-\u06ff]/,
      /[\u{1f300}-\u{1faff}]/u,
    ]) {
      expect(honest.some((c) => script.test(c.text))).toBe(true);
    }
  });
});
