/**
 * The rows of the ledger page's side-by-side view: a tool's, prompt's, resource's or server instructions'
 * approved and current definitions laid out field by field (description and instructions by line, schemas and
 * annotations by JSON Pointer, arrays whole as the admin API's diff compares them), each row marked same,
 * changed, added or removed. Pure.
 */

import { DEFINITION_FIELDS as FIELDS, escapeJsonPointerToken } from '../shared/index.ts';

/** One row of the side-by-side view; `old`/`new` absent where that side has no such line or path. */
export interface DefinitionRow {
  field: string;
  /** A JSON Pointer inside the field ("" for the whole field), or the line number for the description. */
  path: string;
  old?: string;
  new?: string;
  kind: 'same' | 'changed' | 'added' | 'removed';
}

const TEXT_FIELDS: ReadonlySet<string> = new Set(['description', 'instructions']);

function flatten(value: unknown, path: string, into: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) into.set(path, '{}');
    for (const [key, inner] of entries) flatten(inner, `${path}/${escapeJsonPointerToken(key)}`, into);
    return;
  }
  into.set(path, typeof value === 'string' ? value : JSON.stringify(value));
}

function row(field: string, path: string, old: string | undefined, now: string | undefined): DefinitionRow {
  const kind = old === undefined ? 'added' : now === undefined ? 'removed' : old === now ? 'same' : 'changed';
  return {
    field,
    path,
    ...(old === undefined ? {} : { old }),
    ...(now === undefined ? {} : { new: now }),
    kind,
  };
}

/** Pairs two texts line by line along their longest common subsequence; unmatched neighbours share a row. */
export function lineRows(field: string, oldText: string, newText: string): DefinitionRow[] {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  // Descriptions are short (the ledger caps stored definitions), so the quadratic table is fine.
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const rows: DefinitionRow[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(removed.length, added.length); k++)
      rows.push(row(field, String(rows.length + 1), removed[k], added[k]));
    removed.length = 0;
    added.length = 0;
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      rows.push(row(field, String(rows.length + 1), a[i], b[j]));
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      added.push(b[j++]!);
    } else {
      removed.push(a[i++]!);
    }
  }
  flush();
  return rows;
}

/** The rows of both definitions, field by field in the ledger's field order. */
export function definitionRows(
  approved: Record<string, unknown> | null,
  current: Record<string, unknown> | null,
): DefinitionRow[] {
  const rows: DefinitionRow[] = [];
  for (const field of FIELDS) {
    const old = approved?.[field];
    const now = current?.[field];
    if (old === undefined && now === undefined) continue;
    if (TEXT_FIELDS.has(field) && (typeof old === 'string' || typeof now === 'string')) {
      rows.push(...lineRows(field, typeof old === 'string' ? old : '', typeof now === 'string' ? now : ''));
      continue;
    }
    const before = new Map<string, string>();
    const after = new Map<string, string>();
    if (old !== undefined) flatten(old, '', before);
    if (now !== undefined) flatten(now, '', after);
    const paths = [...before.keys(), ...[...after.keys()].filter((p) => !before.has(p))];
    for (const path of paths) rows.push(row(field, path, before.get(path), after.get(path)));
  }
  return rows;
}
