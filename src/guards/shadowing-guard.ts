/**
 * The shadowing guard (docs/rules/risk-model.md, rules R1–R3): a composition is refused when one of its
 * aliases collides with an alias of a composition enabled before it or inside itself (R1), when a member's
 * description names another server's tool (R2), or reaches outside its own server (R3). Compositions are
 * walked in order; a composition refused here or by an earlier guard does not count as enabled.
 */
import {
  checkAliasCollisions,
  checkCrossServerReferences,
  checkSelfScopeViolations,
  type CompositionSnapshot,
  type ShadowingViolation,
  type ToolMetadataIndex,
} from '../risk/index.ts';
import type { CompositionSubject } from './compositions.ts';
import { ALLOW, type Guard, type GuardDecision } from './contract.ts';

const findingOf = (violation: ShadowingViolation) => ({
  guard: 'shadowing' as const,
  code: violation.rule,
  message: `${violation.rule}: ${JSON.stringify(violation)}`,
});

/** The shadowing guard over the descriptions of every known upstream tool (exposure phase). */
export function createShadowingGuard(metadata: ToolMetadataIndex): Guard<CompositionSubject> {
  return {
    id: 'shadowing',
    phase: 'exposure',
    subject: 'tool',
    decide(compositions, isWithheld) {
      const enabled: CompositionSnapshot[] = [];
      return compositions.map((composition): GuardDecision => {
        const candidate = { id: composition.id, enabled: true, members: composition.members };
        const violations = [
          ...checkAliasCollisions([...enabled, candidate]),
          ...checkCrossServerReferences(composition.members, metadata),
          ...checkSelfScopeViolations(composition.members, metadata),
        ];
        if (violations.length > 0) {
          return { kind: 'withhold', reason: 'composition-refused', findings: violations.map(findingOf) };
        }
        if (!isWithheld(composition)) enabled.push(candidate);
        return ALLOW;
      });
    },
  };
}
