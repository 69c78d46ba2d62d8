/**
 * The downstream MCP server one client talks to: a low-level SDK Server (one per legacy session, one per modern
 * request) whose handlers delegate to the shared gateway core. Proxies need raw JSON Schemas and dynamic tool
 * lists, which is why this uses the low-level Server rather than McpServer.
 */
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  Server,
  type CallToolResult,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitResult,
  type InputRequiredResult,
  type LoggingLevel,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { argsDigest, type ApprovalSealer, type ElicitationOutcome } from '../approval/index.ts';
import type { AuditUpstreamRequest } from '../audit/index.ts';
import { ApprovalRequired } from '../calls/approval-stage.ts';
import { argumentLimitError } from '../calls/argument-limits.ts';
import {
  linearJsonSchemaValidator,
  type UpstreamElicitation,
  type UpstreamSampling,
} from '../upstream/index.ts';
import { traceContextFromMeta, type Telemetry } from '../telemetry/index.ts';
import { maskOutgoingErrors } from './masked-errors.ts';
import { stripGatewayMeta } from '../calls/upstream-results.ts';
import type { ParkedCall, ParkedCalls, ParkedStep, PendingInput, UpstreamQuestion } from './parked-calls.ts';
import type { CallerContext, CallPipeline } from '../calls/pipeline.ts';
import { routeCompletion, type UpstreamSurface } from './prompts-resources.ts';
import type { ResourceFollower, ResourceSubscriptions } from './resource-subscriptions.ts';
import type { ToolRegistry } from '../exposure/registry.ts';
import type { SamplingReview } from '../guards/sampling-review.ts';
import { toWireError } from './wire-errors.ts';
import type { Supervisor } from '../upstream/index.ts';
import type { Era } from '../shared/index.ts';

/** The gateway's identity toward clients. */
export const GATEWAY_SERVER_INFO = { name: 'portcullis', version: '0.1.0' } as const;

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
  /** Masks known secrets in any JSON value (relayed upstream log data). */
  maskDeep<T>(value: T): T;
  /** Checks (injection scan) and masks an upstream's sampling request before it reaches the client's model. */
  reviewSampling(alias: string, params: UpstreamSampling): SamplingReview;
  /** Request spans (a SERVER span per MCP request). */
  telemetry: Pick<Telemetry, 'traceRequest'>;
  elicitationTimeoutMs: number;
}

/** Who is on the other end of this server instance. */
export interface DownstreamIdentity {
  principal: string;
  sessionId?: string;
  era: Era;
}

/** inputRequests keys of a relayed upstream question, by kind. */
const UPSTREAM_INPUT_KEYS = { elicitation: 'upstream_elicitation', sampling: 'upstream_sampling' } as const;
const APPROVAL_KEY = 'approval';
/** requestState prefixes tell the two sealed kinds apart before opening. */
const PARKED_PREFIX = 'p.';
const APPROVAL_PREFIX = 'a.';

const approvalPolicy = (version: string) => `approval:${version}`;

/**
 * Reads the approval answer of a retried modern call. The state must open against this exact call and the
 * current policy version; a tampered, replayed, expired or swapped state denies the call ('invalid-state').
 * `verified` is true only for a state that opened (at most once, the sealer uses it up): only that retry was
 * already counted by the rate limits.
 */
function readApprovalAnswer(
  core: GatewayCore,
  state: string,
  binding: { principal: string; alias: string; argsDigest: string },
  ctx: ServerContext,
): { answer: ElicitationOutcome; verified: boolean } {
  const refused = { answer: 'invalid-state', verified: false } as const;
  if (!state.startsWith(APPROVAL_PREFIX)) return refused;
  const opened = core.sealer.open(state.slice(APPROVAL_PREFIX.length), {
    ...binding,
    policyVersion: approvalPolicy(core.policyVersion()),
  });
  if (!opened.ok) return refused;
  const answer = ctx.mcpReq.inputResponses?.[APPROVAL_KEY] as { action?: unknown } | undefined;
  const action = answer?.action;
  return {
    answer: action === 'accept' || action === 'decline' || action === 'cancel' ? action : 'cancel',
    verified: true,
  };
}

/** Legacy era: asks on the call's own stream with an explicit timeout; maps every ending to an outcome. */
async function askOnStream(
  ctx: ServerContext,
  prompt: string,
  canElicit: boolean,
  timeoutMs: number,
): Promise<ElicitationOutcome> {
  if (!canElicit) return 'unsupported';
  try {
    const result = await ctx.mcpReq.elicitInput(
      { message: prompt, requestedSchema: { type: 'object', properties: {} } },
      { timeout: timeoutMs, signal: ctx.mcpReq.signal },
    );
    return result.action;
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return 'timeout';
    return ctx.mcpReq.signal.aborted ||
      (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)
      ? 'disconnect'
      : 'cancel';
  }
}

/** The policy version a parked upstream question is sealed under (it is not an approval decision). */
const UPSTREAM_INPUT_POLICY = 'upstream-input/v1';

function progressRelay(ctx: ServerContext): CallerContext['progress'] {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (progress) =>
    void ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: progress.progress,
          ...(progress.total === undefined ? {} : { total: progress.total }),
          ...(progress.message === undefined ? {} : { message: progress.message }),
        },
      })
      .catch(() => {});
}

/**
 * Reviews an upstream sampling request, then hands it to `send`; a refused one never reaches the client. How it
 * ended is noted in `asked` for the call's audit record.
 */
async function relaySampling(
  core: GatewayCore,
  alias: string,
  params: UpstreamSampling,
  send: (reviewed: UpstreamSampling) => Promise<CreateMessageResult | CreateMessageResultWithTools>,
  asked: AuditUpstreamRequest[],
): Promise<CreateMessageResult | CreateMessageResultWithTools> {
  const review = core.reviewSampling(alias, params);
  if (!review.relay) {
    asked.push({ kind: 'sampling', outcome: 'refused' });
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Portcullis refused this sampling request: ${review.reason}`,
    );
  }
  return noted(
    asked,
    'sampling',
    () => send(review.params),
    () => 'answered',
  );
}

/**
 * An upstream's question as the person sees it: marked as the upstream's, so that it can never pass for a
 * Portcullis approval prompt (docs/security.md, "Call guards").
 */
function markAsUpstreams(params: UpstreamElicitation, upstream: string | undefined): UpstreamElicitation {
  const who = upstream === undefined ? 'The tool' : `Upstream server "${upstream}"`;
  return { ...params, message: `${who} asks (this is not a Portcullis approval): ${params.message}` };
}

/** Relays an upstream elicitation through `ask`, noting the client's action (or `failed`) in `asked`. */
function relayElicitation(
  ask: () => Promise<ElicitResult>,
  asked: AuditUpstreamRequest[],
): Promise<ElicitResult> {
  return noted(asked, 'elicitation', ask, (answer) => answer.action);
}

/** Runs one upstream request to the client and notes how it ended (`failed` when it threw). */
async function noted<T>(
  asked: AuditUpstreamRequest[],
  kind: AuditUpstreamRequest['kind'],
  run: () => Promise<T>,
  outcomeOf: (answer: T) => AuditUpstreamRequest['outcome'],
): Promise<T> {
  try {
    const answer = await run();
    asked.push({ kind, outcome: outcomeOf(answer) });
    return answer;
  } catch (error) {
    asked.push({ kind, outcome: 'failed' });
    throw error;
  }
}

function asInputRequest(question: UpstreamQuestion) {
  if (question.kind === 'sampling') return inputRequired.createMessage(question.params);
  const { params } = question;
  if (params.mode === 'url') {
    return inputRequired.elicitUrl({ message: params.message, url: params.url });
  }
  return inputRequired.elicit({
    message: params.message,
    requestedSchema: params.requestedSchema as Parameters<typeof inputRequired.elicit>[0]['requestedSchema'],
  });
}

/** Creates one downstream server instance for a session (legacy) or a request (modern). */
export function createDownstreamServer(core: GatewayCore, identity: DownstreamIdentity): Server {
  const server = new Server(GATEWAY_SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      // Subscriptions need a session to notify: only 2025-era servers offer them.
      resources: { listChanged: true, ...(identity.era === 'legacy' ? { subscribe: true } : {}) },
      completions: {},
      logging: {},
    },
    inputRequired: { roundTimeoutMs: core.elicitationTimeoutMs },
    // A relayed elicitation form is the upstream's schema, checked against the client's answer.
    jsonSchemaValidator: linearJsonSchemaValidator(),
  });
  maskOutgoingErrors(server, core);

  const clientCanElicit = () => server.getClientCapabilities()?.elicitation !== undefined;
  const clientCanSample = () => server.getClientCapabilities()?.sampling !== undefined;

  const caller = (ctx: ServerContext, extra: Partial<CallerContext> = {}): CallerContext => {
    const progress = progressRelay(ctx);
    const meta = ctx.mcpReq._meta;
    const forwardMeta: Record<string, unknown> = {};
    if (meta?.traceparent !== undefined) forwardMeta.traceparent = meta.traceparent;
    if (meta?.tracestate !== undefined) forwardMeta.tracestate = meta.tracestate;
    return {
      principal: identity.principal,
      ...(identity.sessionId === undefined ? {} : { sessionId: identity.sessionId }),
      era: identity.era,
      signal: ctx.mcpReq.signal,
      ...(progress ? { progress } : {}),
      log: (message) =>
        void ctx.mcpReq
          .log(message.level as LoggingLevel, core.maskDeep(message.data), message.logger)
          .catch(() => {}),
      ...(Object.keys(forwardMeta).length > 0 ? { meta: forwardMeta } : {}),
      ...extra,
    };
  };

  server.setRequestHandler('tools/list', () => ({ tools: [...core.registry.advertised()] }));

  server.setRequestHandler('tools/call', (request, ctx): Promise<CallToolResult | InputRequiredResult> =>
    core.telemetry.traceRequest(
      {
        method: 'tools/call',
        target: request.params.name,
        sessionId: identity.sessionId,
        protocolVersion: server.getNegotiatedProtocolVersion(),
        requestId: ctx.mcpReq.id,
        transport: identity.principal === 'stdio' ? 'pipe' : 'tcp',
        ...traceContextFromMeta(ctx.mcpReq._meta as Record<string, unknown> | undefined),
      },
      () => callTool(request.params.name, request.params.arguments ?? {}, ctx).catch(toCallAnswer),
    ),
  );

  /**
   * The last net of a tools/call: errors of the SDK's own (protocol errors, input rounds) pass on, a
   * PortcullisError gets its stable code, and anything else becomes INTERNAL without its message, so no
   * internal text (a stack overflow, a TypeError) reaches the client.
   */
  const toCallAnswer = (error: unknown): CallToolResult => {
    if (error instanceof ProtocolError || error instanceof SdkError) throw error;
    const wire = toWireError(error, { mask: core.mask });
    if (wire.kind === 'protocol-error') throw wire.error;
    return wire.result;
  };

  const callTool = async (
    alias: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
  ): Promise<CallToolResult | InputRequiredResult> => {
    {
      const resolved = core.registry.resolve(alias);
      const outputSchema = resolved?.definition.outputSchema;
      const upstreamId = resolved?.upstream;
      const project = (result: CallToolResult) => server.projectCallToolResult(result, outputSchema);

      const asked: AuditUpstreamRequest[] = [];
      if (identity.era === 'legacy') {
        const canElicit = clientCanElicit();
        const askClient = canElicit
          ? (params: UpstreamElicitation, signal: AbortSignal): Promise<ElicitResult> =>
              relayElicitation(
                () =>
                  ctx.mcpReq.elicitInput(markAsUpstreams(params, upstreamId), {
                    signal,
                    timeout: core.elicitationTimeoutMs,
                  }),
                asked,
              )
          : undefined;
        const askSampling = clientCanSample()
          ? (params: UpstreamSampling, signal: AbortSignal) =>
              relaySampling(
                core,
                alias,
                params,
                (reviewed) =>
                  ctx.mcpReq.requestSampling(reviewed, { signal, timeout: core.elicitationTimeoutMs }),
                asked,
              )
          : undefined;
        const askApproval = (prompt: string) =>
          askOnStream(ctx, prompt, canElicit, core.elicitationTimeoutMs);
        return project(
          await core.pipeline.call(
            alias,
            args,
            caller(ctx, {
              canElicit,
              askApproval,
              upstreamRequests: asked,
              ...(askClient ? { askClient } : {}),
              ...(askSampling ? { askSampling } : {}),
            }),
          ),
        );
      }

      // Modern era: the client cannot be asked mid-call. Approval prompts and upstream questions are answered
      // with input_required; a running upstream call waits in the parking lot until the client retries.
      // Arguments beyond the door limits are never digested: the pipeline refuses and records them at once.
      if (argumentLimitError(alias, args)) return project(await core.pipeline.call(alias, args, caller(ctx)));
      const binding = { principal: identity.principal, alias, argsDigest: argsDigest(args) };
      const canElicit = clientCanElicit();
      const canSample = clientCanSample();
      const state = ctx.mcpReq.requestState<string>();
      let call: ParkedCall;
      if (typeof state === 'string' && state.startsWith(PARKED_PREFIX)) {
        const opened = core.sealer.open(state.slice(PARKED_PREFIX.length), {
          ...binding,
          policyVersion: UPSTREAM_INPUT_POLICY,
        });
        const id = opened.ok ? opened.payload.extra?.parkedCall : undefined;
        const taken = typeof id === 'string' ? core.parked.take(id, binding) : undefined;
        if (!taken) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            'requestState is invalid, expired, already used or bound to another call',
          );
        }
        taken.pending.answer(ctx.mcpReq.inputResponses?.[UPSTREAM_INPUT_KEYS[taken.pending.question.kind]]);
        call = taken.call;
      } else {
        const approvalAnswer =
          typeof state === 'string' ? readApprovalAnswer(core, state, binding, ctx) : undefined;
        call = core.parked.start(binding, (ask, signal) =>
          core.pipeline.call(alias, args, {
            ...caller(ctx),
            signal,
            canElicit,
            upstreamRequests: asked,
            ...(approvalAnswer === undefined
              ? {}
              : { approvalAnswer: approvalAnswer.answer, approvalVerified: approvalAnswer.verified }),
            ...(canElicit
              ? {
                  askClient: (params: UpstreamElicitation) =>
                    relayElicitation(() => ask.elicit(markAsUpstreams(params, upstreamId)), asked),
                }
              : {}),
            ...(canSample
              ? {
                  askSampling: (params: UpstreamSampling) =>
                    relaySampling(core, alias, params, (reviewed) => ask.sample(reviewed), asked),
                }
              : {}),
          }),
        );
      }
      let step: ParkedStep;
      try {
        step = await call.next(ctx.mcpReq.signal);
      } catch (error) {
        if (error instanceof ApprovalRequired) {
          return inputRequired({
            inputRequests: {
              [APPROVAL_KEY]: inputRequired.elicit({
                message: error.prompt,
                requestedSchema: { type: 'object', properties: {} },
              }),
            },
            requestState: `${APPROVAL_PREFIX}${core.sealer.seal({ ...binding, policyVersion: approvalPolicy(error.policyVersion) })}`,
          });
        }
        throw error;
      }
      if (step.kind === 'done') return project(step.result);
      return parkForInput(core, call, step.input, binding);
    }
  };

  server.setRequestHandler('prompts/list', () => ({
    prompts: core.surface().prompts.map((p) => p.definition),
  }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const prompt = core.surface().findPrompt(request.params.name);
    if (!prompt)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    return masked(core, () =>
      core.supervisor.getPrompt(
        prompt.upstream,
        prompt.upstreamName,
        request.params.arguments,
        ctx.mcpReq.signal,
      ),
    );
  });
  server.setRequestHandler('resources/list', () => ({ resources: core.surface().resources }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: core.surface().resourceTemplates,
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const upstream = core.surface().routeResource(request.params.uri);
    if (!upstream)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`, {
        uri: request.params.uri,
      });
    return masked(core, () => core.supervisor.readResource(upstream, request.params.uri, ctx.mcpReq.signal));
  });
  if (identity.era === 'legacy') {
    const follower: ResourceFollower = (uri) =>
      void Promise.resolve(server.sendResourceUpdated({ uri })).catch(() => {});
    server.onclose = () => core.subscriptions.drop(follower);
    server.setRequestHandler('resources/subscribe', async (request) => {
      const { uri } = request.params;
      const upstream = core.surface().routeResource(uri);
      if (!upstream)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
      await masked(core, () => core.subscriptions.subscribe(uri, upstream, follower));
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      await core.subscriptions.unsubscribe(request.params.uri, follower);
      return {};
    });
  }
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const routed = routeCompletion(core.surface(), request.params.ref);
    if (!routed) {
      const { ref } = request.params;
      const what = ref.type === 'ref/prompt' ? `prompt: ${ref.name}` : `resource: ${ref.uri}`;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${what}`);
    }
    const params = { ...request.params, ref: routed.ref };
    return core.maskDeep(
      await masked(core, () => core.supervisor.complete(routed.upstream, params, ctx.mcpReq.signal)),
    );
  });
  return server;
}

function parkForInput(
  core: GatewayCore,
  call: ParkedCall,
  pending: PendingInput,
  binding: { principal: string; alias: string; argsDigest: string },
): InputRequiredResult {
  if (!core.parked.park(call, pending)) {
    pending.end('decline', 'too many calls are waiting for client input');
    call.abort('too many calls are waiting for client input');
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      'too many calls are waiting for client input; retry later',
    );
  }
  return inputRequired({
    inputRequests: { [UPSTREAM_INPUT_KEYS[pending.question.kind]]: asInputRequest(pending.question) },
    requestState:
      PARKED_PREFIX +
      core.sealer.seal({
        ...binding,
        policyVersion: UPSTREAM_INPUT_POLICY,
        extra: { parkedCall: call.id },
      }),
  });
}

/**
 * Runs an upstream prompt, resource or completion request: its result loses the gateway's `_meta` keys, its
 * error crosses /mcp masked, as a JSON-RPC error.
 */
async function masked<T>(core: GatewayCore, run: () => Promise<T>): Promise<T> {
  try {
    return stripGatewayMeta(await run());
  } catch (error) {
    const message = core.mask(error instanceof Error ? error.message : String(error));
    throw new ProtocolError(ProtocolErrorCode.InternalError, message);
  }
}
