// Canonical JSON and SHA-256 for fingerprints (docs/rules/ledger.md#r-ledger-1-canonical-json-profile).
import { createHash } from 'node:crypto';
import { PortcullisError } from '../errors/index.ts';

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
 * A JSON string literal in the canonical profile: raw UTF-8 for everything printable, `"` and `\` escaped,
 * control characters as `\b \t \n \f \r` or `\u00XX` (upper-case hex, Jackson's form). A lone surrogate
 * cannot be encoded as UTF-8, so it is written as `\uXXXX` too, which keeps distinct strings distinct.
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
      const pair =
        code <= 0xdbff &&
        i + 1 < value.length &&
        value.charCodeAt(i + 1) >= 0xdc00 &&
        value.charCodeAt(i + 1) <= 0xdfff;
      if (pair) {
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

function invalid(path: string, what: string): PortcullisError {
  return new PortcullisError('INVALID_INPUT', `Cannot canonicalize ${what} at ${path === '' ? '/' : path}.`, {
    reason: 'not-json',
    pointer: path === '' ? '/' : path,
  });
}

function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

type Task =
  | { readonly kind: 'value'; readonly value: unknown; readonly path: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'exit'; readonly container: object };

function childTasks(container: object, path: string): Task[] {
  const tasks: Task[] = [];
  if (Array.isArray(container)) {
    tasks.push({ kind: 'text', text: '[' });
    container.forEach((child: unknown, index) => {
      if (child === undefined) throw invalid(`${path}/${index}`, 'undefined');
      if (index > 0) tasks.push({ kind: 'text', text: ',' });
      tasks.push({ kind: 'value', value: child, path: `${path}/${index}` });
    });
    tasks.push({ kind: 'text', text: ']' });
    return tasks;
  }
  const record = container as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  tasks.push({ kind: 'text', text: '{' });
  keys.forEach((key, index) => {
    tasks.push({ kind: 'text', text: `${index > 0 ? ',' : ''}${canonicalString(key)}:` });
    tasks.push({ kind: 'value', value: record[key], path: `${path}/${pointerSegment(key)}` });
  });
  tasks.push({ kind: 'text', text: '}' });
  return tasks;
}

function scalar(value: unknown, path: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return canonicalString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(path, 'a non-finite number');
    return JSON.stringify(value);
  }
  throw invalid(path, `a ${typeof value}`);
}

/**
 * Serializes plain JSON data canonically: object keys sorted at every depth by UTF-16 code units, no
 * whitespace, array order kept, strings as `canonicalString`. Numbers use ECMAScript's shortest form
 * (`1.0` → `1`, `1e2` → `100`; the profile's declared number rule, R-LEDGER-1). Properties whose
 * value is undefined are omitted, as JSON.stringify does. Throws INVALID_INPUT on values JSON cannot hold
 * (non-finite numbers, bigint, functions, symbols, undefined in arrays) and on cycles.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  const open = new Set<object>();
  // Iterative, so a deeply nested schema cannot overflow the stack.
  const stack: Task[] = [{ kind: 'value', value, path: '' }];
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    if (task.kind === 'text') parts.push(task.text);
    else if (task.kind === 'exit') open.delete(task.container);
    else if (typeof task.value === 'object' && task.value !== null) {
      if (open.has(task.value)) throw invalid(task.path, 'a cycle');
      open.add(task.value);
      stack.push({ kind: 'exit', container: task.value });
      const children = childTasks(task.value, task.path);
      for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i] as Task);
    } else parts.push(scalar(task.value, task.path));
  }
  return parts.join('');
}

/** The SHA-256 of a string's UTF-8 bytes, as 64 lower-case hex characters. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
