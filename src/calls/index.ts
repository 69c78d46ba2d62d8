/** calls: the tools/call stages as small units — resolve, validate, approve, execute, mask, record — and the pipeline that runs them in order. */
export { createCallPipeline, resolveTool, executeTool, maskResult } from './pipeline.ts';
export type {
  CallPipeline,
  CallerContext,
  PipelineDeps,
  ApprovalStage,
  ApprovalOutcome,
  CallRecord,
  RecordStage,
} from './pipeline.ts';
export { createArgumentValidator } from './argument-validator.ts';
export { createApprovalStage, ApprovalRequired, effectiveRiskOf } from './approval-stage.ts';
export type { ApprovalStageDeps } from './approval-stage.ts';
export { toAuditInput } from './audit-record.ts';
export { createRecordStage, createLastUsedThrottle, LAST_USED_INTERVAL_MS } from './record-stage.ts';
export type { RecordStageDeps } from './record-stage.ts';
export { createSamplingReviewer } from './sampling-relay.ts';
export type { SamplingReviewer } from './sampling-relay.ts';
export { toolRiskOf } from './tool-risk.ts';
export type { CallRisk } from './tool-risk.ts';
export type { ArgumentValidator } from './argument-validator.ts';
export { argumentLimitError } from './argument-limits.ts';
export { stripGatewayMeta } from './upstream-results.ts';
export { toWireError, toolErrorResult } from './wire-errors.ts';
export type { WireError } from './wire-errors.ts';
