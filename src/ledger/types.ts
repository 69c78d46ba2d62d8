// The ledger's record and storage contract (the SQLite repository in store/ implements LedgerStore).

/** Where a fingerprinted tool stands: exposable, withheld until re-approved, or withheld for good. */
export type LedgerStatus = 'ACTIVE' | 'AWAITING_REREVIEW' | 'REVOKED';

/** The stored fingerprint of one upstream tool. Times are epoch milliseconds. */
export interface LedgerRecord {
  upstream: string;
  tool: string;
  /** SHA-256 hex of the latest observed definition (a mismatch replaces it). */
  hash: string;
  /** The profile id that produced `hash`, e.g. `portcullis-tool/v1`. */
  profile: string;
  status: LedgerStatus;
  firstSeenAt: number;
  /** When an operator last approved (or revoked) this tool. */
  curatedAt: number | null;
  publishedAt: number | null;
  /** The hash this record held before the last mismatch. */
  previousHash: string | null;
}

/** Persistence of ledger records, keyed by (upstream, tool). */
export interface LedgerStore {
  get(upstream: string, tool: string): LedgerRecord | undefined;
  put(record: LedgerRecord): void;
  list(): LedgerRecord[];
}
