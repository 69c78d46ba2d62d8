/** Plain data the upstream domain hands to the gateway. */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  Prompt,
  Resource,
  ResourceTemplateType,
  Tool,
} from '@modelcontextprotocol/client';
import type { Era } from '../shared/index.ts';

/** A tools/list entry held back because it is malformed or repeats a name. */
export interface RejectedTool {
  name: string;
  reason: string;
}

/** The lifecycle of one upstream connection. */
export type UpstreamState = 'connecting' | 'connected' | 'down' | 'disabled';

/** What the gateway knows about one upstream right now. */
export interface UpstreamSnapshot {
  id: string;
  transport: 'stdio' | 'http' | 'sse';
  state: UpstreamState;
  /** Negotiated era once connected. */
  era?: Era;
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  /** The `instructions` of the upstream's initialize result, as it sent them. */
  instructions?: string;
  /** Why the upstream is down (masked by the caller before display). */
  lastError?: string;
  /** The last stderr lines of the current (or last) stdio child, bounded; masked by the caller before display. */
  lastStderr?: string[];
  tools: Tool[];
  /** Listed tools held back (malformed, or a repeated name), each with its reason. */
  rejectedTools?: RejectedTool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  connectedAt?: number;
  /** Connection attempts since the last connection that stayed up for a while (the backoff grows with it). */
  attempts: number;
}

/** An elicitation an upstream sent while a call was in flight. */
export type UpstreamElicitation = ElicitRequestFormParams | ElicitRequestURLParams;

/** Asks the downstream client that made the call; resolves with its answer. */
export type ElicitationAsker = (params: UpstreamElicitation, signal: AbortSignal) => Promise<ElicitResult>;

/** A sampling/createMessage an upstream sent while a call was in flight (relayed only when configured). */
export type UpstreamSampling = CreateMessageRequestParams;

/** Asks the downstream client that made the call for a model completion; rejects when it cannot or will not. */
export type SamplingAsker = (
  params: UpstreamSampling,
  signal: AbortSignal,
) => Promise<CreateMessageResult | CreateMessageResultWithTools>;

/** Which kind of upstream request to the client the gateway declined. */
export type DeclinedRequest = 'elicitation' | 'sampling';

/** Per-call hooks: progress relay and the route for upstream-initiated elicitation. */
export interface UpstreamCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: {
    progress: number;
    total?: number | undefined;
    message?: string | undefined;
  }) => void;
  /** When absent, upstream elicitation during this call is declined. */
  askClient?: ElicitationAsker;
  /** When absent, upstream sampling during this call is refused. */
  askSampling?: SamplingAsker;
  /** Receives the upstream's log messages sent during this call (when it is the only call in flight). */
  onLog?: (message: { level: string; logger?: string | undefined; data: unknown }) => void;
  /** Told when an upstream request of this call was declined because its client cannot answer it. */
  onDeclined?: (request: DeclinedRequest) => void;
  /** W3C trace context and other `_meta` to forward. */
  meta?: Record<string, unknown>;
  timeoutMs?: number;
  /**
   * Modern-era link: hand an upstream `input_required` back instead of answering it here, declaring to the
   * upstream only what the caller can answer (see UpstreamRetry).
   */
  relayInput?: CallerCapabilities;
  /** Modern-era link: the answers and the upstream's own state of a relayed `input_required` round. */
  retry?: UpstreamRetry;
}

/** What the caller's client declared it can answer (what a relayed input round may ask it). */
export interface CallerCapabilities {
  elicitation: boolean;
  sampling: boolean;
  roots: boolean;
}

/** What the gateway re-sends to an upstream that asked for input: the client's answers and its requestState. */
export interface UpstreamRetry {
  inputResponses: Record<string, unknown>;
  requestState?: string;
}

/** How a prompts/get reaches an upstream: its cancellation and, for a modern caller, the relay options. */
export interface UpstreamPromptOptions {
  signal?: AbortSignal;
  relayInput?: CallerCapabilities;
  retry?: UpstreamRetry;
}
