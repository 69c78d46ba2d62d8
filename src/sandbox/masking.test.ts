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

  it('returns a value that holds no secret as it is, and a masked copy of one that does', () => {
    const masker = createMasker(['s3cret']);
    const clean = { a: ['x', { b: 'y' }], n: 1, nothing: null };
    expect(masker.maskDeep(clean)).toBe(clean);
    const deep = { a: ['x', { b: 'has s3cret inside' }], n: 1 };
    const masked = masker.maskDeep(deep);
    expect(masked).not.toBe(deep);
    expect(masked).toEqual({ a: ['x', { b: 'has *** inside' }], n: 1 });
    expect(deep.a[1]).toEqual({ b: 'has s3cret inside' });
    const inKey = { 'key-s3cret': 1 };
    expect(masker.maskDeep(inKey)).toEqual({ 'key-***': 1 });
  });
});
