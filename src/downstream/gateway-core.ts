/**
 * What every downstream server delegates to (the shared gateway core), who is on the other end of one server
 * instance, and what an era's call path receives from the server it runs in.
 */
import type {
  CallToolResult,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult,
} from '@modelcontextprotocol/server';
import type { ApprovalSealer } from '../approval/index.ts';
import type { AuditInput } from '../audit/index.ts';
import type { CallerContext, CallPipeline, ResponseStage } from '../calls/index.ts';
import type { Profile, ToolRegistry } from '../exposure/index.ts';
import type { Principal } from '../identity/index.ts';
import type { SamplingReview } from '../guards/index.ts';
import type { Telemetry } from '../telemetry/index.ts';
import type { Supervisor, UpstreamSampling } from '../upstream/index.ts';
import type { Era, ToolArguments } from '../shared/index.ts';
import type { ParkedCalls } from './parked-calls.ts';
import type { UpstreamSurface } from './prompts-resources.ts';
import type { ResourceSubscriptions } from './resource-subscriptions.ts';

/** The shared parts every downstream server delegates to. */
export interface GatewayCore {
  registry: ToolRegistry;
  pipeline: CallPipeline;
  supervisor: Pick<Supervisor, 'getPrompt' | 'readResource' | 'complete'>;
  /** Resource subscriptions of 2025-era sessions, passed through to the owning upstreams. */
  subscriptions: ResourceSubscriptions;
  surface(): UpstreamSurface;
  parked: ParkedCalls;
  /** Seals the modern-era requestState (call-bound, expiring, single use). */
  sealer: ApprovalSealer;
  /** The version of the approval policy in force (sealed approvals are bound to it). */
  policyVersion(): string;
  /** Masks known secrets in text that crosses /mcp (prompt and resource errors). */
  mask(text: string): string;
  /** Masks known secrets in any JSON value (relayed upstream log data, prompt and resource results). */
  maskDeep<T>(value: T): T;
  /** The response scan of masked `prompts/get` and `resources/read` results (`guards.responseScan`). */
  response: ResponseStage;
  /** Checks (injection scan) and masks an upstream's sampling request before it reaches the client's model. */
  reviewSampling(alias: string, params: UpstreamSampling): SamplingReview;
  /** Writes the audit row of a `prompts/get` or `resources/read`; never rejects (a failed write is logged). */
  recordSurface(input: AuditInput): Promise<void>;
  /** Request spans (a SERVER span per MCP request). */
  telemetry: Pick<Telemetry, 'traceRequest'>;
  elicitationTimeoutMs: number;
}

/** Who is on the other end of this server instance. */
export interface DownstreamIdentity {
  principal: Principal;
  /** The profile this server serves: its tools, prompts and resources are all the caller sees. */
  profile: Profile;
  sessionId?: string;
  era: Era;
}

/** One tools/call as an era's call path receives it from the server it runs in. */
export interface EraCall {
  core: GatewayCore;
  principal: Principal;
  alias: string;
  args: ToolArguments;
  /** The upstream that serves the alias (undefined for local tools and unknown aliases). */
  upstreamId: string | undefined;
  /** The caller context of this request, with `extra` laid over it. */
  caller(extra?: Partial<CallerContext>): CallerContext;
  clientCanElicit: boolean;
  clientCanSample: boolean;
  /** True when the client declared the roots capability (a relayed upstream roots/list can reach it). */
  clientCanListRoots: boolean;
  /** Fits a result to the tool's output schema as the SDK does (structured content checks). */
  project(result: CallToolResult): CallToolResult;
}

/** The retry material of a 2026-era request and its signal (aborted when its client stops waiting). */
export interface ModernRequestState {
  /** The request's `requestState`, as the client sent it (a string unless the request is refused). */
  requestState: unknown;
  /** The bare answers of the request's `inputResponses`; undefined when it sent none. */
  inputResponses: Record<string, unknown> | undefined;
  signal: AbortSignal;
}

/** A 2026-era tools/call: its retry material and signal besides the call itself. */
export interface ModernCall extends EraCall, ModernRequestState {}

/** How long a server-to-client request may wait, and what ends it early. */
export interface AskOptions {
  signal: AbortSignal;
  timeout: number;
}

/** A 2025-era tools/call: the questions it may send the client on its own stream. */
export interface LegacyCall extends EraCall {
  /** The call's signal (aborted by `notifications/cancelled` or the session's close). */
  signal: AbortSignal;
  /** Sends `elicitation/create` to the client; the accepted content is checked against a form's schema. */
  elicit(params: ElicitRequestParams, options: AskOptions): Promise<ElicitResult>;
  /** Sends `sampling/createMessage` to the client. */
  sample(
    params: UpstreamSampling,
    options: AskOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
}
