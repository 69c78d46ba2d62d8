/**
 * Mutations of a valid JSON-RPC message: hostile values (wrong types, huge strings, deep nesting, huge arrays,
 * NUL, lone surrogates, absurd numbers), dropped and unknown fields, and broken serializations. Values are built
 * iteratively and serialized by hand where they are deeper than JSON.stringify can go.
 */
import type { Rng } from './prng.ts';

/** A JSON value, or a pre-serialized fragment that is spliced in as is (deep nesting). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json } | RawJson;

/** Already serialized JSON text (built without recursion). */
export class RawJson {
  constructor(readonly text: string) {}
}

const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '😀'.repeat(50),
  '\u202e\u200b\ufeff',
  '../../../../etc/passwd',
  '${FUZZ_SECRET}',
  '<script>alert(1)</script>',
  '%s%s%s%n',
  '__proto__',
  'constructor',
  '\r\n\r\nHTTP/1.1 200 OK',
  'null',
  '-1',
];
const NASTY_NUMBERS = [0, -0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, 4294967296, -2147483649, 1e-320];

/** A deeply nested array or object `depth` levels deep, as text. */
export function deepNesting(rng: Rng, depth: number): RawJson {
  if (rng.chance(0.5)) return new RawJson(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
  return new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

/** One hostile value, sized so that most bodies stay under `budget` bytes. */
export function hostileValue(rng: Rng, budget: number): Json {
  switch (rng.int(0, 11)) {
    case 0:
      return rng.pick(NASTY_STRINGS);
    case 1:
      return rng.pick(NASTY_NUMBERS);
    case 2:
      return rng.pick([null, true, false]);
    case 3:
      return 'x'.repeat(rng.int(1, budget));
    case 4:
      return deepNesting(rng, rng.int(100, Math.min(10_000, Math.floor(budget / 6))));
    case 5:
      return Array.from({ length: rng.int(100, Math.floor(budget / 3)) }, (_, i) => i);
    case 6:
      return new RawJson('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}');
    case 7:
      return [rng.pick(NASTY_STRINGS), rng.pick(NASTY_NUMBERS), {}, []];
    case 8:
      return {};
    case 9:
      return [];
    case 10:
      return Object.fromEntries(Array.from({ length: rng.int(50, 2_000) }, (_, i) => [`k${i}`, i]));
    default:
      return String.fromCharCode(...Array.from({ length: rng.int(1, 64) }, () => rng.int(0, 0xffff)));
  }
}

/** Serializes a value that may hold RawJson fragments (those are the only deep parts). */
export function serialize(value: Json): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts = Object.keys(value).map(
      (k) => `${JSON.stringify(k)}:${serialize((value as Record<string, Json>)[k] as Json)}`,
    );
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Every path to a node of `value` (objects and arrays only, which are shallow in valid messages). */
function paths(
  value: Json,
  at: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  out.push(at);
  if (value instanceof RawJson || value === null || typeof value !== 'object') return out;
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const key of keys) paths((value as Record<string, Json>)[key] as Json, [...at, key], out);
  return out;
}

/** A copy of a valid message with one to three structural mutations. */
export function mutateMessage(rng: Rng, message: Json, budget: number): Json {
  let copy = structuredClone(message) as Json;
  for (let round = rng.int(1, 3); round > 0; round -= 1) {
    const all = paths(copy);
    const path = rng.pick(all);
    if (path.length === 0) {
      if (rng.chance(0.5)) copy = hostileValue(rng, budget);
      continue;
    }
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1] as string | number;
    const parent = parentPath.reduce<Json>(
      (node, k) => (node as Record<string, Json>)[k] as Json,
      copy,
    ) as Record<string, Json>;
    const action = rng.int(0, 3);
    if (action === 0) delete parent[key];
    else if (action === 1) parent[`unknown_${rng.int(0, 99)}`] = hostileValue(rng, budget);
    else parent[key] = hostileValue(rng, budget);
  }
  return copy;
}

/** Serialized text of `value`, sometimes broken on purpose (truncated, a stray byte, trailing garbage). */
export function brokenText(rng: Rng, text: string): string {
  switch (rng.int(0, 4)) {
    case 0:
      return text.slice(0, rng.int(0, text.length));
    case 1: {
      const at = rng.int(0, text.length);
      return `${text.slice(0, at)}${rng.pick(['\u0000', '}', '"', ',', '\\', '\ud800'])}${text.slice(at)}`;
    }
    case 2:
      return `${text}${rng.pick(['}', ' garbage', ',', '\n{}'])}`;
    case 3:
      return rng.pick(['', ' ', 'null', '[]', '[[]]', '"string"', '1e999', 'true', '{"jsonrpc":"2.0"']);
    default:
      return text.replace(/"/g, "'");
  }
}
