/**
 * Human-in-the-loop decisions (docs/rules/approval.md#r-hitl-2-decision): given the
 * tool's HITL mode, its effective risk and the rules' verdict, run the call, ask a human, or deny it.
 */
import type { HitlMode } from '../config/index.ts';
import { isRiskAtLeast, isRiskLevel } from '../risk/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import type { RuleDecision } from './rules.ts';

/** The AUTO_APPROVE threshold when none is configured: calls at or above L3 are still asked. */
export const DEFAULT_AUTO_APPROVE_THRESHOLD: RiskLevel = 'L3';

/** The inputs of one HITL decision. */
export interface HitlInput {
  mode: HitlMode;
  /** The tool's effective risk level. */
  effectiveRisk: RiskLevel;
  /** The AUTO_APPROVE threshold; defaults to L3. */
  threshold?: RiskLevel;
  ruleDecision: RuleDecision;
}

/** What the gateway does with the call (a closed union). */
export type HitlDecision =
  | { kind: 'run'; ruleId?: string }
  | { kind: 'ask'; ruleId?: string; prompt?: string }
  | {
      kind: 'deny';
      code: 'TOOL_DENIED' | 'RATE_LIMITED';
      reason: string;
      ruleId?: string;
      retryAfterMs?: number;
    };

const MODES: readonly string[] = ['REQUIRED', 'AUTO_APPROVE', 'DISABLED'];

/**
 * Decides run, ask or deny. A rule deny (or rate limit) always wins; a rule ask asks in every mode; otherwise
 * REQUIRED asks, AUTO_APPROVE asks at or above the threshold, DISABLED runs. Bad input denies (fail closed).
 */
export function decideHitl(input: HitlInput): HitlDecision {
  const rule = input.ruleDecision;
  const threshold = input.threshold ?? DEFAULT_AUTO_APPROVE_THRESHOLD;
  if (!MODES.includes(input.mode) || !isRiskLevel(input.effectiveRisk) || !isRiskLevel(threshold)) {
    return { kind: 'deny', code: 'TOOL_DENIED', reason: 'the approval configuration is invalid' };
  }
  switch (rule.kind) {
    case 'deny':
      return { kind: 'deny', code: 'TOOL_DENIED', reason: rule.reason, ruleId: rule.ruleId };
    case 'rate-limited':
      return {
        kind: 'deny',
        code: 'RATE_LIMITED',
        reason: `rate limit reached (rule ${rule.ruleId}); retry in ${Math.ceil(rule.retryAfterMs / 1000)}s`,
        ruleId: rule.ruleId,
        retryAfterMs: rule.retryAfterMs,
      };
    case 'ask':
      return rule.prompt === undefined
        ? { kind: 'ask', ruleId: rule.ruleId }
        : { kind: 'ask', ruleId: rule.ruleId, prompt: rule.prompt };
    case 'allow':
      break;
    default:
      return { kind: 'deny', code: 'TOOL_DENIED', reason: 'approval rules failed' };
  }
  const ruleId = rule.ruleId === undefined ? {} : { ruleId: rule.ruleId };
  switch (input.mode) {
    case 'REQUIRED':
      return { kind: 'ask', ...ruleId };
    case 'AUTO_APPROVE':
      return isRiskAtLeast(input.effectiveRisk, threshold)
        ? { kind: 'ask', ...ruleId }
        : { kind: 'run', ...ruleId };
    case 'DISABLED':
      return { kind: 'run', ...ruleId };
  }
}

/** The HITL mode a Safe Tool Spec gets when it declares none: DISABLED at L0, REQUIRED above. */
export function defaultHitlMode(risk: RiskLevel): HitlMode {
  return risk === 'L0' ? 'DISABLED' : 'REQUIRED';
}

/** How asking a human ended. */
export type ElicitationOutcome =
  'accept' | 'decline' | 'cancel' | 'timeout' | 'unsupported' | 'disconnect' | 'invalid-state';

const DENIAL_REASONS: Record<Exclude<ElicitationOutcome, 'accept'>, string> = {
  decline: 'the user declined this call; do not retry it unless the user asks',
  cancel: 'the user dismissed the approval prompt',
  timeout: 'nobody answered the approval prompt in time',
  unsupported: 'this call needs human approval and the client cannot show approval prompts',
  disconnect: 'the client disconnected before the approval prompt was answered',
  'invalid-state': 'the approval answer was invalid, expired, already used or for other arguments',
};

/** Turns the end of an elicitation into run (accept only) or deny with a reason; anything unknown denies. */
export function interpretElicitation(
  outcome: ElicitationOutcome,
): { kind: 'run' } | { kind: 'deny'; code: 'TOOL_DENIED'; reason: string } {
  if (outcome === 'accept') return { kind: 'run' };
  const reason = Object.hasOwn(DENIAL_REASONS, outcome)
    ? DENIAL_REASONS[outcome]
    : 'the approval prompt ended without an answer';
  return { kind: 'deny', code: 'TOOL_DENIED', reason };
}
