/**
 * Canonical JSON for digests, in two named profiles. Both sort object keys by UTF-16 code units at every
 * depth and write compact text; they differ in how strings are escaped and in what they accept:
 *
 * - `stringify`: JSON.stringify's rules — its string escapes (`\u001f`, lower-case hex; a lone surrogate as
 *   `\ud800`), toJSON honoured, undefined/function/symbol dropped from objects and written as null in arrays,
 *   non-finite numbers as null; a bigint, a cycle or a top-level value with no JSON form is a TypeError.
 *   The audit hash chain, sealed request state and approval-rule versions hash this text.
 * - `strict`: plain JSON data only, raw UTF-8, control characters as `\b \t \n \f \r` or `\u00XX` (upper-case
 *   hex, Jackson's form), lone surrogates as `\uXXXX`; numbers in ECMAScript's shortest form; undefined
 *   object members omitted; anything else JSON cannot hold (non-finite numbers, bigint, function, symbol,
 *   undefined or a hole in an array, a cycle) is INVALID_INPUT with the JSON pointer of the offending value.
 * Tool fingerprints hash this text.
 *
 * Stored audit chains and ledger fingerprints depend on each profile's bytes: never change a profile, add one.
 */
import * as crypto from 'node:crypto';
import { PortcullisError } from '../errors/index.ts';
import { formatJsonPointer } from './json-pointer.ts';

/** The name of a canonical JSON profile (see the file header for what each writes). */
export type CanonicalProfile = 'stringify' | 'strict';

/** The canonical JSON text of a value in the given profile; throws on what the profile refuses (file header). */
export function canonicalJson(value: unknown, profile: CanonicalProfile): string {
  const rules = PROFILES[profile];
  const first = rules.literal(value, AT_ROOT);
  if (first === undefined) {
    if (profile === 'strict') throw strictInvalid([], 'a undefined');
    throw new TypeError('canonical JSON needs a JSON value, got ' + typeof value);
  }
  return typeof first === 'string' ? first : serializeContainer(first, rules);
}

// The one-shot digest (Node 20.12+) makes no Hash object: half the CPU of createHash for an audit row's text.
// Both encode a string as UTF-8 the same way, lone surrogates included, so the digests are the same.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;

/** The lower-case hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return oneShot
    ? oneShot('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Short escapes JSON allows for control characters; every other one becomes `\u00XX`, upper-case hex. */
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
  0x22: '\\"',
  0x5c: '\\\\',
};

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * A JSON string literal in the `strict` profile: raw UTF-8 for everything printable, `"` and `\` escaped,
 * control characters short or as `\u00XX` (upper-case hex). A lone surrogate cannot be encoded as UTF-8, so
 * it is written as `\uXXXX` too, which keeps distinct strings distinct.
 */
export function canonicalString(value: string): string {
  let out = '"';
  let plainFrom = 0;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    let escape: string | undefined;
    if (code < 0x20 || code === 0x22 || code === 0x5c) {
      escape = SHORT_ESCAPES[code] ?? `\\u${hex4(code)}`;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = value.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
      escape = `\\u${hex4(code)}`;
    }
    if (escape === undefined) continue;
    out += value.slice(plainFrom, i) + escape;
    plainFrom = i + 1;
  }
  return `${out}${value.slice(plainFrom)}"`;
}

/** A path from the root to a value, as keys and indices; turned into a pointer only for an error. */
type Path = readonly (string | number)[];

/** Where the value being written sits: the open containers; turned into a path only to build an error. */
type Where = readonly OpenContainer[];

/** The top-level value sits in no container. */
const AT_ROOT: Where = [];

/** What a profile does with one value: its JSON text, undefined for "no JSON form", or the container to open. */
interface ProfileRules {
  literal(value: unknown, where: Where): string | undefined | object;
  key(key: string): string;
  /** The text of an array item whose value has no JSON form (or a hole); may throw instead. */
  absentItem(where: Where): string;
  cycle(where: Where): Error;
}

function strictInvalid(path: Path, what: string): PortcullisError {
  const pointer = path.length === 0 ? '/' : formatJsonPointer(path.map(String));
  return new PortcullisError('INVALID_INPUT', `Cannot canonicalize ${what} at ${pointer}.`, {
    reason: 'not-json',
    pointer,
  });
}

/** The most toJSON hops followed for one value (a toJSON returning ever new toJSON holders is refused). */
const MAX_TO_JSON_HOPS = 64;

/** Key texts of the stringify profile, kept for the short keys records repeat (bounded: keys can come from clients). */
const keyTexts = new Map<string, string>();
const MAX_KEY_TEXTS = 1024;

function stringifyKey(key: string): string {
  let text = keyTexts.get(key);
  if (text !== undefined) return text;
  text = JSON.stringify(key);
  if (key.length <= 64 && keyTexts.size < MAX_KEY_TEXTS) keyTexts.set(key, text);
  return text;
}

const STRINGIFY: ProfileRules = {
  literal(value) {
    let current = value;
    for (let hops = 0; ; hops += 1) {
      switch (typeof current) {
        case 'string':
          return JSON.stringify(current);
        case 'number':
          return Number.isFinite(current) ? String(current) : 'null';
        case 'boolean':
          return current ? 'true' : 'false';
        case 'bigint':
          throw new TypeError('canonical JSON cannot hold a bigint');
        case 'undefined':
        case 'function':
        case 'symbol':
          return undefined;
      }
      if (current === null) return 'null';
      const toJSON = (current as { toJSON?: unknown }).toJSON;
      if (typeof toJSON !== 'function') return current as object;
      if (hops >= MAX_TO_JSON_HOPS)
        throw new TypeError('canonical JSON met a toJSON chain that does not end');
      current = (toJSON as () => unknown).call(current);
    }
  },
  key: stringifyKey,
  absentItem: () => 'null',
  cycle: () => new TypeError('canonical JSON cannot hold a cycle'),
};

const STRICT: ProfileRules = {
  literal(value, where) {
    switch (typeof value) {
      case 'string':
        return canonicalString(value);
      case 'number':
        if (!Number.isFinite(value)) throw strictInvalid(pathOf(where), 'a non-finite number');
        return JSON.stringify(value);
      case 'boolean':
        return value ? 'true' : 'false';
      case 'undefined':
        return undefined;
      case 'object':
        return value === null ? 'null' : value;
      default:
        throw strictInvalid(pathOf(where), `a ${typeof value}`);
    }
  },
  key: canonicalString,
  absentItem: (where) => {
    throw strictInvalid(pathOf(where), 'undefined');
  },
  cycle: (where) => strictInvalid(pathOf(where), 'a cycle'),
};

const PROFILES: Readonly<Record<CanonicalProfile, ProfileRules>> = { stringify: STRINGIFY, strict: STRICT };

/** An object or array still being written: its members, and how far the writing got. */
interface OpenContainer {
  object: object;
  /** Sorted keys of an object; null for an array. */
  keys: string[] | null;
  length: number;
  next: number;
  /** An object member has been written (the next one needs a comma). */
  wrote: boolean;
}

/** Paths at most this long are scanned for cycles rather than kept in a set. */
const SHORT_PATH = 16;

function opened(object: object): OpenContainer {
  const keys = Array.isArray(object) ? null : Object.keys(object).sort();
  return { object, keys, length: keys ? keys.length : (object as unknown[]).length, next: 0, wrote: false };
}

/** The path of the member written last in each open container (for an error's pointer). */
function pathOf(stack: readonly OpenContainer[]): (string | number)[] {
  return stack.map((container) =>
    container.keys ? (container.keys[container.next - 1] as string) : container.next - 1,
  );
}

// Written for the audit hot path: string concatenation, no intermediate arrays, no closure made per call, and
// the error path is built only when an error is thrown. Iterative, because the values written (call arguments,
// schemas) come from clients and upstreams and can nest arbitrarily deep; the open containers are kept to detect
// cycles (the same object twice on one path), while the same object in two branches is allowed.
function serializeContainer(root: object, rules: ProfileRules): string {
  const stack: OpenContainer[] = [opened(root)];
  // A short path is scanned (cheapest for records a few levels deep); a long one gets a set, so a deep value
  // costs O(1) per check instead of O(depth).
  let longPath: Set<object> | undefined;
  let text = Array.isArray(root) ? '[' : '{';
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as OpenContainer;
    if (top.next >= top.length) {
      text += top.keys ? '}' : ']';
      longPath?.delete(top.object);
      stack.pop();
      if (stack.length <= SHORT_PATH) longPath = undefined;
      continue;
    }
    const index = top.next;
    top.next += 1;
    let prefix: string;
    let member: string | undefined | object;
    if (top.keys) {
      const key = top.keys[index] as string;
      const value = (top.object as Record<string, unknown>)[key];
      if (value === undefined) continue;
      member = rules.literal(value, stack);
      if (member === undefined) continue;
      prefix = (top.wrote ? ',' : '') + rules.key(key) + ':';
      top.wrote = true;
    } else {
      const items = top.object as unknown[];
      member = index in items ? rules.literal(items[index], stack) : undefined;
      member ??= rules.absentItem(stack);
      prefix = index > 0 ? ',' : '';
    }
    if (typeof member === 'string') {
      text += prefix + member;
      continue;
    }
    if (longPath ? longPath.has(member) : isOnPath(stack, member)) throw rules.cycle(stack);
    stack.push(opened(member));
    if (longPath) longPath.add(member);
    else if (stack.length > SHORT_PATH) longPath = new Set(stack.map((container) => container.object));
    text += prefix + (Array.isArray(member) ? '[' : '{');
  }
  return text;
}

/** True when `object` is one of the open containers (a short path: scanning beats a set). */
function isOnPath(stack: readonly OpenContainer[], object: object): boolean {
  for (const container of stack) if (container.object === object) return true;
  return false;
}
