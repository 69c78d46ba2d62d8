import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from './canonical-json.ts';

describe('canonicalJson', () => {
  it.each([
    ['null', null, 'null'],
    ['string with quotes and unicode', 'a"b\\ü\n', '"a\\"b\\\\ü\\n"'],
    ['integer', 42, '42'],
    ['negative zero', -0, '0'],
    ['NaN', Number.NaN, 'null'],
    ['Infinity', Number.POSITIVE_INFINITY, 'null'],
    ['booleans', [true, false], '[true,false]'],
    ['sorted keys', { b: 1, a: 2, C: 3 }, '{"C":3,"a":2,"b":1}'],
    ['sorted nested keys', { z: { y: 1, x: [{ b: 1, a: 2 }] } }, '{"z":{"x":[{"a":2,"b":1}],"y":1}}'],
    ['undefined members dropped', { a: undefined, b: 1 }, '{"b":1}'],
    ['undefined array items as null', [undefined, 1], '[null,1]'],
    ['toJSON honoured', { at: new Date(0) }, '{"at":"1970-01-01T00:00:00.000Z"}'],
    ['UTF-16 key order', { é: 1, z: 2, '\u{1F600}': 3 }, '{"z":2,"é":1,"\u{1F600}":3}'],
    ['empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
  ])('%s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('gives the same text whatever order the keys were added in', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
  });

  it('writes a value nested 100,000 levels deep without recursion (issue 14: no stack overflow)', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) value = i % 2 === 0 ? { b: value, a: null } : [value];
    expect(canonicalJson(value)).toBe('[{"a":null,"b":'.repeat(50_000) + '1' + '}]'.repeat(50_000));
  });

  it('refuses a cycle that closes deep down, and allows a shared object deep down', () => {
    const top: Record<string, unknown> = {};
    let bottom = top;
    for (let i = 0; i < 40; i += 1) bottom = (bottom['next'] = {}) as Record<string, unknown>;
    const shared = { x: 1 };
    bottom['left'] = shared;
    bottom['right'] = shared;
    expect(canonicalJson(top)).toContain('{"left":{"x":1},"right":{"x":1}}');
    bottom['loop'] = top;
    expect(() => canonicalJson(top)).toThrow(/cycle/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
  });

  it.each([
    ['a bigint', { n: 1n }],
    [
      'a cycle',
      (() => {
        const a: Record<string, unknown> = {};
        a['self'] = a;
        return a;
      })(),
    ],
    ['a top-level undefined', undefined],
  ])('refuses %s', (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(TypeError);
  });
});

describe('sha256Hex', () => {
  it('hashes UTF-8 text to lower-case hex', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
