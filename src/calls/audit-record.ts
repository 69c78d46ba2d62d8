/** Turns a finished call into its audit record (stage 8 of DESIGN.md §2). Pure. */
import type { AuditInput } from '../audit/index.ts';
import type { HitlMode } from '../config/index.ts';
import { effectiveRiskOf } from './approval-stage.ts';
import type { CallRecord } from './pipeline.ts';

/**
 * The audit input of a call. A name that resolved to no exposed tool is recorded as `unresolved` (with the
 * upstream of a withheld tool when `withheldUpstream` knows it), refused by the gateway.
 */
export function toAuditInput(
  record: CallRecord,
  traceId: string | null,
  withheldUpstream?: (alias: string) => string | undefined,
): AuditInput {
  const tool = record.tool;
  if (!tool) {
    const code = record.errorCode ?? 'UNKNOWN_TOOL';
    return {
      principal: record.caller.principal,
      sessionId: record.caller.sessionId ?? null,
      alias: record.alias,
      risk: null,
      approval: { mode: null, decision: 'deny', ruleId: `gateway:${code}` },
      arguments: record.args,
      outcome: 'ERROR',
      errorCode: code,
      durationMs: record.durationMs,
      traceId,
      origin: 'unresolved',
      upstreamId: withheldUpstream?.(record.alias) ?? null,
    };
  }
  const risk = tool.governance?.risk;
  // A call refused before the approval stage ran (e.g. invalid arguments) was denied by the gateway itself.
  const approval = record.approval ?? {
    decision: 'deny',
    ruleId: `gateway:${record.errorCode ?? 'refused'}`,
  };
  const serverLevel = risk?.server?.level;
  const publishLevel = risk?.publish?.level;
  const target =
    tool.origin === 'local'
      ? {
          origin: 'local' as const,
          toolId: tool.localToolId,
          category: tool.governance?.category ?? null,
          toolSafety: tool.governance?.toolSafety ?? null,
        }
      : {
          origin: 'upstream' as const,
          upstreamId: tool.upstream,
          upstreamTool: tool.upstreamTool,
        };
  return {
    principal: record.caller.principal,
    sessionId: record.caller.sessionId ?? null,
    alias: record.alias,
    risk: {
      final: effectiveRiskOf(tool),
      ...(serverLevel ? { server: serverLevel } : {}),
      ...(publishLevel ? { publish: publishLevel } : {}),
      floorTrigger: risk?.floorTrigger ?? null,
      hitlMitigated: risk?.hitlMitigated === true,
    },
    approval: {
      mode: (approval.mode as HitlMode | undefined) ?? tool.hitl,
      decision: (approval.decision as 'allow' | 'deny' | 'ask' | undefined) ?? 'allow',
      ...(typeof approval.ruleId === 'string' ? { ruleId: approval.ruleId } : {}),
      ...(typeof approval.elicitation === 'string'
        ? { elicitation: approval.elicitation as NonNullable<AuditInput['approval']['elicitation']> }
        : {}),
      ...(typeof approval.decidedAt === 'string' ? { decidedAt: approval.decidedAt } : {}),
    },
    ...(record.caller.upstreamRequests?.length
      ? { upstreamRequests: [...record.caller.upstreamRequests] }
      : {}),
    arguments: record.args,
    outcome: record.outcome,
    ...(record.errorCode === undefined ? {} : { errorCode: record.errorCode }),
    durationMs: record.durationMs,
    traceId,
    ...target,
  } as AuditInput;
}
