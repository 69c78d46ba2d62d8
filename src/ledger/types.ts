// The ledger's record and storage contract: one definition, owned by store/ (the SQLite repository implements
// LedgerStore; a PostgreSQL store will too). The ledger domain adds the state machine on top.
export type { LedgerKind, LedgerRecord, LedgerStatus, LedgerStore } from '../store/index.ts';
