/** Console formatting: aligned plain-text tables and number formats. */
import type { Table } from './types.ts';

/** Milliseconds with two decimals. */
export function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : 'n/a';
}

/** A signed millisecond delta (`+0.42`). */
export function signedMs(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
}

/** A rate with no decimals and thousands separators. */
export function rate(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

/** A ratio as a percentage with one decimal. */
export function percent(ratio: number): string {
  return Number.isFinite(ratio) ? `${(ratio * 100).toFixed(1)}%` : 'n/a';
}

/** Renders a table: the first column left-aligned, the others right-aligned, a rule under the header. */
export function renderTable(table: Table): string {
  const widths = table.columns.map((header, i) =>
    Math.max(header.length, ...table.rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [table.title, line(table.columns), rule, ...table.rows.map(line)].join('\n');
}
