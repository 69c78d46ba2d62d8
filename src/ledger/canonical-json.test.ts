import { describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { canonicalJson, canonicalString, sha256Hex } from './canonical-json.ts';

describe('canonicalJson', () => {
  it.each<[string, unknown, string]>([
    [
      'keys sorted at every depth',
      { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } },
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    ],
    ['array order kept (required is not sorted)', { required: ['b', 'a'] }, '{"required":["b","a"]}'],
    // UTF-16 code-unit order: "B" (0x42) < "a" (0x61) < "é" (0xE9) < "😀" (0xD83D…) < "ﬀ" (0xFB00).
    ['UTF-16 code-unit key order', { ﬀ: 1, '😀': 2, é: 3, a: 4, B: 5 }, '{"B":5,"a":4,"é":3,"😀":2,"ﬀ":1}'],
    ['raw UTF-8, no \\u escapes for non-ASCII', { s: 'Ключ – ключ 😀' }, '{"s":"Ключ – ключ 😀"}'],
    ['undefined properties omitted', { a: undefined, b: 1 }, '{"b":1}'],
    [
      'numbers in shortest form',
      { a: 1.0, b: 1e2, c: -0, d: 0.1, e: 1e21 },
      '{"a":1,"b":100,"c":0,"d":0.1,"e":1e+21}',
    ],
    ['scalars', [true, false, null, 'x'], '[true,false,null,"x"]'],
    ['empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
  ])('%s', (_name, value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('ignores key insertion order', () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(canonicalJson({ y: { a: 1, b: 2 }, x: 1 }));
  });

  it('handles 100 000 levels of nesting without overflowing the stack', () => {
    let value: unknown = 'leaf';
    for (let i = 0; i < 100_000; i += 1) value = [value];
    const text = canonicalJson(value);
    expect(text.length).toBe(200_000 + 6);
    expect(text.startsWith('[[[')).toBe(true);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { a: 1 };
    expect(canonicalJson({ x: shared, y: shared })).toBe('{"x":{"a":1},"y":{"a":1}}');
  });

  it.each<[string, unknown, string]>([
    ['NaN', { a: Number.NaN }, '/a'],
    ['Infinity', [Number.POSITIVE_INFINITY], '/0'],
    ['bigint', { a: 1n }, '/a'],
    ['function', { a: () => 1 }, '/a'],
    ['undefined in an array', [1, undefined], '/1'],
    ['key with a slash in the pointer', { 'a/b': Symbol('x') }, '/a~1b'],
  ])('refuses %s with INVALID_INPUT at its pointer', (_name, value, pointer) => {
    const error = (() => {
      try {
        canonicalJson(value);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isPortcullisError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as { pointer: string }).pointer).toBe(pointer);
  });

  it('refuses a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });
});

describe('canonicalString', () => {
  it.each<[string, string]>([
    ['plain', '"plain"'],
    ['quote " and backslash \\', '"quote \\" and backslash \\\\"'],
    ['\b\t\n\f\r', '"\\b\\t\\n\\f\\r"'],
    ['\u0000\u0001\u000b\u001f', '"\\u0000\\u0001\\u000B\\u001F"'],
    ['\u001b[31m', '"\\u001B[31m"'],
    ['DEL \u007f and U+2028 \u2028 stay raw', '"DEL \u007f and U+2028 \u2028 stay raw"'],
    ['pair 😀 kept', '"pair 😀 kept"'],
    ['lone \ud800 high', '"lone \\uD800 high"'],
    ['lone \udfff low', '"lone \\uDFFF low"'],
    ['reversed \udc00\ud800', '"reversed \\uDC00\\uD800"'],
  ])('%j → %s', (input, expected) => {
    expect(canonicalString(input)).toBe(expected);
  });

  it('keeps distinct strings distinct after UTF-8 encoding (lone surrogates vs U+FFFD)', () => {
    expect(sha256Hex(canonicalString('\ud800'))).not.toBe(sha256Hex(canonicalString('\ufffd')));
  });
});

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ])('%j', (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });
});
