/**
 * approval: deciding whether a tool call runs. The rule engine (allow, deny with reason, ask with prompt, rate
 * limits; fail closed), human-in-the-loop modes, prompt rendering and denial text, and the sealed, call-bound,
 * single-use approval state of the modern protocol era. Pure decisions; the small stateful parts take a clock.
 */
export { compileApprovalRules, ANONYMOUS_PRINCIPAL } from './rules.ts';
export type { ApprovalRules } from './rules.ts';
export { decideHitl, interpretElicitation } from './hitl.ts';
export type { ElicitationOutcome } from './hitl.ts';
export { renderApprovalPrompt } from './prompt.ts';

export { createApprovalSealer, argsDigest } from './sealer.ts';
export type { ApprovalSealer } from './sealer.ts';
export { createApprovalInbox } from './inbox.ts';
export type { ApprovalInbox, InboxEntry, InboxEvent } from './inbox.ts';
export {
  isConsoleState,
  openConsoleState,
  sealConsoleState,
  isParkedState,
  openApprovalState,
  openParkedState,
  sealApprovalState,
  sealParkedState,
  isRelayState,
  openRelayState,
  sealRelayState,
} from './request-state.ts';
export type { RequestStateBinding } from './request-state.ts';
