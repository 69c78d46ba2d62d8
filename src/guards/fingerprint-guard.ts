/**
 * The fingerprint guard (docs/rules/ledger.md): an upstream tool whose ledger record is not ACTIVE — its
 * definition changed and awaits re-review, or it was revoked — is withheld until an operator acts.
 */
import type { ExposedTool } from '../exposure/index.ts';
import { ALLOW, type Guard, type GuardDecision } from './contract.ts';

function decideOne(tool: ExposedTool): GuardDecision {
  const status = tool.governance?.fingerprint?.status;
  if (tool.origin !== 'upstream' || status === undefined || status === 'ACTIVE') return ALLOW;
  const revoked = status === 'REVOKED';
  return {
    kind: 'withhold',
    reason: revoked ? 'fingerprint-revoked' : 'fingerprint-awaiting-rereview',
    findings: [
      {
        guard: 'fingerprint',
        code: status,
        message: revoked
          ? `${tool.upstream}::${tool.upstreamTool} was revoked`
          : `the definition of ${tool.upstream}::${tool.upstreamTool} changed and awaits re-review`,
      },
    ],
  };
}

/** The fingerprint guard (exposure phase, tools). */
export const fingerprintGuard: Guard<ExposedTool> = {
  id: 'fingerprint',
  phase: 'exposure',
  subject: 'tool',
  decide: (tools) => tools.map(decideOne),
};
