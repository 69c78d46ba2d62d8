/** SQLite implementation of AuditStore: the rows of the hash-chained audit log and its head. */
import type Database from 'better-sqlite3';
import type { AuditChainHead, AuditLinker, AuditRow, AuditRowInput, AuditStore } from './types.ts';

interface AuditDbRow {
  seq: number;
  id: string;
  time: string;
  time_ms: number;
  principal: string | null;
  alias: string;
  outcome: string;
  decision: string;
  record: string;
  prev_digest: string;
  digest: string;
}

const COLUMNS = 'seq, id, time, time_ms, principal, alias, outcome, decision, record, prev_digest, digest';
const DEFAULT_LIMIT = 100;

/** Builds the audit repository over an open, migrated database. */
export function createAuditRepository(db: Database.Database): AuditStore {
  const selectHead = db.prepare('SELECT seq, digest FROM audit_head WHERE singleton = 1');
  // Positional parameters: binding eleven named ones reads them off an object, which costs more than the insert.
  const values = `INSERT INTO audit_log (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  const insert = db.prepare(values);
  // A journal replayed twice: the row whose id is stored already is left out (`changes` is 0), in the same
  // statement instead of a lookup before each insert. Only the id's uniqueness is waived; any other constraint
  // still fails the transaction.
  const insertNew = db.prepare(`${values} ON CONFLICT (id) DO NOTHING`);
  const moveHead = db.prepare(
    `INSERT INTO audit_head (singleton, seq, digest) VALUES (1, ?, ?)
     ON CONFLICT (singleton) DO UPDATE SET seq = excluded.seq, digest = excluded.digest`,
  );
  const scan = db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE seq > ? ORDER BY seq ASC LIMIT ?`);
  const byDigest = db.prepare(`SELECT ${COLUMNS} FROM audit_log WHERE digest = ? ORDER BY seq LIMIT 1`);
  const filters = `(@sinceMs IS NULL OR time_ms >= @sinceMs)
       AND (@untilMs IS NULL OR time_ms < @untilMs)
       AND (@alias IS NULL OR alias = @alias)
       AND (@principal IS NULL OR principal = @principal)
       AND (@profile IS NULL OR json_extract(record, '$.profile') = @profile)
       AND (@outcome IS NULL OR outcome = @outcome)
       AND (@decision IS NULL OR decision = @decision)`;
  const queryDesc = db.prepare(
    `SELECT ${COLUMNS} FROM audit_log
     WHERE (@afterSeq IS NULL OR seq < @afterSeq) AND ${filters}
     ORDER BY seq DESC LIMIT @limit`,
  );
  const queryAsc = db.prepare(
    `SELECT ${COLUMNS} FROM audit_log
     WHERE (@afterSeq IS NULL OR seq > @afterSeq) AND ${filters}
     ORDER BY seq ASC LIMIT @limit`,
  );

  const readHead = (): AuditChainHead | undefined => selectHead.get() as AuditChainHead | undefined;

  const append = db.transaction(
    (rows: readonly AuditRowInput[], link: AuditLinker, skipExisting: boolean): AuditRow[] => {
      let head = readHead();
      const stored: AuditRow[] = [];
      const statement = skipExisting ? insertNew : insert;
      for (const row of rows) {
        const seq = (head?.seq ?? 0) + 1;
        const { prevDigest, digest } = link(head, row.record);
        const { changes } = statement.run(
          seq,
          row.id,
          row.time,
          row.timeMs,
          row.principal,
          row.alias,
          row.outcome,
          row.decision,
          row.record,
          prevDigest,
          digest,
        );
        if (changes === 0) continue;
        // Object.assign, not `{ ...row, seq, prevDigest, digest }`: V8 copies a spread followed by more members on
        // its slow path, about 2.8 µs a row against 0.2, and this runs for every audited call. Rows are built by the
        // gateway (the audit log, or the journal reader field by field), so no `__proto__` key reaches a setter.
        stored.push(Object.assign({}, row, { seq, prevDigest, digest }));
        head = { seq, digest };
      }
      if (head && stored.length > 0) moveHead.run(head.seq, head.digest);
      return stored;
    },
  );

  return {
    // IMMEDIATE: the write lock is taken before the head is read, so two writers never chain to the same row.
    append: (rows, link, options) =>
      rows.length === 0 ? [] : append.immediate(rows, link, options?.skipExisting === true),
    head: readHead,
    scan(afterSeq, limit) {
      return (scan.all(afterSeq, limit) as AuditDbRow[]).map(toRow);
    },
    findByDigest(digest) {
      const row = byDigest.get(digest) as AuditDbRow | undefined;
      return row && toRow(row);
    },
    query(filter = {}) {
      const statement = filter.order === 'asc' ? queryAsc : queryDesc;
      const rows = statement.all({
        afterSeq: filter.afterSeq ?? null,
        sinceMs: filter.sinceMs ?? null,
        untilMs: filter.untilMs ?? null,
        alias: filter.alias ?? null,
        principal: filter.principal ?? null,
        profile: filter.profile ?? null,
        outcome: filter.outcome ?? null,
        decision: filter.decision ?? null,
        limit: filter.limit ?? DEFAULT_LIMIT,
      }) as AuditDbRow[];
      return rows.map(toRow);
    },
  };
}

function toRow(row: AuditDbRow): AuditRow {
  return {
    seq: row.seq,
    id: row.id,
    time: row.time,
    timeMs: row.time_ms,
    principal: row.principal,
    alias: row.alias,
    outcome: row.outcome,
    decision: row.decision,
    record: row.record,
    prevDigest: row.prev_digest,
    digest: row.digest,
  };
}
