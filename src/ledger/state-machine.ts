// The fingerprint state machine as pure functions
// (docs/rules/ledger.md#r-ledger-4-checking-an-observed-definition).
import type { LedgerKind, LedgerRecord } from './types.ts';

/** A definition just observed from an upstream. */
export interface FingerprintObservation {
  readonly upstream: string;
  /** Absent or `tool` for a tool. */
  readonly kind?: LedgerKind | undefined;
  readonly tool: string;
  readonly hash: string;
  readonly profile: string;
  /** The canonical JSON the hash covers; null when not kept (another profile, or over the size cap). */
  readonly definition?: string | null;
}

/** The result of checking an observation against the stored record; `record` is what must be stored. */
export type FingerprintCheck =
  | { readonly outcome: 'NEW'; readonly record: LedgerRecord }
  | { readonly outcome: 'UNCHANGED'; readonly record: LedgerRecord }
  | { readonly outcome: 'MISMATCH'; readonly record: LedgerRecord; readonly previousHash: string };

/** The result of an operator's approval. */
export type ApproveResult =
  | { readonly outcome: 'APPROVED'; readonly record: LedgerRecord }
  | { readonly outcome: 'NOT_FOUND' }
  /** The operator named a hash that is no longer the stored one: they reviewed another definition. */
  | { readonly outcome: 'HASH_MISMATCH'; readonly record: LedgerRecord; readonly expectedHash: string }
  /** A revoked tool stays revoked. */
  | { readonly outcome: 'REVOKED'; readonly record: LedgerRecord };

/** The result of an operator's revocation. */
export type RevokeResult =
  { readonly outcome: 'REVOKED'; readonly record: LedgerRecord } | { readonly outcome: 'NOT_FOUND' };

/**
 * Checks an observed fingerprint (R-LEDGER-4). No record → NEW, stored ACTIVE. Same hash and
 * profile → UNCHANGED with the record as is (it may still await re-review). Otherwise MISMATCH: the new hash
 * replaces the stored one (so reverting upstream is another mismatch), the old one becomes `previousHash`,
 * and the status becomes AWAITING_REREVIEW, except that REVOKED stays REVOKED. A profile change counts as a
 * mismatch, since digests of different profiles cannot be compared.
 */
export function checkFingerprint(
  stored: LedgerRecord | undefined,
  observed: FingerprintObservation,
  now: number,
): FingerprintCheck {
  if (stored === undefined) {
    return {
      outcome: 'NEW',
      record: {
        upstream: observed.upstream,
        ...(observed.kind === undefined || observed.kind === 'tool' ? {} : { kind: observed.kind }),
        tool: observed.tool,
        hash: observed.hash,
        profile: observed.profile,
        status: 'ACTIVE',
        firstSeenAt: now,
        curatedAt: null,
        publishedAt: null,
        previousHash: null,
        definition: observed.definition ?? null,
        approvedHash: observed.hash,
        approvedDefinition: observed.definition ?? null,
      },
    };
  }
  if (stored.hash === observed.hash && stored.profile === observed.profile) {
    return { outcome: 'UNCHANGED', record: backfillDefinition(stored, observed.definition ?? null) };
  }
  // What was approved before this change: the stored definition when it was ACTIVE, else the last approval kept.
  const approved =
    stored.status === 'ACTIVE'
      ? { approvedHash: stored.hash, approvedDefinition: stored.definition ?? null }
      : { approvedHash: stored.approvedHash ?? null, approvedDefinition: stored.approvedDefinition ?? null };
  return {
    outcome: 'MISMATCH',
    previousHash: stored.hash,
    record: {
      ...stored,
      hash: observed.hash,
      profile: observed.profile,
      status: stored.status === 'REVOKED' ? 'REVOKED' : 'AWAITING_REREVIEW',
      previousHash: stored.hash,
      definition: observed.definition ?? null,
      ...approved,
    },
  };
}

/**
 * A record kept from before definitions were stored gets the definition the same digest covers (the hash
 * proves it is the one recorded); the approved one too when the approved digest is this one. Otherwise the
 * record is returned as is (the caller writes only a changed record).
 */
function backfillDefinition(stored: LedgerRecord, definition: string | null): LedgerRecord {
  if (definition === null || (stored.definition ?? null) !== null) return stored;
  const approvedHere =
    (stored.approvedDefinition ?? null) === null &&
    (stored.approvedHash === stored.hash ||
      ((stored.approvedHash ?? null) === null && stored.status === 'ACTIVE'));
  return {
    ...stored,
    definition,
    ...(approvedHere ? { approvedHash: stored.hash, approvedDefinition: definition } : {}),
  };
}

/**
 * Approves the stored definition: status ACTIVE, `curatedAt = now`. When `expectedHash` is given it must
 * equal the stored hash (the operator approves what they reviewed, not a later redefinition). A revoked
 * record is refused.
 */
export function approveFingerprint(
  stored: LedgerRecord | undefined,
  now: number,
  expectedHash?: string,
): ApproveResult {
  if (stored === undefined) return { outcome: 'NOT_FOUND' };
  if (stored.status === 'REVOKED') return { outcome: 'REVOKED', record: stored };
  if (expectedHash !== undefined && expectedHash !== stored.hash) {
    return { outcome: 'HASH_MISMATCH', record: stored, expectedHash };
  }
  return {
    outcome: 'APPROVED',
    record: {
      ...stored,
      status: 'ACTIVE',
      curatedAt: now,
      approvedHash: stored.hash,
      approvedDefinition: stored.definition ?? null,
    },
  };
}

/** Revokes a tool for good: status REVOKED, `curatedAt = now`. No check ever makes it ACTIVE again. */
export function revokeFingerprint(stored: LedgerRecord | undefined, now: number): RevokeResult {
  if (stored === undefined) return { outcome: 'NOT_FOUND' };
  return { outcome: 'REVOKED', record: { ...stored, status: 'REVOKED', curatedAt: now } };
}

/** The result of an operator's restore of a revoked tool. */
export type RestoreResult =
  | { readonly outcome: 'RESTORED'; readonly record: LedgerRecord }
  | { readonly outcome: 'NOT_FOUND' }
  | { readonly outcome: 'NOT_REVOKED'; readonly record: LedgerRecord };

/**
 * Lifts a revocation: REVOKED becomes AWAITING_REREVIEW (never ACTIVE at once), so the tool comes back only after
 * an operator approves the definition it has now; `curatedAt = now`.
 */
export function restoreFingerprint(stored: LedgerRecord | undefined, now: number): RestoreResult {
  if (stored === undefined) return { outcome: 'NOT_FOUND' };
  if (stored.status !== 'REVOKED') return { outcome: 'NOT_REVOKED', record: stored };
  return { outcome: 'RESTORED', record: { ...stored, status: 'AWAITING_REREVIEW', curatedAt: now } };
}

/** Records that the tool was published: `publishedAt = now`, status unchanged. */
export function markFingerprintPublished(stored: LedgerRecord, now: number): LedgerRecord {
  return { ...stored, publishedAt: now };
}

/** True when the record lets the tool be listed and called (only ACTIVE does; R-LEDGER-5). */
export function isExposable(record: LedgerRecord | undefined): boolean {
  return record !== undefined && record.status === 'ACTIVE';
}
