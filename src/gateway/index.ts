/**
 * gateway: the exposed-tool registry (aliases, compositions, withheld tools), the call pipeline of DESIGN.md §2,
 * the downstream MCP server every client talks to, parked modern-era calls, and the error-to-wire mapping.
 */
export { createToolRegistry, implicitCompositionId } from './registry.ts';
export type { ToolRegistry, RegistryDeps, GovernFunction } from './registry.ts';
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
export type { ArgumentValidator } from './argument-validator.ts';
export { createDownstreamServer, GATEWAY_SERVER_INFO } from './downstream-server.ts';
export type { GatewayCore, DownstreamIdentity } from './downstream-server.ts';
export { createParkedCalls } from './parked-calls.ts';
export type {
  ParkedCalls,
  ParkedCall,
  PendingInput,
  QuestionAsker,
  UpstreamQuestion,
} from './parked-calls.ts';
export { buildUpstreamSurface } from './prompts-resources.ts';
export type { UpstreamSurface, ExposedPrompt } from './prompts-resources.ts';
export { createResourceSubscriptions } from './resource-subscriptions.ts';
export type {
  ResourceSubscriptions,
  ResourceFollower,
  UpstreamSubscriber,
} from './resource-subscriptions.ts';
export { assignAliases, defaultAlias, sanitizeName, EXPOSED_NAME_PATTERN } from './aliases.ts';
export type { AliasRequest, AliasAssignment } from './aliases.ts';
export { toWireError, toolErrorResult } from './wire-errors.ts';
export type { WireError } from './wire-errors.ts';
export type { ExposedTool, ToolGovernance, LocalToolProvider, LocalTool, WithheldReason } from './types.ts';
export { createGovernance, serverContextOf, transportKind } from './governance.ts';
export type { Governance, GovernanceDeps } from './governance.ts';
export { createLocalTools, toToolResult } from './local-tools.ts';
export type { LocalTools, LocalToolsOptions } from './local-tools.ts';
export { reviewSampling, samplingTexts } from './sampling-review.ts';
export type { SamplingHit, SamplingReview, SamplingReviewDeps } from './sampling-review.ts';
