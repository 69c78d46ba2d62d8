/** Appending, querying and exporting audit records over the store's audit rows. */
import { PortcullisError } from '../errors/index.ts';
import type {
  AuditAppendOptions,
  AuditChainHead,
  AuditRow,
  AuditRowInput,
  AuditRowQuery,
  Store,
} from '../store/index.ts';
import { canonicalJson } from '../shared/index.ts';
import { GENESIS_DIGEST, linkDigest } from './chain.ts';
import { jsonShapeExcess, MAX_JSON_DEPTH, MAX_JSON_NODES } from './json-shape.ts';
import { recordId } from './record-id.ts';
import type { AuditDecision, AuditEntry, AuditInput, AuditRecord } from './record.ts';

/** Masks secrets in a JSON-like value (the sandbox masker satisfies it). */
export interface AuditMasker {
  maskDeep<T>(value: T): T;
}

/** Options of the audit log. */
export interface AuditLogOptions {
  /** Ms since the epoch; defaults to Date.now. */
  clock?: () => number;
  /** Applied to every record before it is written, as a last line of defence for secrets. */
  masker?: AuditMasker;
}

/** Filters for reading records; every field is optional and they are AND-ed. */
export interface AuditQuery {
  /** ISO time: records at or after it. */
  since?: string;
  /** ISO time: records strictly before it. */
  until?: string;
  alias?: string;
  principal?: string;
  /** The profile the call came through. */
  profile?: string;
  outcome?: 'OK' | 'ERROR' | 'INPUT_REQUIRED';
  decision?: AuditDecision;
  /** `desc` (default) newest first, `asc` oldest first. */
  order?: 'asc' | 'desc';
  /** At most this many records (default 100, at most 1000). */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
}

/** One page of records. */
export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `cursor` to read the next page; null when this page is the last. */
  nextCursor: string | null;
}

/** A record made ready to store: masked, with its id, time and canonical text fixed, and its row. */
export interface PreparedAuditRecord {
  record: AuditRecord;
  row: AuditRowInput;
}

/** What a journal recovery found and stored. */
export interface JournalRecovery {
  /** Journals of processes that are gone. */
  journals: number;
  /** Rows that were not in the log yet and are now. */
  appended: number;
  /** Lines that were not a row (skipped). */
  unreadableLines: number;
}

/** The audit log of one store. */
export interface AuditLog {
  /** Writes one record (synchronously, durable on return) and returns it as stored. */
  append(input: AuditInput): AuditEntry;
  /** Writes records in one transaction, chained in order (all or none; durable on return). */
  appendMany(inputs: readonly AuditInput[]): AuditEntry[];
  /** Masks a record and fixes its id, time and canonical text, without storing it. */
  prepare(input: AuditInput): PreparedAuditRecord;
  /** Stores the rows of prepared records in one transaction, chained in order; `skipExisting` skips ids already stored. */
  appendPrepared(rows: readonly AuditRowInput[], options?: AuditAppendOptions): void;
  /** Stores the rows that processes which are gone left in their journals, then deletes those journals. */
  recoverJournals(): JournalRecovery;
  /** Reads one page of matching records. */
  query(filter?: AuditQuery): AuditPage;
  /** Writes every matching record, oldest first, as one JSON line each; returns how many were written. */
  exportJsonl(filter: Omit<AuditQuery, 'order' | 'limit' | 'cursor'>, write: (line: string) => void): number;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const EXPORT_PAGE = 500;
/** Stands in for arguments (or a toolSafety block) that cannot be written as JSON. */
const UNSERIALIZABLE = '[not serializable]';
/** Stands in for arguments beyond the JSON shape bounds (they could not be read back or exported as JSON). */
const BEYOND_BOUNDS = `[not recorded: nested deeper than ${MAX_JSON_DEPTH} levels or more than ${MAX_JSON_NODES} values]`;

/** The record with arguments beyond the shape bounds replaced by a note. */
function withinBounds(record: AuditRecord): AuditRecord {
  const excess = jsonShapeExcess(record.arguments);
  if (excess === undefined) return record;
  return { ...record, arguments: excess === 'not-json' ? UNSERIALIZABLE : BEYOND_BOUNDS };
}

/** Builds the audit log over an open store. */
export function createAuditLog(store: Store, options: AuditLogOptions = {}): AuditLog {
  const clock = options.clock ?? Date.now;
  const masker = options.masker;

  const prepare = (input: AuditInput): PreparedAuditRecord => {
    // A time the log makes itself needs no parsing back; a given one is checked.
    const timeMs = input.time === undefined ? new Date(clock()).getTime() : parseTime(input.time, 'time');
    const time = input.time ?? new Date(timeMs).toISOString();
    // Object.assign, not `{ ...input, id, time }`: V8 copies a spread followed by more members on its slow path,
    // about 2 µs for a record's dozen fields against 0.3. The input's keys are the gateway's own (AuditInput),
    // so no `__proto__` key can reach the target's setter.
    const built = Object.assign({}, input, { id: input.id ?? recordId(timeMs), time }) as AuditRecord;
    let record: AuditRecord;
    let text: string;
    try {
      record = masker ? masker.maskDeep(withinBounds(built)) : withinBounds(built);
      text = canonicalJson(record, 'stringify');
    } catch {
      // The call has happened: record it even when its free-form parts cannot be masked or written as JSON.
      // What is left was built by the gateway (small and flat), so masking and writing it cannot fail the same way.
      const minimal = {
        ...built,
        arguments: UNSERIALIZABLE,
        ...(built.origin === 'local' ? { toolSafety: UNSERIALIZABLE } : {}),
      } as AuditRecord;
      record = masker ? masker.maskDeep(minimal) : minimal;
      text = canonicalJson(record, 'stringify');
    }
    const row = {
      id: record.id,
      time: record.time,
      timeMs,
      principal: record.principal,
      alias: record.alias,
      outcome: record.outcome,
      decision: record.approval.decision,
      record: text,
    };
    return { record, row };
  };

  const appendPrepared: AuditLog['appendPrepared'] = (rows, options) => {
    store.audit.append(rows, linkRow, options);
  };

  const recoverJournals = (): JournalRecovery => {
    const found = { journals: 0, appended: 0, unreadableLines: 0 };
    for (const orphan of store.auditJournals?.orphans() ?? []) {
      found.appended += store.audit.append(orphan.rows, linkRow, { skipExisting: true }).length;
      found.unreadableLines += orphan.unreadableLines;
      found.journals += 1;
      store.auditJournals?.remove(orphan.file);
    }
    return found;
  };

  const appendMany = (inputs: readonly AuditInput[]): AuditEntry[] => {
    const prepared = inputs.map(prepare);
    const rows = store.audit.append(
      prepared.map((p) => p.row),
      linkRow,
    );
    // The records just written are the stored records: no need to parse them back.
    return rows.map((row, i) => ({
      seq: row.seq,
      prevDigest: row.prevDigest,
      digest: row.digest,
      record: (prepared[i] as { record: AuditRecord }).record,
    }));
  };

  const append = (input: AuditInput): AuditEntry => appendMany([input])[0] as AuditEntry;

  const query = (filter: AuditQuery = {}): AuditPage => {
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(filter.limit ?? DEFAULT_LIMIT)));
    const rows = store.audit.query({ ...rowFilter(filter), order: filter.order ?? 'desc', limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      entries: page.map(toEntry),
      nextCursor: rows.length > limit && last ? String(last.seq) : null,
    };
  };

  const exportJsonl: AuditLog['exportJsonl'] = (filter, write) => {
    let count = 0;
    let afterSeq = 0;
    for (;;) {
      const rows = store.audit.query({ ...rowFilter(filter), order: 'asc', afterSeq, limit: EXPORT_PAGE });
      for (const row of rows) {
        write(`${entryJsonLine(toEntry(row))}\n`);
        count += 1;
      }
      const last = rows.at(-1);
      if (!last || rows.length < EXPORT_PAGE) return count;
      afterSeq = last.seq;
    }
  };

  return { append, appendMany, prepare, appendPrepared, recoverJournals, query, exportJsonl };
}

/** Links a row with this record text to the chain head it is appended after. */
function linkRow(head: AuditChainHead | undefined, text: string): { prevDigest: string; digest: string } {
  const prevDigest = head?.digest ?? GENESIS_DIGEST;
  return { prevDigest, digest: linkDigest(prevDigest, text) };
}

/**
 * One export line: the record's fields plus `seq`, `prevDigest` and `digest`. Removing those three and taking
 * the canonical JSON of the rest gives the text the digest covers: digest = sha256(prevDigest + text).
 */
export function entryJsonLine(entry: AuditEntry): string {
  return JSON.stringify({
    seq: entry.seq,
    ...entry.record,
    prevDigest: entry.prevDigest,
    digest: entry.digest,
  });
}

function rowFilter(filter: AuditQuery): AuditRowQuery {
  const out: AuditRowQuery = {};
  if (filter.since !== undefined) out.sinceMs = parseTime(filter.since, 'since');
  if (filter.until !== undefined) out.untilMs = parseTime(filter.until, 'until');
  if (filter.alias !== undefined) out.alias = filter.alias;
  if (filter.principal !== undefined) out.principal = filter.principal;
  if (filter.profile !== undefined) out.profile = filter.profile;
  if (filter.outcome !== undefined) out.outcome = filter.outcome;
  if (filter.decision !== undefined) out.decision = filter.decision;
  if (filter.cursor !== undefined) out.afterSeq = parseCursor(filter.cursor);
  return out;
}

function parseTime(text: string, field: string): number {
  // A date, or a date-time with an explicit zone: Date.parse alone accepts loose and local-time forms.
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
  const ms = iso.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) {
    throw new PortcullisError('INVALID_INPUT', `${field} is not an ISO 8601 time: ${JSON.stringify(text)}`, {
      reason: 'bad-time',
    });
  }
  return ms;
}

function parseCursor(cursor: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(cursor)) {
    throw new PortcullisError('INVALID_INPUT', `not an audit cursor: ${JSON.stringify(cursor)}`, {
      reason: 'bad-cursor',
    });
  }
  return Number(cursor);
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    prevDigest: row.prevDigest,
    digest: row.digest,
    record: JSON.parse(row.record) as AuditRecord,
  };
}
