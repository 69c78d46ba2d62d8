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
    expect(matcher.containsAny(text, start, end)).toBe(expected);
  });
  it('ignores empty names', () => {
    expect(matcher.size).toBe(5);
    expect(createNameMatcher(['']).containsAny('anything', 0, 8)).toBe(false);
  });
});
