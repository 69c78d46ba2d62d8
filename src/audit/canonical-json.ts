/**
 * Canonical JSON for digests: keys sorted by UTF-16 code units at every depth, compact, JSON.stringify's value
 * rules otherwise (undefined and functions dropped from objects, null in arrays, non-finite numbers as null,
 * toJSON honoured). Equal data gives equal text whatever the key order it was built in.
 */
import { createHash } from 'node:crypto';

/** The canonical JSON text of a JSON-like value; throws a TypeError on a bigint, a cycle or a top-level undefined. */
export function canonicalJson(value: unknown): string {
  const first = literalOf(value);
  if (first === undefined) throw new TypeError('canonical JSON needs a JSON value, got ' + typeof value);
  if (typeof first === 'string') return first;
  return serializeContainer(first);
}

/** The lower-case hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

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

/** The most toJSON hops followed for one value (a toJSON returning ever new toJSON holders is refused). */
const MAX_TO_JSON_HOPS = 64;

/** A scalar's JSON text, undefined for a value with no JSON form, or the object or array to write. */
function literalOf(value: unknown): string | undefined | object {
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
    if (hops >= MAX_TO_JSON_HOPS) throw new TypeError('canonical JSON met a toJSON chain that does not end');
    current = (toJSON as () => unknown).call(current);
  }
}

/** Paths at most this long are scanned for cycles rather than kept in a set. */
const SHORT_PATH = 16;

function opened(object: object): OpenContainer {
  const keys = Array.isArray(object) ? null : Object.keys(object).sort();
  return { object, keys, length: keys ? keys.length : (object as unknown[]).length, next: 0, wrote: false };
}

// Written for the audit hot path: string concatenation, no intermediate arrays. Iterative, because the values
// written (call arguments) come from clients and can nest arbitrarily deep; the open containers are kept to
// detect cycles (the same object twice on one path), while the same object in two branches is allowed.
function serializeContainer(root: object): string {
  const stack: OpenContainer[] = [opened(root)];
  // A short path is scanned (cheapest for records a few levels deep); a long one gets a set, so a deep value
  // costs O(1) per check instead of O(depth).
  let longPath: Set<object> | undefined;
  const isOpen = (object: object): boolean => {
    if (longPath) return longPath.has(object);
    for (const container of stack) if (container.object === object) return true;
    return false;
  };
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
      member = literalOf((top.object as Record<string, unknown>)[key]);
      if (member === undefined) continue;
      prefix = (top.wrote ? ',' : '') + JSON.stringify(key) + ':';
      top.wrote = true;
    } else {
      member = literalOf((top.object as unknown[])[index]) ?? 'null';
      prefix = index > 0 ? ',' : '';
    }
    if (typeof member === 'string') {
      text += prefix + member;
      continue;
    }
    if (isOpen(member)) throw new TypeError('canonical JSON cannot hold a cycle');
    stack.push(opened(member));
    if (longPath) longPath.add(member);
    else if (stack.length > SHORT_PATH) longPath = new Set(stack.map((container) => container.object));
    text += prefix + (Array.isArray(member) ? '[' : '{');
  }
  return text;
}
