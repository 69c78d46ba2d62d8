/** The operator's ledger actions (approve, revoke, restore) as the admin API and the CLI take them, with refusals a person can act on. */
import { PortcullisError } from '../errors/index.ts';
import type { Ledger } from './ledger-service.ts';
import type { LedgerRecord } from './types.ts';

/** An operator's action on one ledger record. */
export type LedgerAction = 'approve' | 'revoke' | 'restore';

const required = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.trim() === '')
    throw new PortcullisError('INVALID_INPUT', `"${name}" must be a non-empty string`);
  return value;
};

/** Applies one ledger action named by `{ upstream, tool, hash? }`; throws NOT_FOUND or INVALID_INPUT when refused. */
export function applyLedgerAction(
  ledger: Ledger,
  action: LedgerAction,
  input: Record<string, unknown>,
): { outcome: string; record: LedgerRecord } {
  const upstream = required(input.upstream, 'upstream');
  const tool = required(input.tool, 'tool');
  const result =
    action === 'approve'
      ? ledger.approve(upstream, tool, typeof input.hash === 'string' ? input.hash : undefined)
      : action === 'revoke'
        ? ledger.revoke(upstream, tool)
        : ledger.restore(upstream, tool);
  if (result.outcome === 'NOT_FOUND') {
    throw new PortcullisError('NOT_FOUND', `no fingerprint is recorded for ${upstream}::${tool}`);
  }
  if (result.outcome === 'HASH_MISMATCH') {
    throw new PortcullisError(
      'INVALID_INPUT',
      `approve refused for ${upstream}::${tool}: the stored definition changed again (stored ${result.record.hash}, ` +
        `you approved ${result.expectedHash}); review it again`,
    );
  }
  if (result.outcome === 'REVOKED' && action === 'approve') {
    throw new PortcullisError(
      'INVALID_INPUT',
      `approve refused for ${upstream}::${tool}: it is revoked; restore it first, then approve its definition`,
    );
  }
  if (result.outcome === 'NOT_REVOKED') {
    throw new PortcullisError(
      'INVALID_INPUT',
      `restore refused for ${upstream}::${tool}: it is ${result.record.status}, not revoked`,
    );
  }
  return { outcome: result.outcome, record: result.record };
}
