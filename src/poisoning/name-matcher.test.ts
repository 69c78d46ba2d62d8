import { describe, expect, it } from 'vitest';
import { createNameMatcher } from './name-matcher.ts';

describe('createNameMatcher', () => {
  const matcher = createNameMatcher(['he', 'she', 'his', 'hers', '', 'create_page']);
  it.each<[string, number, number, boolean]>([
    ['ushers', 0, 6, true],
    ['ushers', 2, 4, true],
    ['ushers', 2, 3, false],
    ['this', 0, 4, true],
    ['hi', 0, 2, false],
    ['xxcreate_pag', 0, 12, false],
    ['call create_page', 5, 16, true],
    ['call create_page', 5, 15, false],
    ['call create_page', 6, 16, false],
  ])('%s [%i, %i) → %s', (text, start, end, expected) => {
    expect(matcher.index(text).containsAny(start, end)).toBe(expected);
  });
  it('ignores empty names', () => {
    expect(matcher.size).toBe(5);
    expect(createNameMatcher(['']).index('anything').containsAny(0, 8)).toBe(false);
  });
  it('agrees with a brute-force search on every window of random texts over a small alphabet', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = (max: number) =>
      Array.from({ length: 1 + Math.floor(random() * max) }, () => 'ab_'[Math.floor(random() * 3)]).join('');
    for (let round = 0; round < 40; round += 1) {
      const names = Array.from({ length: 1 + Math.floor(random() * 6) }, () => word(4));
      const text = word(30);
      const found = createNameMatcher(names).index(text);
      for (let start = 0; start <= text.length; start += 1) {
        for (let end = start; end <= text.length; end += 1) {
          const window = text.slice(start, end);
          const expected = names.some((name) => window.includes(name));
          expect([names, text, start, end, found.containsAny(start, end)]).toEqual([
            names,
            text,
            start,
            end,
            expected,
          ]);
        }
      }
    }
  });
});
