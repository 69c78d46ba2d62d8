/**
 * The names Portcullis puts on spans, span events and metrics: the OpenTelemetry semantic conventions for MCP
 * and GenAI tools (docs/architecture.md), the risk context of docs/rules/risk-model.md, and Portcullis's own.
 * Declared here rather than imported because the upstream constants for MCP are experimental and moving.
 */

/** Span and metric attribute names. */
export const ATTR = {
  // OpenTelemetry semantic conventions (MCP, GenAI, JSON-RPC, network, error).
  mcpMethodName: 'mcp.method.name',
  mcpSessionId: 'mcp.session.id',
  mcpProtocolVersion: 'mcp.protocol.version',
  jsonrpcRequestId: 'jsonrpc.request.id',
  genAiToolName: 'gen_ai.tool.name',
  genAiOperationName: 'gen_ai.operation.name',
  genAiToolCallArguments: 'gen_ai.tool.call.arguments',
  genAiToolCallResult: 'gen_ai.tool.call.result',
  networkTransport: 'network.transport',
  errorType: 'error.type',
  rpcResponseStatusCode: 'rpc.response.status_code',
  // Risk context (docs/rules/risk-model.md).
  mcpCid: 'mcp.cid',
  mcpOrigin: 'mcp.origin',
  mcpCompositionAlias: 'mcp.composition.alias',
  mcpCompositionImplicit: 'mcp.composition.implicit',
  mcpCompositionHitl: 'mcp.composition.hitl',
  mcpUpstreamId: 'mcp.upstream.id',
  mcpUpstreamTransport: 'mcp.upstream.transport',
  mcpUpstreamTool: 'mcp.upstream.tool',
  mcpLocalToolId: 'mcp.local.tool_id',
  mcpRiskLevel: 'mcp.risk.level',
  mcpRiskFinal: 'mcp.risk.final',
  mcpRiskServerLevel: 'mcp.risk.server_level',
  mcpRiskPublishLevel: 'mcp.risk.publish_level',
  mcpRiskFloorTrigger: 'mcp.risk.floor_trigger',
  mcpRiskHitlMitigated: 'mcp.risk.hitl_mitigated',
  mcpRiskPoisoned: 'mcp.risk.poisoned',
  mcpFingerprintStatus: 'mcp.fingerprint.status',
  // Approval decision (span event `mcp.approval` and the approvals counter).
  approvalDecision: 'mcp.approval.decision',
  approvalRuleId: 'mcp.approval.rule_id',
  approvalMode: 'mcp.approval.mode',
  approvalElicitation: 'mcp.approval.elicitation',
  // Governance events.
  poisoningPatterns: 'mcp.poisoning.patterns',
  poisoningFields: 'mcp.poisoning.fields',
  ledgerPreviousHash: 'mcp.fingerprint.previous_hash',
  // The response scan of an answer (span event `mcp.response_scan`).
  responseScanAction: 'portcullis.response_scan.action',
  responseScanScannedChars: 'portcullis.response_scan.scanned_chars',
  responseScanUnscanned: 'portcullis.response_scan.unscanned',
  ledgerHash: 'mcp.fingerprint.hash',
  // A request the upstream put to the calling client (span event `mcp.upstream_request`).
  upstreamRequestKind: 'mcp.upstream_request.kind',
  upstreamRequestOutcome: 'mcp.upstream_request.outcome',
  // Portcullis's own.
  outcome: 'portcullis.outcome',
  principal: 'portcullis.principal',
  profile: 'portcullis.profile',
  // The caller's principal id (OpenTelemetry general attributes).
  enduserId: 'enduser.id',
} as const;

/** The value of `gen_ai.operation.name` on tool calls. */
export const EXECUTE_TOOL = 'execute_tool';

/** The `error.type` of a tool result with `isError: true` whose code is not known (semantic conventions). */
export const TOOL_ERROR = 'tool_error';

/** Span event names. */
export const EVENT = {
  approval: 'mcp.approval',
  poisoningHit: 'PoisoningHit',
  hashLedgerMismatch: 'HashLedgerMismatch',
  upstreamRequest: 'mcp.upstream_request',
  responseScan: 'mcp.response_scan',
} as const;

/** Structured log event names (docs/operations.md). */
export const LOG_EVENT = {
  toolStart: 'mcp.tool.start',
  toolDone: 'mcp.tool.done',
  toolCrash: 'mcp.tool.crash',
  poisoningHit: 'mcp.poisoning.hit',
  hashLedgerMismatch: 'mcp.fingerprint.mismatch',
  responseScan: 'mcp.response.scan',
} as const;

/** Metric names. */
export const METRIC = {
  operationDuration: 'mcp.server.operation.duration',
  toolCalls: 'portcullis.tool.calls',
  approvals: 'portcullis.approvals',
} as const;

/** Bucket boundaries (seconds) the semantic conventions advise for `mcp.server.operation.duration`. */
export const DURATION_BUCKETS_S = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The instrumentation scope name of every span and metric. */
export const SCOPE_NAME = 'portcullis';
