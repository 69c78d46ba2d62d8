/**
 * What the telemetry domain is told about requests and tool calls. Structural types on purpose: telemetry sits
 * below the gateway, so it names the fields it reads instead of importing gateway types; the gateway's
 * ExposedTool, CallerContext and CallRecord fit them as they are.
 */
import type { ApprovalRecord } from '../audit/index.ts';

/** The risk engine's result for a tool as telemetry reads it (a ToolRisk fits). */
export interface RiskFacts {
  readonly server?: unknown;
  readonly publish?: unknown;
  readonly final?: unknown;
  readonly effective?: unknown;
  readonly floorTrigger?: unknown;
  readonly hitlMitigated?: unknown;
  readonly poisoned?: unknown;
}

/** Risk, scan and fingerprint facts the governance stage attached to a tool (a ToolGovernance fits). */
export interface ToolGovernanceFacts {
  risk?: RiskFacts | undefined;
  poisoning?: { clean: boolean; matches: readonly unknown[] } | undefined;
  fingerprint?: { hash: string; profile: string; status: string } | undefined;
}

/** The tool a call reached (an ExposedTool fits). */
export interface ToolFacts {
  alias: string;
  origin: 'upstream' | 'local';
  upstream?: string | undefined;
  upstreamTool?: string | undefined;
  /** The composition that exposes the tool (implicit ones are `upstream:<id>`). */
  composition?: string | undefined;
  localToolId?: string | undefined;
  hitl?: string | undefined;
  governance?: ToolGovernanceFacts | undefined;
}

/** The trace of one request, handed to the code serving it instead of an async context (made by traceCall). */
export interface RequestTrace {
  readonly traceId: string;
}

/** Who is calling (a CallerContext fits). */
export interface CallerFacts {
  principal: { readonly id: string };
  /** The profile the call came through. */
  profile?: { readonly name: string } | undefined;
  sessionId?: string | undefined;
  era?: string | undefined;
  /** What the upstream asked this caller's client during the call, in order, and how each ended. */
  upstreamRequests?: readonly { kind: string; outcome: string }[] | undefined;
  /** The trace of the request the call runs in (else the active request, if any). */
  trace?: RequestTrace | undefined;
}

/** A call about to execute, for `toolStarted`. */
export interface ToolStartFacts {
  alias: string;
  tool?: ToolFacts | undefined;
  caller: CallerFacts;
  args?: unknown;
}

/** A finished call, for `toolFinished` (the gateway's CallRecord fits). */
export interface ToolCallFacts {
  alias: string;
  tool?: ToolFacts | undefined;
  args?: unknown;
  caller: CallerFacts;
  durationMs: number;
  outcome: 'OK' | 'ERROR';
  /** The stable error code when the outcome is ERROR. */
  errorCode?: string | undefined;
  /** How the approval stages decided the call. */
  approval?: ApprovalRecord | undefined;
}

/** One MCP request arriving on /mcp or stdio, for the SERVER span. */
export interface RequestSpanInfo {
  /** The JSON-RPC method, e.g. `tools/call`. */
  method: string;
  /** The tool or prompt name the request targets (part of the span name; `gen_ai.tool.name` for tools/call). */
  target?: string | undefined;
  sessionId?: string | undefined;
  /** The caller's principal id (`enduser.id`). */
  principal?: string | undefined;
  /** The profile the request came through (`portcullis.profile`). */
  profile?: string | undefined;
  protocolVersion?: string | undefined;
  requestId?: string | number | null | undefined;
  /** How the request arrived: `tcp` for HTTP, `pipe` for stdio (semantic conventions). */
  transport?: 'tcp' | 'pipe' | undefined;
  /** W3C trace context of the caller (from the request `_meta`, see traceContextFromMeta). */
  traceparent?: string | undefined;
  tracestate?: string | undefined;
}

/** Where a call executes, for the child span. */
export type ExecutionTarget =
  | { origin: 'upstream'; upstream: string; tool: string; transport?: string | undefined }
  | { origin: 'local'; toolId: string };

/** A poisoning scan hit on a tool definition. */
export interface PoisoningHitFacts {
  alias?: string | undefined;
  upstream?: string | undefined;
  tool: string;
  /** Pattern ids that matched. */
  patterns: readonly string[];
  /** Definition fields the matches were found in. */
  fields?: readonly string[] | undefined;
}

/** A tool definition whose fingerprint no longer matches the ledger (a possible rug pull). */
export interface LedgerMismatchFacts {
  upstream: string;
  tool: string;
  previousHash?: string | undefined;
  hash: string;
  /** The ledger status after the mismatch, e.g. `AWAITING_REREVIEW`. */
  status?: string | undefined;
}

/** What the response scan found in one answer (a tool result, a prompt, a resource) worth reporting. */
export interface ResponseScanFacts {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The tool alias, prompt name or resource URI the client asked for. */
  target: string;
  upstream?: string | undefined;
  /** `withheld` (enforce, or a failed scan), `annotated` (advisory hit), `passed` (clean, but not all scanned). */
  action: 'withheld' | 'annotated' | 'passed';
  /** Pattern ids that matched, and the fields of the answer they matched in. */
  patterns: readonly string[];
  fields: readonly string[];
  scannedChars: number;
  /** Why part of the answer was not scanned (`char-cap`, `value-cap`); absent when all was. */
  unscanned?: string | undefined;
  /** The trace of the request that answers (else the active request, if any); not logged. */
  trace?: RequestTrace | undefined;
}
