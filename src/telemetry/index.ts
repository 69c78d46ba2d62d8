/**
 * telemetry: structured JSON logs with masking, and OpenTelemetry traces and metrics (docs/architecture.md):
 * a SERVER span per MCP request with the risk context and approval decision, a child span per upstream call or
 * sandbox run, W3C trace context in `_meta`, the MCP operation-duration histogram, call and approval counters,
 * and the `mcp.tool.start|done|crash` log events. Nothing here starts an exporter or a timer unless an OTLP
 * endpoint (or a test exporter) is given.
 */
export { createLogger } from './logger.ts';
export type { Logger } from './logger.ts';
export { createTelemetry } from './telemetry.ts';
export type { Telemetry, TelemetryOptions } from './telemetry.ts';
export type { RequestTrace } from './facts.ts';

export { reportGovernanceEvent } from './governance-events.ts';

export { traceContextFromMeta } from './trace-context.ts';

export { executionTargetOf } from './describe.ts';

export { ATTR, EVENT } from './names.ts';
