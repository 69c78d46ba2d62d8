/**
 * Asking through the approval inbox (the `console` channel, docs/rules/approval.md#r-hitl-5-approval-channels):
 * the call waits while operators see it in the admin API and approve or decline it. Legacy calls wait on their
 * open stream until the answer or the window's end; a modern call waits up to `modernHoldMs` per round and
 * otherwise ends the round with ApprovalPending (the downstream server answers `input_required` with a sealed
 * state naming the entry, and the client's retry waits again).
 */
import { argsDigest, type ApprovalInbox, type InboxEntry } from '../approval/index.ts';
import type { ApprovalChannel } from '../config/index.ts';
import type { ExposedTool } from '../exposure/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import type { ToolArguments } from '../shared/index.ts';
import type { CallerContext } from './pipeline.ts';

/** Thrown when a modern-era call still waits in the approval inbox; the downstream server answers input_required. */
export class ApprovalPending extends Error {
  constructor(
    readonly entryId: string,
    readonly policyVersion: string,
  ) {
    super('approval pending in the inbox');
    this.name = 'ApprovalPending';
  }
}

/** What the console channel needs. */
export interface ConsoleApprovalDeps {
  inbox: ApprovalInbox;
  modernHoldMs: number;
  /** Masks the arguments an operator sees. */
  maskArgs(args: ToolArguments): unknown;
}

/** How the inbox round ended for the approval stage. */
export type ConsoleOutcome =
  | { kind: 'run'; approver: string; reason: string; at: number }
  | {
      kind: 'deny';
      code: 'TOOL_DENIED' | 'APPROVAL_TIMEOUT' | 'APPROVAL_INBOX_FULL';
      reason: string;
      elicitation: 'decline' | 'timeout' | 'disconnect';
      approver?: string;
      approverReason?: string;
    };

/**
 * True when this call's question goes to the inbox: a retry that names an inbox entry, or the channel says
 * console, or `both` and the client cannot show a prompt. A retry answering an elicitation round stays there.
 */
export function usesConsole(channel: ApprovalChannel, caller: CallerContext): boolean {
  if (caller.consoleEntry !== undefined) return true;
  if (caller.approvalAnswer !== undefined) return false;
  return channel === 'console' || (channel === 'both' && caller.canElicit !== true);
}

/** The question an inbox entry shows. */
export interface ConsoleQuestion {
  tool: ExposedTool;
  args: ToolArguments;
  risk: RiskLevel;
  prompt: string;
  ruleId: string | undefined;
  policyVersion: string;
}

const EXPIRED = 'nobody answered in the approval inbox in time';

/** Puts the call in the inbox (or finds its entry on a modern retry) and waits for the operator's answer. */
export async function askConsole(
  deps: ConsoleApprovalDeps,
  caller: CallerContext,
  question: ConsoleQuestion,
): Promise<ConsoleOutcome> {
  const { tool, args } = question;
  const binding = { principal: caller.principal.id, alias: tool.alias, argsDigest: argsDigest(args) };
  let id = caller.consoleEntry;
  if (id === undefined) {
    const submitted = deps.inbox.submit({
      ...binding,
      upstream: tool.upstream ?? null,
      tool: tool.upstreamTool ?? tool.localToolId ?? tool.source.name,
      origin: tool.origin,
      risk: question.risk,
      arguments: deps.maskArgs(args),
      prompt: question.prompt,
      ...(question.ruleId === undefined ? {} : { ruleId: question.ruleId }),
      era: caller.era,
    });
    if (!submitted.ok) {
      return { kind: 'deny', code: 'APPROVAL_INBOX_FULL', reason: submitted.reason, elicitation: 'timeout' };
    }
    id = submitted.entry.id;
    announceWait(caller, submitted.entry);
  }
  const modern = caller.era === 'modern';
  const result = await deps.inbox.wait(id, binding, {
    signal: caller.signal,
    ...(modern ? { holdMs: deps.modernHoldMs } : {}),
  });
  switch (result.outcome) {
    case 'approved':
      return { kind: 'run', approver: result.actor, reason: result.reason, at: result.at };
    case 'declined':
      return {
        kind: 'deny',
        code: 'TOOL_DENIED',
        reason: `an operator declined this call: ${result.reason}`,
        elicitation: 'decline',
        approver: result.actor,
        approverReason: result.reason,
      };
    case 'expired':
      return { kind: 'deny', code: 'APPROVAL_TIMEOUT', reason: EXPIRED, elicitation: 'timeout' };
    case 'unknown':
      return {
        kind: 'deny',
        code: 'APPROVAL_TIMEOUT',
        reason: 'the approval request expired or is no longer held',
        elicitation: 'timeout',
      };
    case 'pending':
      if (modern && !caller.signal.aborted) throw new ApprovalPending(id, question.policyVersion);
      // A legacy caller (or a modern round) that went away: nobody is left to receive the answer.
      deps.inbox.withdraw(id);
      return {
        kind: 'deny',
        code: 'TOOL_DENIED',
        reason: 'the client disconnected before an operator answered',
        elicitation: 'disconnect',
      };
  }
}

/** Tells a client that sent a progress token why its call is quiet: it waits for an operator. */
function announceWait(caller: CallerContext, entry: InboxEntry): void {
  caller.progress?.({
    progress: 0,
    message: `waiting for an operator's approval in the Portcullis inbox (entry ${entry.id})`,
  });
}
