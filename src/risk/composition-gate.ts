// The composition enable gate: members, max-risk cap and shadowing rules
// (docs/rules/risk-model.md#r-comp-6-max-risk-cap-and-the-enable-gate).
import { exceedsMaxRisk } from './compose.ts';
import type { RiskLevel } from './levels.ts';
import {
  checkAliasCollisions,
  checkCrossServerReferences,
  checkSelfScopeViolations,
  toolMetadataKey,
} from './shadowing.ts';
import type {
  ComposedTool,
  CompositionSnapshot,
  ShadowingViolation,
  ToolMetadataIndex,
} from './shadowing.ts';

/** A composition asking to be enabled (or the exposed-tools set on any exposure path, R-COMP-6). */
export interface CompositionCandidate {
  readonly id: string;
  readonly members: readonly ComposedTool[];
  readonly maxRiskLevel: RiskLevel;
}

/** Everything the gate reads. */
export interface CompositionGateInput {
  readonly candidate: CompositionCandidate;
  /** Final level of each member keyed by `toolMetadataKey(serverId, toolName)`; null or absent is skipped. */
  readonly memberLevels: ReadonlyMap<string, RiskLevel | null>;
  /** The compositions enabled now; the candidate is added as enabled (replacing one with the same id). */
  readonly enabledCompositions: readonly CompositionSnapshot[];
  readonly metadata: ToolMetadataIndex;
}

/** One reason the gate refuses. */
export type CompositionRefusal =
  | { readonly kind: 'no_members' }
  | {
      readonly kind: 'over_max_risk';
      readonly member: ComposedTool;
      readonly level: RiskLevel;
      readonly cap: RiskLevel;
    }
  | { readonly kind: 'shadowing'; readonly violation: ShadowingViolation };

/** The gate's decision, with every reason when it refuses. */
export type CompositionGateDecision =
  | { readonly outcome: 'enable' }
  | { readonly outcome: 'refuse'; readonly reasons: readonly CompositionRefusal[]; readonly summary: string };

function summarize(reasons: readonly CompositionRefusal[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) {
    const key = reason.kind === 'shadowing' ? reason.violation.rule : reason.kind;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => `${key}: ${count}`).join(', ');
}

/**
 * Decides whether a composition may be enabled (R-COMP-6): refuses with no members, with any
 * member above the cap, or with any R1 violation over "enabled + this one" or R2/R3 violation on this one.
 */
export function checkCompositionEnable(input: CompositionGateInput): CompositionGateDecision {
  const { candidate } = input;
  const reasons: CompositionRefusal[] = [];
  if (candidate.members.length === 0) reasons.push({ kind: 'no_members' });
  for (const member of candidate.members) {
    const level = input.memberLevels.get(toolMetadataKey(member.serverId, member.toolName));
    if (level !== null && level !== undefined && exceedsMaxRisk(level, candidate.maxRiskLevel)) {
      reasons.push({ kind: 'over_max_risk', member, level, cap: candidate.maxRiskLevel });
    }
  }
  const active = [
    ...input.enabledCompositions.filter((composition) => composition.id !== candidate.id),
    { id: candidate.id, enabled: true, members: candidate.members },
  ];
  const violations = [
    ...checkAliasCollisions(active),
    ...checkCrossServerReferences(candidate.members, input.metadata),
    ...checkSelfScopeViolations(candidate.members, input.metadata),
  ];
  for (const violation of violations) reasons.push({ kind: 'shadowing', violation });
  return reasons.length === 0
    ? { outcome: 'enable' }
    : { outcome: 'refuse', reasons, summary: summarize(reasons) };
}
