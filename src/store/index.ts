/**
 * store: persistence of Portcullis. SQLite (better-sqlite3, WAL) is the embedded default and this folder is the
 * only importer of the driver; the forward-only migration runner over `migrations/NNN_name.sql`; and narrow
 * repositories (upstream state, fingerprint ledger, events, audit rows) that a PostgreSQL store can implement.
 */
export { openStore } from './open-store.ts';

export { EVENT_TYPES } from './types.ts';
export type { AuditJournal } from './audit-journal.ts';
export type {
  Store,
  UpstreamStore,
  LedgerKind,
  LedgerStatus,
  LedgerRecord,
  LedgerStore,
  EventType,
  NewEvent,
  EventStore,
  AuditChainHead,
  AuditRow,
  AuditRowInput,
  AuditAppendOptions,
  AuditRowQuery,
} from './types.ts';
