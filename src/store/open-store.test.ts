import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { openDatabase } from './database.ts';
import { defaultMigrationsDir, listMigrations, runMigrations } from './migrations.ts';
import { openStore } from './index.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const newestVersion = (): number => listMigrations(defaultMigrationsDir()).at(-1)?.version ?? 0;

function copyMigrations(target: string): void {
  mkdirSync(target, { recursive: true });
  for (const file of readdirSync(defaultMigrationsDir())) {
    copyFileSync(join(defaultMigrationsDir(), file), join(target, file));
  }
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('openDatabase', () => {
  it('turns on WAL, NORMAL sync, a busy timeout and foreign keys', () => {
    const db = openDatabase(join(dir, 'a', 'b', 'p.db'), 1234);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });
});

describe('openStore', () => {
  it('finds the package migrations folder', () => {
    expect(defaultMigrationsDir()).toBe(resolve(import.meta.dirname, '..', '..', 'migrations'));
    expect(listMigrations(defaultMigrationsDir()).map((m) => m.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('creates parent folders, migrates to the newest version and leaves the file in WAL mode', () => {
    const path = join(dir, 'nested', 'data', 'portcullis.db');
    const store = openStore({ path });
    expect(store.path).toBe(path);
    expect(store.schemaVersion).toBe(newestVersion());
    store.upstreams.recordConnected('files', 1);
    store.close();
    store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => (row as { name: string }).name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'audit_head',
        'audit_log',
        'events',
        'schema_migrations',
        'tool_ledger',
        'upstream_state',
      ]),
    );
    raw.close();
  });

  it('is safe to run twice and keeps data', () => {
    const path = join(dir, 'p.db');
    const first = openStore({ path });
    first.upstreams.recordUsed('files', 42);
    first.close();
    const second = openStore({ path });
    expect(second.schemaVersion).toBe(newestVersion());
    expect(second.upstreams.get('files')?.lastUsedAt).toBe(42);
    second.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: newestVersion() });
    raw.close();
  });

  it('batches writes into one transaction: invisible to another connection until it returns, gone on a throw', () => {
    const path = join(dir, 'p.db');
    const store = openStore({ path });
    const other = new Database(path, { readonly: true });
    const rows = () => other.prepare('SELECT COUNT(*) AS n FROM upstream_state').get();
    const seenInside = store.batch(() => {
      store.upstreams.recordUsed('files', 1);
      store.batch(() => store.upstreams.recordUsed('git', 2));
      return rows();
    });
    expect(seenInside).toEqual({ n: 0 });
    expect(rows()).toEqual({ n: 2 });
    expect(() =>
      store.batch(() => {
        store.upstreams.recordUsed('memory', 3);
        throw new Error('half way');
      }),
    ).toThrow('half way');
    expect(store.upstreams.get('memory')).toBeUndefined();
    expect(rows()).toEqual({ n: 2 });
    other.close();
    store.close();
  });

  it('refuses a database written by a newer Portcullis, naming both versions', () => {
    const path = join(dir, 'p.db');
    openStore({ path }).close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, ?, 0)').run('future');
    raw.close();
    const error = thrown(() => openStore({ path }));
    expect(isPortcullisError(error, 'STORE_NEWER_SCHEMA')).toBe(true);
    expect((error as Error).message).toContain('99');
    expect((error as Error).message).toContain(String(newestVersion()));
  });

  it('rolls a failing migration back, leaves the data and the version unchanged, and applies it once fixed', () => {
    const migrations = join(dir, 'migrations');
    copyMigrations(migrations);
    const path = join(dir, 'p.db');
    const store = openStore({ path, migrationsDir: migrations });
    store.ledger.put({
      upstream: 'files',
      tool: 'read',
      hash: 'h1',
      profile: 'p1',
      status: 'ACTIVE',
      firstSeenAt: 1,
      curatedAt: null,
      publishedAt: null,
      previousHash: null,
    });
    store.close();

    const next = newestVersion() + 1;
    const badName = `${String(next).padStart(3, '0')}_broken.sql`;
    const bad = join(migrations, badName);
    writeFileSync(
      bad,
      'CREATE TABLE half_done (x INTEGER);\nDELETE FROM tool_ledger;\nINSERT INTO nowhere VALUES (1);\n',
    );
    const error = thrown(() => openStore({ path, migrationsDir: migrations }));
    expect(isPortcullisError(error, 'STORE_MIGRATION_FAILED')).toBe(true);
    expect((error as Error).message).toContain(badName);

    const raw = new Database(path, { readonly: true });
    expect(raw.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({
      n: 0,
    });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM tool_ledger').get()).toEqual({ n: 1 });
    expect(raw.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({ v: next - 1 });
    raw.close();

    writeFileSync(bad, 'CREATE TABLE half_done (x INTEGER);\n');
    const fixed = openStore({ path, migrationsDir: migrations });
    expect(fixed.schemaVersion).toBe(next);
    expect(fixed.ledger.list()).toHaveLength(1);
    fixed.close();
  });

  it('moves every tool row of a version-6 ledger under kind tool, digests and definitions unchanged', () => {
    const migrations = join(dir, 'migrations');
    copyMigrations(migrations);
    rmSync(join(migrations, '007_ledger_kinds.sql'));
    const path = join(dir, 'p.db');
    const raw = new Database(path);
    expect(runMigrations(raw, migrations)).toBe(6);
    const row = {
      upstream: 'files',
      tool: 'read',
      hash: 'a'.repeat(64),
      profile: 'portcullis-tool/v1',
      status: 'AWAITING_REREVIEW',
      first_seen_at: 1,
      curated_at: 2,
      published_at: 3,
      previous_hash: 'b'.repeat(64),
      definition: '{"name":"read"}',
      approved_hash: 'b'.repeat(64),
      approved_definition: '{"name":"read","title":"x"}',
    };
    raw
      .prepare(
        `INSERT INTO tool_ledger (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
          .map((k) => `@${k}`)
          .join(', ')})`,
      )
      .run(row);
    raw.close();

    const store = openStore({ path });
    expect(store.schemaVersion).toBe(7);
    const before = {
      upstream: 'files',
      tool: 'read',
      hash: row.hash,
      profile: row.profile,
      status: 'AWAITING_REREVIEW' as const,
      firstSeenAt: 1,
      curatedAt: 2,
      publishedAt: 3,
      previousHash: row.previous_hash,
      definition: row.definition,
      approvedHash: row.approved_hash,
      approvedDefinition: row.approved_definition,
    };
    expect(store.ledger.list()).toEqual([before]);
    expect(store.ledger.get('files', 'read')).toEqual(before);
    // A prompt of the same name is its own record beside the tool's.
    store.ledger.put({ ...before, kind: 'prompt', hash: 'c'.repeat(64), status: 'ACTIVE' });
    expect(store.ledger.get('files', 'read')).toEqual(before);
    expect(store.ledger.get('files', 'read', 'prompt')).toMatchObject({
      kind: 'prompt',
      hash: 'c'.repeat(64),
    });
    expect(() => store.ledger.put({ ...before, kind: 'widget' as 'prompt' })).toThrow();
    store.close();
  });

  it('refuses two migration files with the same version', () => {
    const migrations = join(dir, 'migrations');
    copyMigrations(migrations);
    writeFileSync(join(migrations, '004_again.sql'), 'SELECT 1;');
    const error = thrown(() => openStore({ path: join(dir, 'p.db'), migrationsDir: migrations }));
    expect(isPortcullisError(error, 'STORE_MIGRATION_FAILED')).toBe(true);
    expect((error as Error).message).toContain('004_again.sql');
  });

  it('opens an in-memory store without touching the disk', () => {
    const store = openStore({ path: ':memory:' });
    expect(store.path).toBe(':memory:');
    expect(store.schemaVersion).toBe(newestVersion());
    expect(existsSync(':memory:')).toBe(false);
    store.close();
  });
});
