/**
 * The fingerprint guard (docs/rules/ledger.md): an upstream tool, prompt, resource, resource template or set of
 * server instructions whose ledger record is not ACTIVE — its definition changed and awaits re-review, or it was
 * revoked — is withheld until an operator acts.
 */
import type { ExposedTool } from '../exposure/index.ts';
import type { LedgerStatus } from '../ledger/index.ts';
import { ALLOW, type Guard, type GuardDecision, type GuardSubject } from './contract.ts';

/** The fingerprint guard over subjects whose ledger status and label (`upstream::name`) the callbacks read. */
export function createFingerprintGuard<S>(
  subject: GuardSubject,
  statusOf: (item: S) => LedgerStatus | undefined,
  labelOf: (item: S) => string,
): Guard<S> {
  const decideOne = (item: S): GuardDecision => {
    const status = statusOf(item);
    if (status === undefined || status === 'ACTIVE') return ALLOW;
    const revoked = status === 'REVOKED';
    return {
      kind: 'withhold',
      reason: revoked ? 'fingerprint-revoked' : 'fingerprint-awaiting-rereview',
      findings: [
        {
          guard: 'fingerprint',
          code: status,
          message: revoked
            ? `${labelOf(item)} was revoked`
            : `the definition of ${labelOf(item)} changed and awaits re-review`,
        },
      ],
    };
  };
  return { id: 'fingerprint', phase: 'exposure', subject, decide: (items) => items.map(decideOne) };
}

/** The fingerprint guard (exposure phase, tools); a local tool has no ledger record. */
export const fingerprintGuard: Guard<ExposedTool> = createFingerprintGuard<ExposedTool>(
  'tool',
  (tool) => (tool.origin === 'upstream' ? tool.governance?.fingerprint?.status : undefined),
  (tool) => (tool.origin === 'upstream' ? `${tool.upstream}::${tool.upstreamTool}` : tool.alias),
);
