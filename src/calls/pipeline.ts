/**
 * The call pipeline (docs/architecture.md, "The request path of a `tools/call`"), as named stages: resolve → door
 * limits → validate → approval strategy → HITL mode → ask → execute → mask → response scan → record. Each stage is a small function; the approval and record stages are seams
 * filled by the approval and audit domains (a stage with nothing configured passes the call on).
 */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { ElicitationOutcome } from '../approval/index.ts';
import type { ApprovalRecord, AuditResponseScan, AuditUpstreamRequest } from '../audit/index.ts';
import { executionTargetOf, type RequestTrace, type Telemetry } from '../telemetry/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { Masker } from '../secrets/index.ts';
import type {
  CallerCapabilities,
  ElicitationAsker,
  SamplingAsker,
  Supervisor,
  UpstreamRetry,
} from '../upstream/index.ts';
import { argumentLimitError, refusedArgumentsNote, resultLimitError } from './argument-limits.ts';
import type { ArgumentValidator } from './argument-validator.ts';
import type { Profile, ToolRegistry } from '../exposure/index.ts';
import type { Principal } from '../identity/index.ts';
import {
  acceptUpstreamToolResult,
  UpstreamInputRequired,
  type UpstreamInputAsk,
} from './upstream-results.ts';
import type { ResponseStage } from './response-stage.ts';
import type { ExposedTool, LocalToolProvider } from '../exposure/index.ts';
import { toWireError, type WireError } from './wire-errors.ts';
import type { Era, McpMeta, ToolArguments } from '../shared/index.ts';

/** Who is calling and how to talk back to them during the call. */
export interface CallerContext {
  principal: Principal;
  /** The profile the call came through: a tool outside it is unknown to this caller. */
  profile: Pick<Profile, 'name' | 'hasTool'>;
  sessionId?: string;
  era: Era;
  signal: AbortSignal;
  /** Relays upstream progress to the client (token already mapped to the client's own). */
  progress?: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
  /** Routes upstream-initiated elicitation to this client; absent when the client cannot elicit. */
  askClient?: ElicitationAsker;
  /** Routes upstream sampling to this client (already reviewed); absent when the client cannot sample. */
  askSampling?: SamplingAsker;
  /** Where the askers note how each upstream request to this client ended (for the audit record). */
  upstreamRequests?: AuditUpstreamRequest[];
  /** `_meta` to forward upstream (W3C trace context). */
  meta?: McpMeta;
  /** The trace of the request the call runs in, for its spans, events and audit record. */
  trace?: RequestTrace | undefined;
  /** Relays an upstream log message to the client (masked on the way). */
  log?: (message: { level: string; logger?: string | undefined; data: unknown }) => void;
  /** True when the client declared the elicitation capability. */
  canElicit?: boolean;
  /** Legacy era: asks the person on the call's stream; resolves with how the prompt ended. */
  askApproval?: (prompt: string) => Promise<ElicitationOutcome>;
  /** Modern era, retried call: the person's answer to the approval prompt (already checked against the seal). */
  approvalAnswer?: ElicitationOutcome;
  /**
   * True only when `approvalAnswer` came with a sealed state that opened for this exact call (once): that retry
   * was counted in its first round, so rate limits skip it. Any other requestState is counted like a new call.
   */
  approvalVerified?: boolean;
  /** Modern era, retried call: the approval-inbox entry its sealed state names (already checked against the seal). */
  consoleEntry?: string;
  /**
   * Modern era: what the client can answer; an upstream's `input_required` then ends the round as
   * `UpstreamInputRequired` instead of failing the call.
   */
  relayInput?: CallerCapabilities;
  /** Modern era, retry of a relayed upstream round (sealed state opened): what goes back to that upstream. */
  upstreamRetry?: UpstreamRetry & { upstream: string };
  /**
   * Modern era: turns an upstream's input round into the gateway's own `input_required` for this client, or throws
   * the refusal (UPSTREAM_ERROR); run before the round is recorded, so a refused round is recorded as an error.
   */
  relayRound?: (ask: UpstreamInputAsk) => InputRequiredResult;
}

/** The outcome of the approval stages for one call. */
export type ApprovalOutcome =
  | { kind: 'run'; record: ApprovalRecord }
  | {
      kind: 'deny';
      reason: string;
      code?:
        | 'TOOL_DENIED'
        | 'RATE_LIMITED'
        | 'APPROVAL_STATE_INVALID'
        | 'APPROVAL_TIMEOUT'
        | 'APPROVAL_INBOX_FULL';
      record: ApprovalRecord;
    };

/** The approval seam (rules, HITL, asking); absent = allow everything. */
export interface ApprovalStage {
  decide(tool: ExposedTool, args: ToolArguments, caller: CallerContext): Promise<ApprovalOutcome>;
}

/** One finished call, for the record stage. */
export interface CallRecord {
  tool: ExposedTool | undefined;
  alias: string;
  args: unknown;
  caller: CallerContext;
  startedAt: number;
  durationMs: number;
  /** `INPUT_REQUIRED`: a relayed upstream input round ended this request; the call goes on in the retry. */
  outcome: 'OK' | 'ERROR' | 'INPUT_REQUIRED';
  errorCode?: string;
  approval?: ApprovalRecord;
  /** What the response scan found in the result (absent when it is off or had nothing to say). */
  responseScan?: AuditResponseScan;
}

/** The record seam (audit, metrics, logs). Must not throw; the call is answered once it has settled. */
export type RecordStage = (record: CallRecord) => void | Promise<void>;

/** Everything the pipeline needs. */
export interface PipelineDeps {
  registry: ToolRegistry;
  /** `snapshot` tells a link's era: only a 2026-era link's `input_required` is relayed (absent: none is). */
  supervisor: Pick<Supervisor, 'callTool'> & Partial<Pick<Supervisor, 'snapshot'>>;
  local?: LocalToolProvider;
  validator: ArgumentValidator;
  masker: () => Masker;
  approval?: ApprovalStage;
  /** The response scan of the masked result; absent = results are not scanned. */
  response?: ResponseStage;
  record?: RecordStage;
  /** Tracing of the tool run (a child span of the request span) and the start event. */
  telemetry?: Pick<Telemetry, 'toolStarted' | 'traceExecution'>;
  /** The transport of an upstream, for span attributes. */
  transportOf?: (upstream: string) => string | undefined;
  now?: () => number;
}

/** Runs tool calls through the stages. */
export interface CallPipeline {
  call(alias: string, args: unknown, caller: CallerContext): Promise<CallToolResult>;
}

/**
 * Stage 1: the exposed tool behind the alias; unknown and withheld tools answer the same, and so does a tool
 * outside the caller's profile (even one whose upstream is down: the profile's callers never learn it exists).
 */
export function resolveTool(
  registry: ToolRegistry,
  alias: string,
  profile: Pick<Profile, 'hasTool'>,
): ExposedTool {
  const tool = registry.resolve(alias);
  if (tool && profile.hasTool(tool)) return tool;
  const known = registry.find(alias);
  if (!tool && known?.withheldReason === 'upstream-down' && known.upstream && profile.hasTool(known)) {
    throw new PortcullisError(
      'UPSTREAM_UNAVAILABLE',
      `tool ${alias} is unavailable: upstream "${known.upstream}" is not connected; retry once it reconnects`,
      { details: { upstream: known.upstream } },
    );
  }
  throw new PortcullisError('UNKNOWN_TOOL', `Unknown tool: ${alias}`);
}

/** Stage 6: forwards to the upstream (with `meta` as its `_meta`) or runs the local tool. */
export async function executeTool(
  deps: Pick<PipelineDeps, 'supervisor' | 'local'>,
  tool: ExposedTool,
  args: ToolArguments,
  caller: CallerContext,
  meta: McpMeta | undefined = caller.meta,
): Promise<CallToolResult> {
  if (tool.origin === 'local') {
    if (!deps.local) throw new PortcullisError('UNKNOWN_TOOL', `Unknown tool: ${tool.alias}`);
    return deps.local.run(tool.localToolId, args, caller.signal);
  }
  const { upstream, upstreamTool } = upstreamTargetOf(tool);
  const retry = caller.upstreamRetry;
  // A relayed round's answers and state belong to the upstream that asked; the alias may point elsewhere now.
  if (retry !== undefined && retry.upstream !== upstream) {
    throw new PortcullisError(
      'UPSTREAM_ERROR',
      `tool ${tool.alias} is now served by upstream "${upstream}", not by "${retry.upstream}" that asked for ` +
        'input; call it again without requestState',
      { reason: 'upstream-changed' },
    );
  }
  // Only what the caller has is passed on: assigned one by one, no object made per absent option.
  const options: Parameters<Supervisor['callTool']>[3] = { signal: caller.signal };
  if (caller.progress) options.onProgress = caller.progress;
  if (caller.askClient) options.askClient = caller.askClient;
  if (caller.askSampling) options.askSampling = caller.askSampling;
  if (caller.log) options.onLog = caller.log;
  if (caller.upstreamRequests) options.onDeclined = noteDeclined(caller.upstreamRequests);
  if (meta) options.meta = meta;
  if (caller.relayInput) options.relayInput = caller.relayInput;
  if (retry) {
    options.retry = { inputResponses: retry.inputResponses };
    if (retry.requestState !== undefined) options.retry.requestState = retry.requestState;
  }
  const result = await deps.supervisor.callTool(upstream, upstreamTool, args, options);
  // Only a 2026-era link's round can be answered through the relay; on a 2025-era link it is a forgery.
  const relay = caller.relayInput !== undefined && deps.supervisor.snapshot?.(upstream)?.era === 'modern';
  return acceptUpstreamToolResult(result, upstream, relay);
}

/** The upstream and its own tool name of an upstream tool (the registry sets both for every upstream tool). */
function upstreamTargetOf(tool: ExposedTool): { upstream: string; upstreamTool: string } {
  if (tool.upstream === undefined || tool.upstreamTool === undefined) {
    throw new PortcullisError('UNKNOWN_TOOL', `Unknown tool: ${tool.alias}`);
  }
  return { upstream: tool.upstream, upstreamTool: tool.upstreamTool };
}

/** Notes in the audit record an upstream request that the gateway declined because the caller cannot answer it. */
function noteDeclined(requests: AuditUpstreamRequest[]): (kind: AuditUpstreamRequest['kind']) => void {
  return (kind) => requests.push({ kind, outcome: 'refused' });
}

/** Stage 7: masks every string of a result. */
export function maskResult(result: CallToolResult, masker: Masker): CallToolResult {
  return masker.empty ? result : masker.maskDeep(result);
}

/** Errors that end a modern-era round rather than the call. */
const ROUND_ENDS: ReadonlySet<string> = new Set(['ApprovalRequired', 'ApprovalPending']);

/** What one call has learned so far, for its record: which tool, the approval, the response scan, the arguments. */
interface CallState {
  alias: string;
  caller: CallerContext;
  startedAt: number;
  tool: ExposedTool | undefined;
  approval: ApprovalRecord | undefined;
  responseScan: AuditResponseScan | undefined;
  /** Refused arguments beyond the bounds are recorded as a note, never as the unbounded value. */
  args: unknown;
}

/** Hands the finished call to the record stage, then gives back its result. */
async function finish(
  deps: Pick<PipelineDeps, 'record'>,
  now: () => number,
  call: CallState,
  result: CallToolResult,
  errorCode?: string,
  outcome: CallRecord['outcome'] = result.isError ? 'ERROR' : 'OK',
): Promise<CallToolResult> {
  if (!deps.record) return result;
  const record: CallRecord = {
    tool: call.tool,
    alias: call.alias,
    args: call.args,
    caller: call.caller,
    startedAt: call.startedAt,
    durationMs: now() - call.startedAt,
    outcome,
  };
  const code = errorCode ?? (result.isError ? 'UPSTREAM_TOOL_ERROR' : undefined);
  if (code !== undefined) record.errorCode = code;
  if (call.approval !== undefined) record.approval = call.approval;
  if (call.responseScan !== undefined) record.responseScan = call.responseScan;
  await deps.record(record);
  return result;
}

/** Creates the pipeline. */
export function createCallPipeline(deps: PipelineDeps): CallPipeline {
  const now = deps.now ?? Date.now;
  return {
    async call(alias, args, caller) {
      const call: CallState = {
        alias,
        caller,
        startedAt: now(),
        tool: undefined,
        approval: undefined,
        responseScan: undefined,
        args,
      };
      try {
        const tool = resolveTool(deps.registry, alias, caller.profile);
        call.tool = tool;
        deps.telemetry?.toolStarted({ alias, tool, caller, args });
        const refusal = argumentLimitError(alias, args);
        if (refusal) {
          call.args = refusedArgumentsNote(refusal);
          throw refusal;
        }
        const validArgs = deps.validator.validate(alias, tool.definition.inputSchema, args);
        if (deps.approval) {
          const outcome = await deps.approval.decide(tool, validArgs, caller);
          call.approval = outcome.record;
          if (outcome.kind === 'deny') {
            throw new PortcullisError(
              outcome.code ?? 'TOOL_DENIED',
              `Tool execution was denied: ${outcome.reason}`,
            );
          }
        }
        let result: CallToolResult;
        try {
          result = await (deps.telemetry
            ? deps.telemetry.traceExecution(
                executionTargetOf(tool, tool.upstream ? deps.transportOf?.(tool.upstream) : undefined),
                (meta) => executeTool(deps, tool, validArgs, caller, meta ?? caller.meta),
                caller.meta,
                caller.trace,
              )
            : executeTool(deps, tool, validArgs, caller));
        } catch (error) {
          // An upstream's input round: relayed and screened like a result (what the client will show).
          if (!(error instanceof UpstreamInputRequired) || !caller.relayRound) throw error;
          const round = caller.relayRound(error.ask);
          const origin = {
            kind: 'input-request',
            target: alias,
            upstream: error.ask.upstream,
            trace: caller.trace,
          } as const;
          const screened = deps.response?.(origin, round);
          call.responseScan = screened?.record;
          throw screened?.error ?? new UpstreamInputRequired(error.ask, round);
        }
        const unsendable = resultLimitError(alias, result);
        if (unsendable) throw unsendable;
        const masked = maskResult(result, deps.masker());
        // Scanned after masking, so a finding never carries a secret.
        if (deps.response) {
          const screened = deps.response(
            { kind: 'tool-result', target: alias, upstream: tool.upstream, trace: caller.trace },
            masked,
          );
          call.responseScan = screened.record;
          if (screened.error) throw screened.error;
        }
        return await finish(deps, now, call, masked);
      } catch (error) {
        // The upstream ran, so its input round is recorded now: the client may never retry.
        if (error instanceof UpstreamInputRequired) {
          await finish(deps, now, call, { content: [] }, undefined, 'INPUT_REQUIRED');
          throw error;
        }
        // A modern-era ask or inbox wait is not an outcome: the call continues on the client's retry and is
        // recorded then.
        if (error instanceof Error && ROUND_ENDS.has(error.name)) throw error;
        const wire: WireError = toWireError(error, deps.masker());
        const code = error instanceof PortcullisError ? error.code : 'INTERNAL';
        if (wire.kind === 'protocol-error') {
          await finish(deps, now, call, { isError: true, content: [] }, code);
          throw wire.error;
        }
        return await finish(deps, now, call, wire.result, code);
      }
    },
  };
}
