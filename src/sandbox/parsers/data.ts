/**
 * safety.parser.yaml and safety.parser.csv (docs/security.md, "Parsers hand on safe output"): YAML is read with the core schema
 * only (any other tag is refused, alias expansion is bounded so an alias bomb fails fast); CSV follows RFC 4180
 * quoting with optional `header` and `delimiter`.
 */
import { parse as parseCsvRecords } from 'csv-parse/sync';
import { isNode, parseDocument, visit } from 'yaml';
import { PortcullisError } from '../../errors/index.ts';
import { checkYamlNesting, MAX_YAML_NESTING, nestingTooDeep } from './nesting.ts';

/** The most alias expansions one YAML document may cause. */
export const MAX_YAML_ALIASES = 100;

const CORE_TAGS = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`),
);

/** Parses one YAML document into plain data; a document nested deeper than MAX_YAML_NESTING is refused first. */
export function parseYaml(input: string): unknown {
  checkYamlNesting(input);
  try {
    return parseCheckedYaml(input);
  } catch (error) {
    // The estimate bounds the depth; should the library still run out of stack, the answer is the same.
    if (error instanceof RangeError) throw nestingTooDeep('yaml', MAX_YAML_NESTING);
    throw error;
  }
}

function parseCheckedYaml(input: string): unknown {
  const doc = parseDocument(input, { schema: 'core', uniqueKeys: true, merge: false, prettyErrors: false });
  const [error] = doc.errors;
  if (error !== undefined) {
    throw new PortcullisError('HELPER_RUNTIME', `safety.parser.yaml: ${error.message}`, {
      reason: 'parse-failed',
    });
  }
  let foreignTag: string | null = null;
  visit(doc, (_key, node) => {
    if (isNode(node) && node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      foreignTag = node.tag;
      return visit.BREAK;
    }
    return undefined;
  });
  const unresolved = doc.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED');
  if (foreignTag !== null || unresolved !== undefined) {
    throw new PortcullisError(
      'INVALID_INPUT',
      `safety.parser.yaml: only core-schema tags are allowed${foreignTag === null ? '' : ` (found ${String(foreignTag)})`}`,
      { reason: 'yaml-unsupported-tag' },
    );
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new PortcullisError('HELPER_RUNTIME', `safety.parser.yaml: ${message}`, {
      reason: /alias/i.test(message) ? 'yaml-alias-limit' : 'parse-failed',
    });
  }
}

/** Options of safety.parser.csv. */
export interface CsvOptions {
  /** When true, the first record names the columns and every row becomes an object. */
  header?: boolean;
  /** One character; `,` by default. */
  delimiter?: string;
  /**
   * When true, cells are returned exactly as parsed. By default a cell that a spreadsheet would run as a formula
   * (first character `=`, `+`, `-`, `@`, tab or carriage return) is prefixed with `'`, so the rows can be written
   * to a file someone opens in a spreadsheet (OWASP "CSV injection").
   */
  keepFormulas?: boolean;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell as a spreadsheet will read it as text: formula starters get a leading `'`. */
export function neutralizeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/**
 * Parses CSV (RFC 4180 quoting) into arrays of strings, or objects keyed by the header row; formula cells
 * (header names included) are neutralized unless `keepFormulas` is set.
 */
export function parseCsv(
  input: string,
  options: CsvOptions = {},
): string[][] | Array<Record<string, string>> {
  const delimiter = options.delimiter === undefined || options.delimiter === '' ? ',' : options.delimiter;
  if ([...delimiter].length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new PortcullisError('INVALID_INPUT', 'safety.parser.csv: the delimiter must be one character', {
      reason: 'invalid-delimiter',
    });
  }
  let records: string[][];
  try {
    records = parseCsvRecords(input, {
      delimiter,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as string[][];
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new PortcullisError('HELPER_RUNTIME', `safety.parser.csv: ${message}`, { reason: 'parse-failed' });
  }
  if (options.keepFormulas !== true) records = records.map((record) => record.map(neutralizeFormula));
  if (options.header !== true) return records;
  const [names = [], ...rows] = records;
  // fromEntries defines own properties, so a column named __proto__ stays data.
  return rows.map((row) => Object.fromEntries(names.map((name, index) => [name, row[index] ?? ''])));
}
