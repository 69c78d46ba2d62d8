/**
 * The review diff of two stored definitions (the canonical JSON a fingerprint covers: a tool, prompt, resource,
 * resource template or server instructions): one change per field leaf (schemas and annotations by JSON Pointer
 * inside the field, arrays compared whole), and a unified text diff of the description (of the instructions for
 * server instructions). Pure: plain data in, plain data out.
 */
import {
  canonicalJson,
  DEFINITION_FIELDS,
  formatJsonPointer,
  type DefinitionField,
} from '../shared/index.ts';

/** One changed leaf: `path` is a JSON Pointer inside `field` ("" for the field as a whole). */
export interface FieldChange {
  field: DefinitionField;
  path: string;
  kind: 'added' | 'removed' | 'changed';
  /** Absent when the leaf was added. */
  old?: unknown;
  /** Absent when the leaf was removed. */
  new?: unknown;
}

/** The diff of two definitions. */
export interface DefinitionDiff {
  changes: FieldChange[];
  /** Unified diff of the description (or instructions) lines; null when it did not change. */
  descriptionDiff: string | null;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: unknown): value is { [key: string]: Json } =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Parses a stored canonical definition; a value that is not a JSON object reads as an empty definition. */
export function parseDefinition(content: string): { [key: string]: Json } {
  try {
    const value: unknown = JSON.parse(content);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

const same = (a: Json, b: Json): boolean => canonicalJson(a, 'strict') === canonicalJson(b, 'strict');

function diffValue(
  field: DefinitionField,
  tokens: string[],
  before: Json | undefined,
  after: Json | undefined,
  out: FieldChange[],
): void {
  const path = formatJsonPointer(tokens);
  if (before === undefined || before === null) {
    if (after !== undefined && after !== null) out.push({ field, path, kind: 'added', new: after });
    return;
  }
  if (after === undefined || after === null) {
    out.push({ field, path, kind: 'removed', old: before });
    return;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) diffValue(field, [...tokens, key], before[key], after[key], out);
    return;
  }
  if (!same(before, after)) out.push({ field, path, kind: 'changed', old: before, new: after });
}

/** Compares two canonical definitions field by field, and the descriptions line by line. */
export function diffDefinitions(oldContent: string, newContent: string): DefinitionDiff {
  const before = parseDefinition(oldContent);
  const after = parseDefinition(newContent);
  const changes: FieldChange[] = [];
  for (const field of DEFINITION_FIELDS) diffValue(field, [], before[field], after[field], changes);
  const text = 'instructions' in before || 'instructions' in after ? 'instructions' : 'description';
  const oldText = typeof before[text] === 'string' ? before[text] : '';
  const newText = typeof after[text] === 'string' ? after[text] : '';
  return { changes, descriptionDiff: oldText === newText ? null : unifiedLineDiff(oldText, newText) };
}

/**
 * A unified diff of two texts in linear time: the common leading and trailing lines are context, everything
 * between them is one hunk of removed then added lines (up to three context lines on each side). It can show
 * more lines as changed than a minimal diff would, never fewer.
 */
export function unifiedLineDiff(oldText: string, newText: string, context = 3): string {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail += 1;
  const from = Math.max(0, head - context);
  const aEnd = a.length - tail;
  const bEnd = b.length - tail;
  const after = Math.min(tail, context);
  const lines = [
    ...a.slice(from, head).map((line) => ` ${line}`),
    ...a.slice(head, aEnd).map((line) => `-${line}`),
    ...b.slice(head, bEnd).map((line) => `+${line}`),
    ...a.slice(aEnd, aEnd + after).map((line) => ` ${line}`),
  ];
  const oldCount = aEnd - from + after;
  const newCount = bEnd - from + after;
  const start = (count: number) => (count === 0 ? from : from + 1);
  return [
    '--- approved',
    '+++ current',
    `@@ -${start(oldCount)},${oldCount} +${start(newCount)},${newCount} @@`,
    ...lines,
  ].join('\n');
}
