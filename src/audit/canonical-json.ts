/**
 * Canonical JSON for digests: keys sorted by UTF-16 code units at every depth, compact, JSON.stringify's value
 * rules otherwise (undefined and functions dropped from objects, null in arrays, non-finite numbers as null,
 * toJSON honoured). Equal data gives equal text whatever the key order it was built in.
 */
import { createHash } from 'node:crypto';

/** The canonical JSON text of a JSON-like value; throws a TypeError on a bigint, a cycle or a top-level undefined. */
export function canonicalJson(value: unknown): string {
  const text = serialize(value, []);
  if (text === undefined) throw new TypeError('canonical JSON needs a JSON value, got ' + typeof value);
  return text;
}

/** The lower-case hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// Written for the audit hot path: string concatenation, no intermediate arrays, and the open containers kept in
// a small array (a record is a few levels deep) to detect cycles.
function serialize(value: unknown, open: object[]): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonical JSON cannot hold a bigint');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as Record<string, unknown> & { toJSON?: unknown };
  if (typeof object.toJSON === 'function') return serialize((object.toJSON as () => unknown)(), open);
  if (open.includes(object)) throw new TypeError('canonical JSON cannot hold a cycle');
  open.push(object);
  let text: string;
  if (Array.isArray(object)) {
    text = '[';
    for (let i = 0; i < object.length; i += 1) {
      if (i > 0) text += ',';
      text += serialize(object[i], open) ?? 'null';
    }
    text += ']';
  } else {
    text = '{';
    let first = true;
    for (const key of Object.keys(object).sort()) {
      const member = serialize(object[key], open);
      if (member === undefined) continue;
      text += (first ? '' : ',') + JSON.stringify(key) + ':' + member;
      first = false;
    }
    text += '}';
  }
  open.pop();
  return text;
}
