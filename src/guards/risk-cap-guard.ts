/**
 * The risk-cap guard (docs/rules/risk-model.md): a composition with a member whose effective risk is above
 * the composition's `maxRisk` is refused, so none of its members is exposed.
 */
import { exceedsMaxRisk } from '../risk/index.ts';
import type { CompositionSubject } from './compositions.ts';
import { ALLOW, type Guard, type GuardDecision } from './contract.ts';
import type { GuardFinding } from './contract.ts';

function decideOne(composition: CompositionSubject): GuardDecision {
  const findings: GuardFinding[] = [];
  for (const tool of composition.tools) {
    const level = tool.governance?.risk?.effective;
    if (level === undefined || !exceedsMaxRisk(level, composition.cap)) continue;
    findings.push({
      guard: 'riskCap',
      code: 'over_max_risk',
      message: `over_max_risk: ${tool.alias} is ${level}, above the cap ${composition.cap}`,
    });
  }
  return findings.length === 0 ? ALLOW : { kind: 'withhold', reason: 'composition-refused', findings };
}

/** The risk-cap guard (exposure phase, over compositions of tools). */
export const riskCapGuard: Guard<CompositionSubject> = {
  id: 'riskCap',
  phase: 'exposure',
  subject: 'tool',
  decide: (compositions) => compositions.map(decideOne),
};
