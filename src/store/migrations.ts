/**
 * The forward-only migration runner: `migrations/NNN_name.sql` files applied in version order, each in its own
 * transaction, recorded in `schema_migrations`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { PortcullisError } from '../errors/index.ts';

/** One migration file. */
export interface Migration {
  version: number;
  name: string;
  file: string;
}

const MIGRATION_FILE = /^(\d+)_([A-Za-z0-9_-]+)\.sql$/;

/**
 * The `migrations/` folder of the package: the nearest ancestor of this module that holds a package.json and a
 * migrations folder, so it is found both from `src/store/` (tsx) and from `dist/store/`.
 */
export function defaultMigrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate) && statSync(candidate).isDirectory()) {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new PortcullisError(
        'STORE_MIGRATION_FAILED',
        'cannot find the migrations folder of the package',
        {
          reason: 'migrations-dir-not-found',
        },
      );
    }
    dir = parent;
  }
}

/** The migration files of `dir`, in version order; other files are ignored, a duplicate version is an error. */
export function listMigrations(dir: string): Migration[] {
  const byVersion = new Map<number, Migration>();
  for (const entry of readdirSync(dir)) {
    const match = MIGRATION_FILE.exec(entry);
    if (!match) continue;
    const version = Number(match[1]);
    const previous = byVersion.get(version);
    if (previous) {
      throw new PortcullisError(
        'STORE_MIGRATION_FAILED',
        `two migrations share version ${version}: ${previous.file} and ${entry}`,
        { reason: 'duplicate-version' },
      );
    }
    byVersion.set(version, { version, name: match[2] as string, file: entry });
  }
  return [...byVersion.values()].sort((a, b) => a.version - b.version);
}

/**
 * Applies every pending migration of `dir` and returns the resulting schema version. Refuses a database whose
 * applied version is newer than the newest file. A failing migration is rolled back (the database keeps its
 * previous version and data) and raises STORE_MIGRATION_FAILED.
 */
export function runMigrations(db: Database.Database, dir: string): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const migrations = listMigrations(resolve(dir));
  const newest = migrations.at(-1)?.version ?? 0;
  const current = appliedVersion(db);
  if (current > newest) {
    throw new PortcullisError(
      'STORE_NEWER_SCHEMA',
      `the database is at schema version ${current} but this Portcullis knows only up to version ${newest}; ` +
        'use a newer Portcullis or another database file',
      { details: { databaseVersion: current, newestKnownVersion: newest } },
    );
  }
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    const sql = readFileSync(join(dir, migration.file), 'utf8');
    const apply = db.transaction(() => {
      // Re-checked under the write lock: another process may have applied it since we looked.
      if (isApplied.get(migration.version) !== undefined) return;
      db.exec(sql);
      record.run(migration.version, migration.name, Date.now());
    });
    try {
      // IMMEDIATE takes the write lock before reading, so two processes starting together apply a file once.
      apply.immediate();
    } catch (error) {
      throw new PortcullisError(
        'STORE_MIGRATION_FAILED',
        `migration ${migration.file} failed and was rolled back: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error, details: { version: migration.version, file: migration.file } },
      );
    }
  }
  return appliedVersion(db);
}

function appliedVersion(db: Database.Database): number {
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as
    { version: number | null } | undefined;
  return row?.version ?? 0;
}
