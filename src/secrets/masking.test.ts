import { describe, expect, it } from 'vitest';
import { createMasker } from './masking.ts';

/** An object nested `depth` levels deep with `leaf` at the bottom, built without recursion. */
function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = { a: value };
  return value;
}

describe('createMasker', () => {
  it('walks values nested 100,000 levels deep without recursion (issue 14: no stack overflow)', () => {
    const masker = createMasker(['s3cret']);
    const clean = nested(100_000, 'plain');
    expect(masker.maskDeep(clean)).toBe(clean);
    let out = masker.maskDeep(nested(100_000, 'a s3cret here'));
    for (let i = 0; i < 100_000; i += 1) out = (out as { a: unknown }).a;
    expect(out).toBe('a *** here');
  });

  it('masks a cyclic value without looping forever', () => {
    const cyclic: Record<string, unknown> = { note: 's3cret' };
    cyclic['self'] = cyclic;
    const out = createMasker(['s3cret']).maskDeep(cyclic);
    expect(out['note']).toBe('***');
    expect(out['self']).toBe(out);
  });

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
