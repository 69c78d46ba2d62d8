import { describe, expect, it } from 'vitest';
import { createMasker } from './masking.ts';

describe('createMasker', () => {
  it.each([
    [['s3cret'], 'token s3cret here', 'token *** here'],
    [['abc'], 'abc is too short to mask', 'abc is too short to mask'],
    [['abcd', 'abcdefgh'], 'abcdefgh', '***'],
    [['pass', 'password1'], 'password1 pass', '*** ***'],
    [[], 'nothing to mask', 'nothing to mask'],
  ])('%j masks %s', (secrets, text, expected) => {
    expect(createMasker(secrets).mask(text)).toBe(expected);
  });

  it('masks keys and values at every depth and keeps __proto__ as data', () => {
    const input = JSON.parse('{"s3cret": ["a s3cret"], "__proto__": {"polluted": "s3cret"}}') as object;
    const out = createMasker(['s3cret']).maskDeep(input) as Record<string, unknown>;
    expect(out['***']).toEqual(['a ***']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: '***' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
