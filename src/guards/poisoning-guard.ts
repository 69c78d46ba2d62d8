/**
 * The poisoning guard (docs/rules/poisoning.md): a tool whose model-visible text matched a poisoning pattern
 * is withheld under `enforce` (`poisoning: block`); under `advisory`, the default, it stays listed and the
 * matches are its findings (the risk model has already taken its HITL credit away).
 */
import type { ExposedTool } from '../exposure/index.ts';
import { ALLOW, type Guard, type GuardDecision } from './contract.ts';

function decideOne(tool: ExposedTool): GuardDecision {
  const scan = tool.governance?.poisoning;
  if (scan === undefined || scan.clean) return ALLOW;
  return {
    kind: 'withhold',
    reason: 'poisoning-blocked',
    findings: scan.matches.map((match) => ({
      guard: 'poisoning',
      code: match.patternId,
      message: `${match.patternId} at ${match.fieldPath}`,
    })),
  };
}

/** The poisoning guard (exposure phase, tools). */
export const poisoningGuard: Guard<ExposedTool> = {
  id: 'poisoning',
  phase: 'exposure',
  subject: 'tool',
  decide: (tools) => tools.map(decideOne),
};
