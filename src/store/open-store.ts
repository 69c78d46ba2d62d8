/** Opens the SQLite database, applies migrations, and builds the repositories over it. */
import { resolve } from 'node:path';
import { createAuditJournals } from './audit-journal.ts';
import { createAuditRepository } from './audit-repository.ts';
import { MEMORY_PATH, openDatabase } from './database.ts';
import { asStoreCorrupt, checkIntegrity } from './integrity.ts';
import { createEventRepository } from './event-repository.ts';
import { createLedgerRepository } from './ledger-repository.ts';
import { defaultMigrationsDir, runMigrations } from './migrations.ts';
import { createUpstreamRepository } from './upstream-repository.ts';
import type { Store } from './types.ts';

/** Where the store lives. */
export interface OpenStoreOptions {
  /** A file path (parent folders are created) or `:memory:`. */
  path: string;
  /** The migrations folder; defaults to the package's `migrations/`. */
  migrationsDir?: string;
  /** How long a statement waits for another process's write lock, in ms (default 5000). */
  busyTimeoutMs?: number;
}

/** Opens (creating if needed), checks (quick_check) and migrates the database, and returns its repositories. */
export function openStore(options: OpenStoreOptions): Store {
  const path = options.path === MEMORY_PATH ? MEMORY_PATH : resolve(options.path);
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(path, options.busyTimeoutMs);
  } catch (error) {
    throw asStoreCorrupt(error, path) ?? error;
  }
  try {
    checkIntegrity(db, path);
    const schemaVersion = runMigrations(db, options.migrationsDir ?? defaultMigrationsDir());
    return {
      upstreams: createUpstreamRepository(db),
      ledger: createLedgerRepository(db),
      events: createEventRepository(db),
      audit: createAuditRepository(db),
      ...(path === MEMORY_PATH ? {} : { auditJournals: createAuditJournals(path) }),
      path,
      schemaVersion,
      dataVersion: () => (db.open ? (db.pragma('data_version', { simple: true }) as number) : -1),
      batch: (work) => db.transaction(work)(),
      close() {
        if (db.open) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw asStoreCorrupt(error, path) ?? error;
  }
}
