/**
 * Canonical JSON for digests: keys sorted by UTF-16 code units at every depth, compact, JSON.stringify's value
 * rules otherwise (undefined and functions dropped from objects, null in arrays, non-finite numbers as null,
 * toJSON honoured). Equal data gives equal text whatever the key order it was built in.
 */
import { createHash } from 'node:crypto';

/** The canonical JSON text of a JSON-like value; throws a TypeError on a bigint, a cycle or a top-level undefined. */
export function canonicalJson(value: unknown): string {
  const text = serialize(value, new Set());
  if (text === undefined) throw new TypeError('canonical JSON needs a JSON value, got ' + typeof value);
  return text;
}

/** The lower-case hex SHA-256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function serialize(value: unknown, ancestors: Set<object>): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonical JSON cannot hold a bigint');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  const object = value as Record<string, unknown> & { toJSON?: unknown };
  if (typeof object.toJSON === 'function') return serialize((object.toJSON as () => unknown)(), ancestors);
  if (ancestors.has(object)) throw new TypeError('canonical JSON cannot hold a cycle');
  ancestors.add(object);
  let text: string;
  if (Array.isArray(object)) {
    text = `[${object.map((item: unknown) => serialize(item, ancestors) ?? 'null').join(',')}]`;
  } else {
    const members: string[] = [];
    for (const key of Object.keys(object).sort()) {
      const member = serialize(object[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    text = `{${members.join(',')}}`;
  }
  ancestors.delete(object);
  return text;
}
