/**
 * Stages 3–5 of the call pipeline (docs/architecture.md): the approval rules, the tool's HITL mode, and asking a
 * person. Legacy clients are asked in-call (elicitation/create on the call's stream); modern clients are asked
 * with an input_required round trip, signalled here by ApprovalRequired and answered on the retried call.
 * Any failure to get a clear yes denies (fail closed).
 */
import {
  ANONYMOUS_PRINCIPAL,
  decideHitl,
  interpretElicitation,
  renderApprovalPrompt,
  type ApprovalRules,
  type ElicitationOutcome,
} from '../approval/index.ts';
import type { ApprovalChannel, HitlMode } from '../config/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import type { ApprovalRecord } from '../audit/index.ts';
import type { ApprovalOutcome, ApprovalStage, CallerContext } from './pipeline.ts';
import type { ExposedTool } from '../exposure/index.ts';
import { askConsole, usesConsole, type ConsoleApprovalDeps } from './console-approval.ts';
import { toolRiskOf } from './tool-risk.ts';

/** Thrown when a modern-era call needs a person's answer first; the downstream server turns it into input_required. */
export class ApprovalRequired extends Error {
  constructor(
    readonly prompt: string,
    readonly policyVersion: string,
  ) {
    super('approval required');
    this.name = 'ApprovalRequired';
  }
}

/** The effective risk the approval stages use; a tool the risk engine has not scored counts as L5 (fail closed). */
export function effectiveRiskOf(tool: ExposedTool): RiskLevel {
  return toolRiskOf(tool).effective;
}

/** What the stage needs. */
export interface ApprovalStageDeps {
  rules: ApprovalRules;
  threshold: RiskLevel;
  now: () => number;
  /** The prompt template of a tool (a Safe Tool Spec's humanInTheLoop.promptTemplate), if any. */
  promptTemplateOf?: (tool: ExposedTool) => string | undefined;
  /** The global approval channel (`approval.channel`); a rule's `channel` wins. Default: elicitation. */
  channel?: ApprovalChannel;
  /** The approval inbox of the console channel; without it every question goes to the client. */
  console?: ConsoleApprovalDeps;
}

/** Creates the approval stage. */
export function createApprovalStage(deps: ApprovalStageDeps): ApprovalStage {
  return {
    async decide(tool, args, caller): Promise<ApprovalOutcome> {
      const risk = effectiveRiskOf(tool);
      const rule = deps.rules.evaluate(
        {
          alias: tool.alias,
          origin: tool.origin,
          ...(tool.upstream === undefined ? {} : { upstream: tool.upstream }),
          tool: tool.upstreamTool ?? tool.source.name,
          risk,
          args,
          ...(caller.principal.id === ANONYMOUS_PRINCIPAL ? {} : { principal: caller.principal.id }),
          groups: caller.principal.groups,
          scopes: caller.principal.scopes,
          ...(caller.approvalVerified === true ? { counted: true } : {}),
        },
        deps.now(),
      );
      const hitl = decideHitl({
        mode: tool.hitl,
        effectiveRisk: risk,
        threshold: deps.threshold,
        ruleDecision: rule,
      });
      if (hitl.kind === 'run') return { kind: 'run', record: decided(tool.hitl, hitl.ruleId, 'allow') };
      if (hitl.kind === 'deny') {
        return {
          kind: 'deny',
          reason: hitl.reason,
          code: hitl.code,
          record: decided(tool.hitl, hitl.ruleId, 'deny'),
        };
      }
      const record: Pick<ApprovalRecord, 'mode' | 'ruleId'> = {
        mode: tool.hitl,
        ...(hitl.ruleId === undefined ? {} : { ruleId: hitl.ruleId }),
      };
      const prompt = renderApprovalPrompt(hitl.prompt ?? deps.promptTemplateOf?.(tool), tool.alias, args, {
        inputSchema: tool.definition.inputSchema,
        sensitive: deps.rules.watchedArgs(hitl.ruleId),
      });
      const channel = deps.rules.channelOf(hitl.ruleId) ?? deps.channel ?? 'elicitation';
      if (deps.console && usesConsole(channel, caller)) {
        const answer = await askConsole(deps.console, caller, {
          tool,
          args,
          risk,
          prompt,
          ruleId: hitl.ruleId,
          policyVersion: deps.rules.version,
        });
        const asked: ApprovalRecord = {
          ...record,
          decision: 'ask',
          channel: 'console',
          decidedAt: new Date(answer.kind === 'run' ? answer.at : deps.now()).toISOString(),
        };
        if (answer.kind === 'run') {
          return {
            kind: 'run',
            record: {
              ...asked,
              elicitation: 'accept',
              approver: answer.approver,
              approverReason: answer.reason,
            },
          };
        }
        return {
          kind: 'deny',
          reason: answer.reason,
          code: answer.code,
          record: {
            ...asked,
            elicitation: answer.elicitation,
            ...(answer.approver === undefined ? {} : { approver: answer.approver }),
            ...(answer.approverReason === undefined ? {} : { approverReason: answer.approverReason }),
          },
        };
      }
      const outcome = await askPerson(caller, prompt, deps.rules.version);
      const decidedAt = new Date(deps.now()).toISOString();
      const verdict = interpretElicitation(outcome);
      const asked: ApprovalRecord = { ...record, decision: 'ask', elicitation: outcome, decidedAt };
      if (verdict.kind === 'run') return { kind: 'run', record: asked };
      const code = outcome === 'invalid-state' ? 'APPROVAL_STATE_INVALID' : verdict.code;
      return { kind: 'deny', reason: verdict.reason, code, record: asked };
    },
  };
}

/**
 * The record of a call decided without asking, built whole: every call takes this path, and a spread followed by
 * more members (`{ ...record, decision }`) is V8's slow copy, some 0.5 µs.
 */
function decided(mode: HitlMode, ruleId: string | undefined, decision: 'allow' | 'deny'): ApprovalRecord {
  const record: ApprovalRecord = { mode, decision };
  if (ruleId !== undefined) record.ruleId = ruleId;
  return record;
}

async function askPerson(
  caller: CallerContext,
  prompt: string,
  policyVersion: string,
): Promise<ElicitationOutcome> {
  if (caller.approvalAnswer !== undefined) return caller.approvalAnswer;
  if (caller.askApproval) return caller.askApproval(prompt);
  if (caller.era === 'modern' && caller.canElicit) throw new ApprovalRequired(prompt, policyVersion);
  return 'unsupported';
}
