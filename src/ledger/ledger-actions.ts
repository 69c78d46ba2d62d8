/** The operator's ledger actions (approve, revoke, restore) as the admin API and the CLI take them, with refusals a person can act on. */
import { PortcullisError } from '../errors/index.ts';
import type { Ledger } from './ledger-service.ts';
import { ledgerKey } from './ledger-review.ts';
import type { LedgerKind, LedgerRecord } from './types.ts';

/** An operator's action on one ledger record. */
export type LedgerAction = 'approve' | 'revoke' | 'restore';

const required = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.trim() === '')
    throw new PortcullisError('INVALID_INPUT', `"${name}" must be a non-empty string`);
  return value;
};

const KINDS: readonly LedgerKind[] = [
  'tool',
  'prompt',
  'resource',
  'resource-template',
  'server-instructions',
];

function kindOf(value: unknown): LedgerKind {
  if (value === undefined) return 'tool';
  const kind = KINDS.find((k) => k === value);
  if (kind === undefined)
    throw new PortcullisError('INVALID_INPUT', `"kind" must be one of ${KINDS.join(', ')} (default tool)`);
  return kind;
}

/**
 * Applies one ledger action named by `{ upstream, tool, kind?, hash? }` (`tool` is the item's name within its
 * kind, default `tool`); throws NOT_FOUND or INVALID_INPUT when refused.
 */
export function applyLedgerAction(
  ledger: Ledger,
  action: LedgerAction,
  input: Record<string, unknown>,
): { outcome: string; record: LedgerRecord } {
  const upstream = required(input.upstream, 'upstream');
  const name = required(input.tool, 'tool');
  const kind = kindOf(input.kind);
  const key = ledgerKey(upstream, name, kind);
  const result =
    action === 'approve'
      ? ledger.approve(upstream, name, typeof input.hash === 'string' ? input.hash : undefined, kind)
      : action === 'revoke'
        ? ledger.revoke(upstream, name, kind)
        : ledger.restore(upstream, name, kind);
  if (result.outcome === 'NOT_FOUND') {
    throw new PortcullisError('NOT_FOUND', `no fingerprint is recorded for ${key}`);
  }
  if (result.outcome === 'HASH_MISMATCH') {
    throw new PortcullisError(
      'INVALID_INPUT',
      `approve refused for ${key}: the stored definition changed again (stored ${result.record.hash}, ` +
        `you approved ${result.expectedHash}); review it again`,
    );
  }
  if (result.outcome === 'REVOKED' && action === 'approve') {
    throw new PortcullisError(
      'INVALID_INPUT',
      `approve refused for ${key}: it is revoked; restore it first, then approve its definition`,
    );
  }
  if (result.outcome === 'NOT_REVOKED') {
    throw new PortcullisError(
      'INVALID_INPUT',
      `restore refused for ${key}: it is ${result.record.status}, not revoked`,
    );
  }
  return { outcome: result.outcome, record: result.record };
}
