import { describe, expect, it } from 'vitest';
import {
  approveFingerprint,
  checkFingerprint,
  isExposable,
  markFingerprintPublished,
  restoreFingerprint,
  revokeFingerprint,
} from './state-machine.ts';
import type { LedgerRecord, LedgerStatus } from './types.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const P = 'portcullis-tool/v1';

function stored(status: LedgerStatus, hash = A): LedgerRecord {
  return {
    upstream: 'web',
    tool: 'search',
    hash,
    profile: P,
    status,
    firstSeenAt: 100,
    curatedAt: 150,
    publishedAt: 160,
    previousHash: null,
  };
}

const seen = (hash: string, profile = P) => ({ upstream: 'web', tool: 'search', hash, profile });

describe('checkFingerprint (R-LEDGER-4)', () => {
  it('stores a first sighting as NEW and ACTIVE', () => {
    expect(checkFingerprint(undefined, seen(A), 200)).toEqual({
      outcome: 'NEW',
      record: {
        upstream: 'web',
        tool: 'search',
        hash: A,
        profile: P,
        status: 'ACTIVE',
        firstSeenAt: 200,
        curatedAt: null,
        publishedAt: null,
        previousHash: null,
        definition: null,
        approvedHash: A,
        approvedDefinition: null,
      },
    });
  });

  it.each<LedgerStatus>(['ACTIVE', 'AWAITING_REREVIEW', 'REVOKED'])(
    'UNCHANGED keeps a %s record as is',
    (status) => {
      const record = stored(status);
      const result = checkFingerprint(record, seen(A), 200);
      expect(result.outcome).toBe('UNCHANGED');
      expect(result.record).toBe(record);
    },
  );

  it.each<[LedgerStatus, LedgerStatus]>([
    ['ACTIVE', 'AWAITING_REREVIEW'],
    ['AWAITING_REREVIEW', 'AWAITING_REREVIEW'],
    ['REVOKED', 'REVOKED'],
  ])('MISMATCH on a %s record replaces the hash and becomes %s', (before, after) => {
    const result = checkFingerprint(stored(before), seen(B), 200);
    expect(result).toEqual({
      outcome: 'MISMATCH',
      previousHash: A,
      record: {
        ...stored(before),
        hash: B,
        status: after,
        previousHash: A,
        definition: null,
        // What was approved before the change: the stored digest when it was ACTIVE.
        approvedHash: before === 'ACTIVE' ? A : null,
        approvedDefinition: null,
      },
    });
  });

  it('treats a revert to the old definition as another mismatch', () => {
    const changed = checkFingerprint(stored('ACTIVE'), seen(B), 200).record;
    const reverted = checkFingerprint(changed, seen(A), 300);
    expect(reverted).toMatchObject({
      outcome: 'MISMATCH',
      previousHash: B,
      record: { hash: A, status: 'AWAITING_REREVIEW' },
    });
  });

  it('treats a profile change with the same digest text as a mismatch', () => {
    expect(checkFingerprint(stored('ACTIVE'), seen(A, 'portcullis-tool/v2'), 200)).toMatchObject({
      outcome: 'MISMATCH',
      record: { profile: 'portcullis-tool/v2', status: 'AWAITING_REREVIEW' },
    });
  });
});

describe('approveFingerprint', () => {
  it.each<[string, LedgerRecord | undefined, string | undefined, string, LedgerStatus | null]>([
    ['awaiting, no hash named', stored('AWAITING_REREVIEW'), undefined, 'APPROVED', 'ACTIVE'],
    ['awaiting, the stored hash named', stored('AWAITING_REREVIEW'), A, 'APPROVED', 'ACTIVE'],
    ['already active (idempotent)', stored('ACTIVE'), A, 'APPROVED', 'ACTIVE'],
    ['a stale hash named', stored('AWAITING_REREVIEW'), B, 'HASH_MISMATCH', 'AWAITING_REREVIEW'],
    ['revoked stays revoked', stored('REVOKED'), A, 'REVOKED', 'REVOKED'],
    ['no record', undefined, undefined, 'NOT_FOUND', null],
  ])('%s → %s', (_name, record, hash, outcome, status) => {
    const result = approveFingerprint(record, 500, hash);
    expect(result.outcome).toBe(outcome);
    if ('record' in result) expect(result.record.status).toBe(status);
    if (result.outcome === 'APPROVED') expect(result.record.curatedAt).toBe(500);
    if (result.outcome === 'HASH_MISMATCH') expect(result.expectedHash).toBe(B);
  });
});

describe('revokeFingerprint, markFingerprintPublished, isExposable', () => {
  it('revokes for good and stamps curatedAt', () => {
    const result = revokeFingerprint(stored('ACTIVE'), 700);
    expect(result).toEqual({
      outcome: 'REVOKED',
      record: { ...stored('ACTIVE'), status: 'REVOKED', curatedAt: 700 },
    });
    expect(revokeFingerprint(undefined, 700)).toEqual({ outcome: 'NOT_FOUND' });
  });

  it.each<[string, LedgerRecord | undefined, string, string | undefined]>([
    ['revoked → awaiting re-review', stored('REVOKED'), 'RESTORED', 'AWAITING_REREVIEW'],
    ['active is not revoked', stored('ACTIVE'), 'NOT_REVOKED', 'ACTIVE'],
    ['awaiting is not revoked', stored('AWAITING_REREVIEW'), 'NOT_REVOKED', 'AWAITING_REREVIEW'],
    ['no record', undefined, 'NOT_FOUND', undefined],
  ])('restores: %s', (_name, record, outcome, status) => {
    const result = restoreFingerprint(record, 750);
    expect(result.outcome).toBe(outcome);
    if ('record' in result) expect(result.record.status).toBe(status);
    if (result.outcome === 'RESTORED') expect(result.record.curatedAt).toBe(750);
  });

  it('never makes a revoked record ACTIVE through a check', () => {
    let record = stored('REVOKED');
    for (const hash of [B, A, B]) record = checkFingerprint(record, seen(hash), 800).record;
    expect(record.status).toBe('REVOKED');
  });

  it('stamps publishedAt and keeps the status', () => {
    expect(markFingerprintPublished(stored('AWAITING_REREVIEW'), 900)).toMatchObject({
      publishedAt: 900,
      status: 'AWAITING_REREVIEW',
    });
  });

  it.each<[LedgerRecord | undefined, boolean]>([
    [stored('ACTIVE'), true],
    [stored('AWAITING_REREVIEW'), false],
    [stored('REVOKED'), false],
    [undefined, false],
  ])('exposable %j → %s', (record, expected) => {
    expect(isExposable(record)).toBe(expected);
  });
});
