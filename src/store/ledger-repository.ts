/** SQLite implementation of LedgerStore. */
import type Database from 'better-sqlite3';
import type { LedgerKind, LedgerRecord, LedgerStatus, LedgerStore } from './types.ts';

interface LedgerRow {
  upstream: string;
  kind: LedgerKind;
  tool: string;
  hash: string;
  profile: string;
  status: LedgerStatus;
  first_seen_at: number;
  curated_at: number | null;
  published_at: number | null;
  previous_hash: string | null;
  definition: string | null;
  approved_hash: string | null;
  approved_definition: string | null;
}

const COLUMNS =
  'upstream, kind, tool, hash, profile, status, first_seen_at, curated_at, published_at, previous_hash, definition, ' +
  'approved_hash, approved_definition';

/** Builds the fingerprint-ledger repository over an open, migrated database. */
export function createLedgerRepository(db: Database.Database): LedgerStore {
  const select = db.prepare(
    `SELECT ${COLUMNS} FROM tool_ledger WHERE upstream = ? AND kind = ? AND tool = ?`,
  );
  const selectAll = db.prepare(`SELECT ${COLUMNS} FROM tool_ledger ORDER BY upstream, kind, tool`);
  const upsert = db.prepare(
    `INSERT INTO tool_ledger (${COLUMNS})
     VALUES (@upstream, @kind, @tool, @hash, @profile, @status, @firstSeenAt, @curatedAt, @publishedAt, @previousHash, @definition,
       @approvedHash, @approvedDefinition)
     ON CONFLICT (upstream, kind, tool) DO UPDATE SET
       hash = excluded.hash, profile = excluded.profile, status = excluded.status,
       first_seen_at = excluded.first_seen_at, curated_at = excluded.curated_at,
       published_at = excluded.published_at, previous_hash = excluded.previous_hash,
       definition = excluded.definition, approved_hash = excluded.approved_hash,
       approved_definition = excluded.approved_definition`,
  );
  return {
    get(upstream, tool, kind = 'tool') {
      const row = select.get(upstream, kind, tool) as LedgerRow | undefined;
      return row && toRecord(row);
    },
    put(record) {
      upsert.run({
        definition: null,
        approvedHash: null,
        approvedDefinition: null,
        ...record,
        kind: record.kind ?? 'tool',
      });
    },
    list() {
      return (selectAll.all() as LedgerRow[]).map(toRecord);
    },
  };
}

// A tool's record carries no kind, so tool records read exactly as before surfaces were fingerprinted.
function toRecord(row: LedgerRow): LedgerRecord {
  return {
    upstream: row.upstream,
    ...(row.kind === 'tool' ? {} : { kind: row.kind }),
    tool: row.tool,
    hash: row.hash,
    profile: row.profile,
    status: row.status,
    firstSeenAt: row.first_seen_at,
    curatedAt: row.curated_at,
    publishedAt: row.published_at,
    previousHash: row.previous_hash,
    definition: row.definition,
    approvedHash: row.approved_hash,
    approvedDefinition: row.approved_definition,
  };
}
