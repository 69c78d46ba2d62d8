/**
 * approval: deciding whether a tool call runs. The rule engine (allow, deny with reason, ask with prompt, rate
 * limits; fail closed), human-in-the-loop modes, prompt rendering and denial text, and the sealed, call-bound,
 * single-use approval state of the modern protocol era. Pure decisions; the small stateful parts take a clock.
 */
export { compileApprovalRules, ANONYMOUS_PRINCIPAL, RULES_FAILED_REASON } from './rules.ts';
export type { ApprovalCall, ApprovalRules, RuleDecision } from './rules.ts';
export { decideHitl, defaultHitlMode, interpretElicitation, DEFAULT_AUTO_APPROVE_THRESHOLD } from './hitl.ts';
export type { HitlInput, HitlDecision, ElicitationOutcome } from './hitl.ts';
export { renderApprovalPrompt, denialText, DEFAULT_APPROVAL_PROMPT } from './prompt.ts';
export type { ArgumentListingContext } from './argument-listing.ts';
export { createApprovalSealer, argsDigest } from './sealer.ts';
export type {
  ApprovalSealer,
  ApprovalSealerOptions,
  ApprovalBinding,
  SealInput,
  SealedApproval,
  OpenResult,
  OpenFailure,
} from './sealer.ts';
export {
  isParkedState,
  openApprovalState,
  openParkedState,
  sealApprovalState,
  sealParkedState,
} from './request-state.ts';
export type { RequestStateBinding } from './request-state.ts';
export { createSlidingWindowLimiter } from './rate-limiter.ts';
export type { SlidingWindowLimiter, RateVerdict } from './rate-limiter.ts';
