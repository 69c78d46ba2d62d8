/** Turns a finished call into its audit record (the record stage, docs/architecture.md). Pure. */
import type { ApprovalRecord, AuditInput, AuditTarget } from '../audit/index.ts';
import type { CallRecord } from './pipeline.ts';
import { toolRiskOf } from './tool-risk.ts';

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
      principal: record.caller.principal.id,
      profile: record.caller.profile.name,
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
  const risk = toolRiskOf(tool);
  // A call refused before the approval stage ran (e.g. invalid arguments) was denied by the gateway itself.
  const approval: ApprovalRecord = record.approval ?? {
    mode: tool.hitl,
    decision: 'deny',
    ruleId: `gateway:${record.errorCode ?? 'refused'}`,
  };
  const target: AuditTarget =
    tool.origin === 'local'
      ? {
          origin: 'local',
          toolId: tool.localToolId,
          category: tool.governance?.category ?? null,
          toolSafety: tool.governance?.toolSafety ?? null,
        }
      : {
          origin: 'upstream',
          upstreamId: tool.upstream,
          upstreamTool: tool.upstreamTool,
        };
  return {
    principal: record.caller.principal.id,
    profile: record.caller.profile.name,
    sessionId: record.caller.sessionId ?? null,
    alias: record.alias,
    risk: {
      final: risk.effective,
      ...(risk.server === undefined ? {} : { server: risk.server }),
      ...(risk.publish === undefined ? {} : { publish: risk.publish }),
      floorTrigger: risk.floorTrigger,
      hitlMitigated: risk.hitlMitigated,
    },
    approval,
    ...(record.caller.upstreamRequests?.length
      ? { upstreamRequests: [...record.caller.upstreamRequests] }
      : {}),
    ...(record.responseScan === undefined ? {} : { responseScan: record.responseScan }),
    arguments: record.args,
    outcome: record.outcome,
    ...(record.errorCode === undefined ? {} : { errorCode: record.errorCode }),
    durationMs: record.durationMs,
    traceId,
    ...target,
  };
}
