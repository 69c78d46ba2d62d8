import { describe, expect, it } from 'vitest';
import {
  escapeJsonPointerToken,
  formatJsonPointer,
  parseJsonPointer,
  resolveJsonPointer,
  unescapeJsonPointerToken,
} from './json-pointer.ts';

describe('JSON Pointer tokens', () => {
  it.each<[string, string]>([
    ['plain', 'plain'],
    ['a/b', 'a~1b'],
    ['a~b', 'a~0b'],
    // `~` first, so a literal `~1` stays two characters after a round trip.
    ['~1', '~01'],
    ['/~', '~1~0'],
    ['', ''],
  ])('%j ⇄ %j', (token, escaped) => {
    expect(escapeJsonPointerToken(token)).toBe(escaped);
    expect(unescapeJsonPointerToken(escaped)).toBe(token);
  });

  it.each<[readonly (string | number)[], string]>([
    [[], ''],
    [['a', 0, 'b/c'], '/a/0/b~1c'],
    [[''], '/'],
  ])('formats %j as %j and parses it back', (tokens, pointer) => {
    expect(formatJsonPointer(tokens)).toBe(pointer);
    expect(parseJsonPointer(pointer)).toEqual(tokens.map(String));
  });

  it.each(['a', '/a~', '/a~2'])('refuses %j', (pointer) => {
    expect(parseJsonPointer(pointer)).toBeUndefined();
  });

  it('resolves own properties and array indices only', () => {
    const root = { 'a/b': [10, 20], o: {} };
    expect(resolveJsonPointer(root, ['a/b', '1'])).toBe(20);
    expect(resolveJsonPointer(root, ['a/b', '01'])).toBeUndefined();
    expect(resolveJsonPointer(root, ['o', 'constructor'])).toBeUndefined();
  });
});
