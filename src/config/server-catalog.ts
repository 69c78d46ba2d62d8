// Loading the server catalog of the risk engine from disk; the scorers of risk/ stay pure and take the entries.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { PortcullisError } from '../errors/index.ts';
import type { CatalogEntry } from '../risk/index.ts';

/** The bundled catalog folder, `catalog/servers/` at the package root. */
export const DEFAULT_CATALOG_DIR = fileURLToPath(new URL('../../catalog/servers/', import.meta.url));

/** The JSON Schema file inside a catalog folder; it is never read as an entry. */
export const CATALOG_SCHEMA_FILE = 'catalog.schema.json';

/** Where to read the catalog from. */
export interface LoadCatalogOptions {
  /** Folders of `<id>.json` entries, read in order; an entry in a later folder replaces one with its id. */
  readonly dirs?: readonly string[];
  /** Folder holding `catalog.schema.json`; defaults to the bundled one. */
  readonly schemaDir?: string;
}

function invalid(file: string, message: string, pointer?: string): PortcullisError {
  return new PortcullisError('CONFIG_INVALID', `Server catalog ${file}: ${message}`, {
    reason: 'catalog-entry-invalid',
    details: { file },
    ...(pointer === undefined ? {} : { pointer }),
  });
}

function describe(error: ErrorObject): string {
  return `${error.instancePath === '' ? '/' : error.instancePath} ${error.message ?? 'is invalid'}`;
}

function compileSchema(schemaDir: string): ValidateFunction<CatalogEntry> {
  const schema: unknown = JSON.parse(readFileSync(join(schemaDir, CATALOG_SCHEMA_FILE), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  return ajv.compile<CatalogEntry>(schema as object);
}

function readEntry(dir: string, file: string, validate: ValidateFunction<CatalogEntry>): CatalogEntry {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch (cause) {
    throw invalid(file, `not valid JSON (${(cause as Error).message})`);
  }
  if (!validate(value)) {
    const errors = validate.errors ?? [];
    throw invalid(file, errors.map(describe).join('; '), errors[0]?.instancePath);
  }
  if (`${value.id}.json` !== file)
    throw invalid(file, `id '${value.id}' does not match the file name`, '/id');
  return value;
}

/**
 * Reads and validates every `<id>.json` of the catalog folders against `catalog.schema.json`, and returns
 * the entries sorted by id (the matcher's tie order). Throws CONFIG_INVALID naming the file and the rule.
 */
export function loadServerCatalog(options: LoadCatalogOptions = {}): CatalogEntry[] {
  const validate = compileSchema(options.schemaDir ?? DEFAULT_CATALOG_DIR);
  const entries = new Map<string, CatalogEntry>();
  for (const dir of options.dirs ?? [DEFAULT_CATALOG_DIR]) {
    const files = readdirSync(dir).filter((file) => file.endsWith('.json') && file !== CATALOG_SCHEMA_FILE);
    for (const file of files.sort()) {
      const entry = readEntry(dir, file, validate);
      entries.set(entry.id, entry);
    }
  }
  return [...entries.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
