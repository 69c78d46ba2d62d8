import { describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { canonicalJson, canonicalString, sha256Hex } from './canonical-json.ts';
import type { CanonicalProfile } from './canonical-json.ts';

const PROFILES: readonly CanonicalProfile[] = ['stringify', 'strict'];

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (caught) {
    return caught;
  }
  return undefined;
}

// Stored audit chains and ledger fingerprints hash these bytes: the expected texts and digests below were written
// by the two serializers this module replaced, and must never change.
describe('golden bytes per profile', () => {
  it('stringify: an audit-shaped record', () => {
    const record = {
      id: '018f0000-0000-7000-8000-000000000000',
      at: '2026-01-01T00:00:00.000Z',
      tool: 'fs__read',
      args: { path: '/tmp/\u001fx', n: 1.5, list: [true, null, 'é😀'] },
      decision: 'allow',
      risk: { level: 'L3' },
    };
    const text = canonicalJson(record, 'stringify');
    expect(text).toBe(
      '{"args":{"list":[true,null,"é😀"],"n":1.5,"path":"/tmp/\\u001fx"},"at":"2026-01-01T00:00:00.000Z",' +
        '"decision":"allow","id":"018f0000-0000-7000-8000-000000000000","risk":{"level":"L3"},"tool":"fs__read"}',
    );
    expect(sha256Hex(text)).toBe('673f8d1ae15571b5bed1866705d9ea40c6f7ab57ad00957cac95872bfc2776fb');
  });

  it('strict: a tool definition', () => {
    const tool = {
      name: 'read_file',
      description: 'Reads\u0007 a file \ud800',
      inputSchema: {
        type: 'object',
        properties: { 'a/b': { type: 'string', enum: ['\u001f'] } },
        required: ['a/b'],
      },
      annotations: { readOnlyHint: true },
    };
    const text = canonicalJson(tool, 'strict');
    expect(text).toBe(
      '{"annotations":{"readOnlyHint":true},"description":"Reads\\u0007 a file \\uD800","inputSchema":' +
        '{"properties":{"a/b":{"enum":["\\u001F"],"type":"string"}},"required":["a/b"],"type":"object"},"name":"read_file"}',
    );
    expect(sha256Hex(text)).toBe('2271c36d2de2072e1fd5605d577ca7ae07d5aa475c4555d20a85e256100691a8');
  });
});

describe('where the profiles agree', () => {
  it.each<[string, unknown, string]>([
    ['null', null, 'null'],
    [
      'keys sorted at every depth',
      { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } },
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    ],
    ['array order kept (required is not sorted)', { required: ['b', 'a'] }, '{"required":["b","a"]}'],
    // UTF-16 code-unit order: "B" (0x42) < "a" (0x61) < "é" (0xE9) < "😀" (0xD83D…) < "ﬀ" (0xFB00).
    ['UTF-16 code-unit key order', { ﬀ: 1, '😀': 2, é: 3, a: 4, B: 5 }, '{"B":5,"a":4,"é":3,"😀":2,"ﬀ":1}'],
    ['raw UTF-8, no \\u escapes for non-ASCII', { s: 'Ключ – ключ 😀' }, '{"s":"Ключ – ключ 😀"}'],
    ['quotes, backslash and short escapes', 'a"b\\ü\n\t', '"a\\"b\\\\ü\\n\\t"'],
    ['undefined members dropped', { a: undefined, b: 1 }, '{"b":1}'],
    [
      'numbers in shortest form',
      { a: 1.0, b: 1e2, c: -0, d: 0.1, e: 1e21 },
      '{"a":1,"b":100,"c":0,"d":0.1,"e":1e+21}',
    ],
    ['scalars', [true, false, null, 'x'], '[true,false,null,"x"]'],
    ['empty containers', { a: {}, b: [] }, '{"a":{},"b":[]}'],
  ])('%s', (_name, value, expected) => {
    for (const profile of PROFILES) expect(canonicalJson(value, profile)).toBe(expected);
  });

  it.each(PROFILES)('%s: the same text whatever order the keys were added in', (profile) => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } }, profile)).toBe(
      canonicalJson({ b: { d: 3, c: 2 }, a: 1 }, profile),
    );
  });

  it.each(PROFILES)('%s: writes a value nested 100,000 levels deep without recursion', (profile) => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) value = i % 2 === 0 ? { b: value, a: null } : [value];
    expect(canonicalJson(value, profile)).toBe('[{"a":null,"b":'.repeat(50_000) + '1' + '}]'.repeat(50_000));
  });

  it.each(PROFILES)('%s: refuses a cycle that closes deep down, allows a shared object', (profile) => {
    const top: Record<string, unknown> = {};
    let bottom = top;
    for (let i = 0; i < 40; i += 1) bottom = (bottom['next'] = {}) as Record<string, unknown>;
    const shared = { x: 1 };
    bottom['left'] = shared;
    bottom['right'] = shared;
    expect(canonicalJson(top, profile)).toContain('{"left":{"x":1},"right":{"x":1}}');
    expect(canonicalJson([shared, shared], profile)).toBe('[{"x":1},{"x":1}]');
    bottom['loop'] = top;
    expect(() => canonicalJson(top, profile)).toThrow(/cycle/);
  });
});

describe('where the profiles differ', () => {
  it.each<[string, unknown, string, string]>([
    [
      'control character escapes',
      '\u0000\u000b\u001f\u001b',
      '"\\u0000\\u000b\\u001f\\u001b"',
      '"\\u0000\\u000B\\u001F\\u001B"',
    ],
    ['a lone surrogate', 'lone \ud800', '"lone \\ud800"', '"lone \\uD800"'],
    ['escapes in keys', { '\u001f': 1 }, '{"\\u001f":1}', '{"\\u001F":1}'],
    ['toJSON (honoured / ignored)', { at: new Date(0) }, '{"at":"1970-01-01T00:00:00.000Z"}', '{"at":{}}'],
  ])('%s', (_name, value, stringify, strict) => {
    expect(canonicalJson(value, 'stringify')).toBe(stringify);
    expect(canonicalJson(value, 'strict')).toBe(strict);
  });

  it.each<[string, unknown, string, string]>([
    ['NaN', { a: Number.NaN }, '{"a":null}', '/a'],
    ['Infinity', [Number.POSITIVE_INFINITY], '[null]', '/0'],
    ['function', { a: () => 1 }, '{}', '/a'],
    ['undefined in an array', [1, undefined], '[1,null]', '/1'],
    ['a hole in an array', [1, , 2], '[1,null,2]', '/1'], // eslint-disable-line no-sparse-arrays
    ['key with a slash and a tilde in the pointer', { 'a/b~': Symbol('x') }, '{}', '/a~1b~0'],
    ['a nested value', { a: [{ b: Number.NaN }] }, '{"a":[{"b":null}]}', '/a/0/b'],
  ])('%s: stringify writes it, strict refuses it at its pointer', (_name, value, stringify, pointer) => {
    expect(canonicalJson(value, 'stringify')).toBe(stringify);
    const error = thrown(() => canonicalJson(value, 'strict'));
    expect(isPortcullisError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as { pointer: string }).pointer).toBe(pointer);
  });

  it.each<[string, unknown]>([
    ['a bigint', { n: 1n }],
    ['a top-level undefined', undefined],
  ])('both refuse %s (stringify with a TypeError)', (_name, value) => {
    expect(() => canonicalJson(value, 'stringify')).toThrow(TypeError);
    expect(
      isPortcullisError(
        thrown(() => canonicalJson(value, 'strict')),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });
});

describe('canonicalString', () => {
  it.each<[string, string]>([
    ['plain', '"plain"'],
    ['quote " and backslash \\', '"quote \\" and backslash \\\\"'],
    ['\b\t\n\f\r', '"\\b\\t\\n\\f\\r"'],
    ['\u0000\u0001\u000b\u001f', '"\\u0000\\u0001\\u000B\\u001F"'],
    ['DEL \u007f and U+2028 \u2028 stay raw', '"DEL \u007f and U+2028 \u2028 stay raw"'],
    ['pair 😀 kept', '"pair 😀 kept"'],
    ['lone \ud800 high', '"lone \\uD800 high"'],
    ['lone \udfff low', '"lone \\uDFFF low"'],
    ['reversed \udc00\ud800', '"reversed \\uDC00\\uD800"'],
    ['high at the end \ud800', '"high at the end \\uD800"'],
  ])('%j → %s', (input, expected) => {
    expect(canonicalString(input)).toBe(expected);
  });

  it('keeps distinct strings distinct after UTF-8 encoding (lone surrogates vs U+FFFD)', () => {
    expect(sha256Hex(canonicalString('\ud800'))).not.toBe(sha256Hex(canonicalString('\ufffd')));
  });
});

describe('canonicalJson key texts', () => {
  it('writes every key the same however often and however many distinct keys were written before', () => {
    // More distinct keys than the key-text cache holds, long ones, and keys that need escapes, written twice.
    const keys = [
      ...Array.from({ length: 1500 }, (_, i) => `k${i}`),
      'x'.repeat(65),
      'q"uote',
      'back\\slash',
      'ctl\u0001',
      '\ud800',
    ];
    const value = Object.fromEntries(keys.map((key, i) => [key, i]));
    const expected = `{${[...keys]
      .sort()
      .map((key) => `${JSON.stringify(key)}:${value[key]}`)
      .join(',')}}`;
    expect(canonicalJson(value, 'stringify')).toBe(expected);
    expect(canonicalJson(value, 'stringify')).toBe(expected);
  });
});

describe('sha256Hex', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    // Stored chains hash these bytes: UTF-8, and a lone surrogate as U+FFFD (EF BF BD), whichever digest API runs.
    ['\u00e9\u{1f600}', '1184d1f608158eea09d297565575892231550c403aaa913008d867a97cfd5c76'],
    ['\ud800', '83d544ccc223c057d2bf80d3f2a32982c32c3c0db8e2674820da5064783fb097'],
    ['x\udc00', '5f350b94b4920d9b754a97c80041225f8d86f46f57886ec93ba109e432454d6a'],
  ])('%j', (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });
});
