/** calls: the tools/call stages as small units — resolve, validate, approve, execute, mask, response scan, record — and the pipeline that runs them in order. */
export { createCallPipeline } from './pipeline.ts';
export type { CallPipeline, CallerContext, CallRecord } from './pipeline.ts';
export { createArgumentValidator } from './argument-validator.ts';
export { createApprovalStage, ApprovalRequired } from './approval-stage.ts';
export { ApprovalPending } from './console-approval.ts';

export { createRecordStage } from './record-stage.ts';
export { createResponseStage, screenSurfaceAnswer } from './response-stage.ts';
export type { ResponseStage } from './response-stage.ts';

export { createSamplingReviewer } from './sampling-relay.ts';

export { argumentLimitError } from './argument-limits.ts';
export { stripGatewayMeta, readUpstreamInputAsk, UpstreamInputRequired } from './upstream-results.ts';
export type { UpstreamInputAsk } from './upstream-results.ts';
export { toWireError } from './wire-errors.ts';
