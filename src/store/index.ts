/**
 * store: persistence of Portcullis. SQLite (better-sqlite3, WAL) is the embedded default and this folder is the
 * only importer of the driver; the forward-only migration runner over `migrations/NNN_name.sql`; and narrow
 * repositories (upstream state, fingerprint ledger, events, audit rows) that a PostgreSQL store can implement.
 */
export { openStore } from './open-store.ts';
export type { OpenStoreOptions } from './open-store.ts';
export { listMigrations, defaultMigrationsDir } from './migrations.ts';
export type { Migration } from './migrations.ts';
export { EVENT_TYPES } from './types.ts';
export type { AuditJournal, AuditJournals, OrphanJournal } from './audit-journal.ts';
export type {
  Store,
  UpstreamStore,
  UpstreamActivity,
  LedgerStatus,
  LedgerRecord,
  LedgerStore,
  EventType,
  NewEvent,
  StoredEvent,
  EventQuery,
  EventStore,
  AuditChainHead,
  AuditRowInput,
  AuditRow,
  AuditLinker,
  AuditRowToLink,
  AuditAppendOptions,
  AuditRowQuery,
  AuditStore,
} from './types.ts';
