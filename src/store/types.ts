/**
 * The narrow repository interfaces of the store. Only the SQLite implementation exists today; a PostgreSQL one
 * must satisfy the same contracts, so that several gateway replicas can share one database later.
 */
import type { AuditJournals } from './audit-journal.ts';

/** When an upstream last connected and was last used, in ms since the epoch (null: never). */
export interface UpstreamActivity {
  id: string;
  lastConnectedAt: number | null;
  lastUsedAt: number | null;
}

/** Per-upstream connection and usage times. */
export interface UpstreamStore {
  /** Records a successful connection at `at` (ms epoch). */
  recordConnected(id: string, at: number): void;
  /** Records a tool call routed to the upstream at `at` (ms epoch); an earlier time never replaces a later one. */
  recordUsed(id: string, at: number): void;
  /** The upstream's state, or undefined when nothing was ever recorded for it. */
  get(id: string): UpstreamActivity | undefined;
}

/** Status of a fingerprinted tool (docs/rules/ledger.md#r-ledger-4-checking-an-observed-definition). */
export type LedgerStatus = 'ACTIVE' | 'AWAITING_REREVIEW' | 'REVOKED';

/** What a ledger row fingerprints: an upstream tool, or one item of its other model-visible surface. */
export type LedgerKind = 'tool' | 'prompt' | 'resource' | 'resource-template' | 'server-instructions';

/** One fingerprint ledger row. */
export interface LedgerRecord {
  upstream: string;
  /** Absent for a tool (every row recorded before surfaces were fingerprinted is one); part of the key. */
  kind?: LedgerKind;
  /** The item's key within its kind: a tool or prompt name, a resource URI, a URI template, `instructions`. */
  tool: string;
  hash: string;
  profile: string;
  status: LedgerStatus;
  firstSeenAt: number;
  curatedAt: number | null;
  publishedAt: number | null;
  previousHash: string | null;
  /** The canonical JSON the digest covers; null when recorded before definitions were stored, or over the cap. */
  definition?: string | null;
  /** The digest an operator (or the first sighting) last approved; null when not known. */
  approvedHash?: string | null;
  /** The canonical JSON of `approvedHash`; null when not stored. */
  approvedDefinition?: string | null;
}

/** The fingerprint ledger's persistence; the ledger domain owns the state machine. */
export interface LedgerStore {
  /** The record of one item (a tool unless `kind` says otherwise), or undefined. */
  get(upstream: string, tool: string, kind?: LedgerKind): LedgerRecord | undefined;
  /** Inserts or replaces the record of (upstream, kind, tool). */
  put(record: LedgerRecord): void;
  /** Every record, ordered by upstream, kind, then tool. */
  list(): LedgerRecord[];
}

/** The structured event types the gateway records. */
export const EVENT_TYPES = [
  'ServerRiskComputed',
  'ToolPublishRiskComputed',
  'FloorOverrideTriggered',
  'PoisoningHit',
  'HashLedgerMismatch',
  'CompositionLifecycle',
  'ApprovalDecided',
] as const;

/** One structured event type. */
export type EventType = (typeof EVENT_TYPES)[number];

/** An event to record; `payload` must be JSON-serializable. */
export interface NewEvent {
  type: EventType;
  /** Ms since the epoch. */
  at: number;
  /** What the event is about (an upstream id, a tool alias, a composition id). */
  subject?: string;
  payload: unknown;
}

/** A recorded event. */
export interface StoredEvent {
  id: number;
  type: EventType;
  at: number;
  subject: string | null;
  payload: unknown;
}

/** Filters for reading events; every field is optional and they are AND-ed. */
export interface EventQuery {
  type?: EventType;
  subject?: string;
  /** Only events at or after this time (ms epoch). */
  since?: number;
  /** At most this many events (default 100). */
  limit?: number;
}

/** Structured events, append and read. */
export interface EventStore {
  /** Records an event and returns its id. */
  append(event: NewEvent): number;
  /** Matching events, newest first. */
  query(filter?: EventQuery): StoredEvent[];
}

/** The seq and digest of the newest audit row: the point the next row chains to. */
export interface AuditChainHead {
  seq: number;
  digest: string;
}

/** The columns of an audit row that the caller supplies; `record` is the canonical JSON of the whole record. */
export interface AuditRowInput {
  id: string;
  time: string;
  timeMs: number;
  principal: string | null;
  alias: string;
  outcome: string;
  decision: string;
  record: string;
}

/** One stored audit row. */
export interface AuditRow extends AuditRowInput {
  seq: number;
  prevDigest: string;
  digest: string;
}

/** How `append` treats rows that are already stored. */
export interface AuditAppendOptions {
  /** Skip rows whose id is already in the log (a journal replayed twice) instead of failing. */
  skipExisting?: boolean;
}

/** Computes the chain link of a new row with this record text from the current head (undefined for the first row). */
export type AuditLinker = (
  head: AuditChainHead | undefined,
  record: string,
) => { prevDigest: string; digest: string };

/** Filters for reading audit rows; every field is optional and they are AND-ed. */
export interface AuditRowQuery {
  /** Only rows at or after this time (ms epoch). */
  sinceMs?: number;
  /** Only rows strictly before this time (ms epoch). */
  untilMs?: number;
  alias?: string;
  principal?: string;
  /** Only rows of calls made through this profile (the record's `profile`). */
  profile?: string;
  outcome?: string;
  decision?: string;
  /** `desc` (default): newest first, rows with seq < afterSeq. `asc`: oldest first, rows with seq > afterSeq. */
  order?: 'asc' | 'desc';
  /** Resume point: the seq of the last row of the previous page. */
  afterSeq?: number;
  /** At most this many rows (default 100). */
  limit?: number;
}

/** The audit log's persistence; the audit domain owns the record shape and the digests. */
export interface AuditStore {
  /**
   * Appends rows in one write transaction: reads the head, asks each row's `link` for its digests (chaining the
   * rows in order), inserts them with consecutive seqs and moves the head once. Durable once it returns.
   */
  append(rows: readonly AuditRowInput[], link: AuditLinker, options?: AuditAppendOptions): AuditRow[];
  /** The recorded chain head, or undefined when nothing was ever appended. */
  head(): AuditChainHead | undefined;
  /** Up to `limit` rows with seq > afterSeq, oldest first (for verification and export). */
  scan(afterSeq: number, limit: number): AuditRow[];
  /** The row whose digest is `digest`, if any. */
  findByDigest(digest: string): AuditRow | undefined;
  /** Matching rows (see AuditRowQuery for order and paging). */
  query(filter?: AuditRowQuery): AuditRow[];
}

/** An open store: the repositories over one database. */
export interface Store {
  upstreams: UpstreamStore;
  ledger: LedgerStore;
  events: EventStore;
  audit: AuditStore;
  /** The per-process audit journals beside the database file; absent for `:memory:`. */
  auditJournals?: AuditJournals;
  /** The database path, or `:memory:`. */
  readonly path: string;
  /** The highest applied migration version. */
  readonly schemaVersion: number;
  /**
   * A number that changes when another connection (another process, e.g. `portcullis ledger approve`) commits
   * to the database; the gateway polls it to pick up operator changes without a restart.
   */
  dataVersion(): number;
  /** Runs `work` in one transaction (nested: a savepoint), so many small writes commit once; a throw rolls back. */
  batch<T>(work: () => T): T;
  /** Closes the database; further calls are no-ops. */
  close(): void;
}
