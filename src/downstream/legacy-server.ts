/**
 * The gateway's own 2025-era downstream server (docs/architecture.md, "Legacy sessions"): one per session, on any
 * transport of the SDK's Transport shape (the gateway's Streamable HTTP wire, stdio). It owns the JSON-RPC of the
 * session: initialize and version negotiation, dispatch by method with shallow params checks
 * (legacy-shapes.ts; no zod, no recursion over client data), stable JSON-RPC errors masked on the way out,
 * cancellation, progress, per-session log level, server-to-client requests under ids of its own (answers routed
 * back, timeouts, the session's close failing what waits), resource subscriptions and list-change notifications.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type CompleteRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitRequestParams,
  type ElicitResult,
  type JSONRPCMessage,
  type LoggingLevel,
  type ServerNotification,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/server';
import type { ResourceFollower } from './resource-subscriptions.ts';
import type { ToolArguments } from '../shared/index.ts';
import { linearJsonSchemaValidator, type UpstreamSampling } from '../upstream/index.ts';
import type { CallerContext } from '../calls/index.ts';
import type { RequestTrace } from '../telemetry/index.ts';
import {
  admissionRefusal,
  callerOf,
  errorAnswer,
  GATEWAY_SERVER_INFO,
  rpcError,
  toCallAnswer,
  takeOverWire,
  traceToolCall,
  type RequestView,
} from './call-context.ts';
import type { AskOptions, DownstreamIdentity, GatewayCore, LegacyCall } from './gateway-core.ts';
import { callLegacy } from './legacy-calls.ts';
import { legacyToolList, projectLegacyToolResult } from './legacy-projection.ts';
import { checkMeta, LEGACY_PARAMS_CHECKS, loggingRank, type Params } from './legacy-shapes.ts';
import { isRecord, LEGACY_PROTOCOL_VERSIONS } from '../shared/index.ts';
import { maskErrorResponse } from './masked-errors.ts';
import { createSurfaceHandlers, masked } from './server-surface.ts';

/** What a session table needs of a 2025-era server. */
export interface LegacyServer {
  /** Takes over `transport` (its earlier handlers still run first) and starts it. */
  connect(transport: Transport): Promise<void>;
  /** Closes the transport; every call still running is aborted and every question to the client fails. */
  close(): Promise<void>;
  sendToolListChanged(): Promise<void>;
  sendPromptListChanged(): Promise<void>;
  sendResourceListChanged(): Promise<void>;
}

type RequestId = string | number;

const CAPABILITIES = Object.freeze({
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
  completions: {},
  logging: {},
});

/** A request the gateway sent the client, waiting for its answer. */
interface Asking {
  settle(message: JSONRPCMessage): void;
  fail(error: Error): void;
}

/** One request's handler, handed its checked params and the request's view. */
type Handler = (params: Params, view: RequestView) => unknown;

/** Whether a client's capability grants the form (or, by the pre-mode rule of `{}`, any) elicitation. */
function canElicitMode(capabilities: ClientCapabilities | undefined, mode: 'form' | 'url'): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (!isRecord(elicitation)) return false;
  if (mode === 'form' && Object.keys(elicitation).length === 0) return true;
  return elicitation[mode] !== undefined;
}

const ELICIT_ACTIONS = new Set(['accept', 'decline', 'cancel']);

/** The client's answer to `elicitation/create`, or the reason it is none (shallow: content is one level). */
function readElicitResult(result: unknown): ElicitResult | string {
  if (!isRecord(result)) return 'the result is not an object';
  if (!ELICIT_ACTIONS.has(result.action as string)) return 'action must be accept, decline or cancel';
  if (result.content !== undefined && !isRecord(result.content)) return 'content must be an object';
  return result as ElicitResult;
}

/** The client's answer to `sampling/createMessage`, or the reason it is none (shallow). */
function readSamplingResult(
  result: unknown,
  withTools: boolean,
): CreateMessageResult | CreateMessageResultWithTools | string {
  if (!isRecord(result)) return 'the result is not an object';
  if (typeof result.model !== 'string') return 'model must be a string';
  if (result.role !== 'assistant' && result.role !== 'user') return 'role must be assistant or user';
  const content = result.content;
  const blocks = Array.isArray(content) && withTools ? content : [content];
  for (const block of blocks) {
    if (!isRecord(block) || typeof block.type !== 'string') return 'content must be content blocks';
  }
  return result as unknown as CreateMessageResult;
}

/**
 * The checks the SDK's Server made before relaying a sampling request: tool use needs the client's
 * `sampling.tools`, and tool results must answer the previous message's tool uses exactly.
 */
function samplingProblem(
  params: UpstreamSampling,
  capabilities: ClientCapabilities | undefined,
): Error | undefined {
  if ((params.tools || params.toolChoice) && capabilities?.sampling?.tools === undefined)
    return new SdkError(
      SdkErrorCode.CapabilityNotSupported,
      'Client does not support sampling tools capability.',
    );
  const blocksOf = (message: unknown): { type?: unknown; id?: unknown; toolUseId?: unknown }[] => {
    const content = (message as { content?: unknown } | undefined)?.content;
    if (content === undefined) return [];
    return (Array.isArray(content) ? content : [content]) as { type?: unknown }[];
  };
  const last = blocksOf(params.messages.at(-1));
  const previous = params.messages.length > 1 ? blocksOf(params.messages.at(-2)) : [];
  const uses = new Set(previous.filter((b) => b.type === 'tool_use').map((b) => b.id));
  const results = last.filter((b) => b.type === 'tool_result');
  const invalid = (text: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, text);
  if (results.length > 0) {
    if (results.length !== last.length)
      return invalid('The last message must contain only tool_result content if any is present');
    if (uses.size === 0)
      return invalid('tool_result blocks are not matching any tool_use from the previous message');
  }
  if (uses.size > 0) {
    const answered = new Set(results.map((b) => b.toolUseId));
    if (uses.size !== answered.size || ![...uses].every((id) => answered.has(id)))
      return invalid('ids of tool_result blocks and tool_use blocks from previous message do not match');
  }
  return undefined;
}

/** What a request being served needs of its session. */
interface RequestSession {
  notify(notification: ServerNotification, relatedRequestId: RequestId): Promise<void>;
  /** The rank of the session's log level (logging/setLevel). */
  logRank(): number;
}

/**
 * One client request being served: the view its handler gets. A class rather than closures, so a request
 * allocates no functions of its own.
 */
class ServedRequest implements RequestView {
  readonly id: RequestId;
  readonly meta: Record<string, unknown> | undefined;
  readonly controller = new AbortController();
  readonly #session: RequestSession;

  constructor(id: RequestId, meta: Record<string, unknown> | undefined, session: RequestSession) {
    this.id = id;
    this.meta = meta;
    this.#session = session;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  notify(notification: ServerNotification): Promise<void> {
    return this.#session.notify(notification, this.id);
  }

  log(level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void> {
    if ((loggingRank(level) ?? 0) < this.#session.logRank()) return Promise.resolve();
    return this.notify({
      method: 'notifications/message',
      params: { level, data, ...(logger === undefined ? {} : { logger }) },
    });
  }
}

/** The questions a 2025-era call may send its session's client, on the stream of request `related`. */
interface SessionQuestions {
  elicit(params: ElicitRequestParams, options: AskOptions, related: RequestId): Promise<ElicitResult>;
  sample(
    params: UpstreamSampling,
    options: AskOptions,
    related: RequestId,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
}

/** What a session call is made of besides its own fields. */
interface SessionCallParts {
  identity: DownstreamIdentity;
  view: RequestView;
  trace: RequestTrace | undefined;
  outputSchema: unknown;
  questions: SessionQuestions;
}

/** One 2025-era tools/call as its call path sees it; a class, so a call allocates no functions of its own. */
class SessionCall implements LegacyCall {
  readonly principal: DownstreamIdentity['principal'];
  readonly signal: AbortSignal;
  readonly clientCanElicit: boolean;
  readonly clientCanSample: boolean;
  readonly clientCanListRoots: boolean;
  readonly #parts: SessionCallParts;

  constructor(
    readonly core: GatewayCore,
    readonly alias: string,
    readonly args: ToolArguments,
    readonly upstreamId: string | undefined,
    capabilities: ClientCapabilities | undefined,
    parts: SessionCallParts,
  ) {
    this.principal = parts.identity.principal;
    this.signal = parts.view.signal;
    this.clientCanElicit = capabilities?.elicitation !== undefined;
    this.clientCanSample = capabilities?.sampling !== undefined;
    this.clientCanListRoots = capabilities?.roots !== undefined;
    this.#parts = parts;
  }

  caller(extra?: Partial<CallerContext>): CallerContext {
    const { identity, view, trace } = this.#parts;
    return callerOf(this.core, identity, view, { trace, ...extra });
  }

  project(result: CallToolResult): CallToolResult {
    return projectLegacyToolResult(result, this.#parts.outputSchema);
  }

  elicit(params: ElicitRequestParams, options: AskOptions): Promise<ElicitResult> {
    return this.#parts.questions.elicit(params, options, this.#parts.view.id);
  }

  sample(
    params: UpstreamSampling,
    options: AskOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools> {
    return this.#parts.questions.sample(params, options, this.#parts.view.id);
  }
}

// The client went away before its answer: nobody is left to tell.
const clientGone = () => {};

/** Creates the server of one 2025-era session (or stdio connection). */
export function createLegacyServer(core: GatewayCore, identity: DownstreamIdentity): LegacyServer {
  let transport: Transport | undefined;
  let clientCapabilities: ClientCapabilities | undefined;
  let protocolVersion: string | undefined;
  /** The rank of the level set by logging/setLevel; every level passes until one is set. */
  let logRank = 0;
  let nextAskId = 0;
  const running = new Map<RequestId, AbortController>();
  const asking = new Map<number, Asking>();
  let validator: ReturnType<typeof linearJsonSchemaValidator> | undefined;
  const handlers = createSurfaceHandlers(core, identity);

  const send = (message: JSONRPCMessage, relatedRequestId?: RequestId): Promise<void> =>
    transport === undefined
      ? Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'))
      : transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  const notify = (notification: ServerNotification, relatedRequestId?: RequestId) =>
    send({ jsonrpc: '2.0', ...notification } as JSONRPCMessage, relatedRequestId);
  const answer = (message: JSONRPCMessage) =>
    send('error' in message ? maskErrorResponse(message, core) : message).catch(clientGone);
  const session: RequestSession = { notify, logRank: () => logRank };

  /** Sends one request to the client on the stream of request `relatedRequestId`; resolves with its result. */
  const ask = (
    method: string,
    params: Record<string, unknown>,
    options: AskOptions,
    relatedRequestId: RequestId,
  ): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const { signal, timeout } = options;
      const ended = (reason: unknown) =>
        reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
      if (signal.aborted) {
        reject(ended(signal.reason));
        return;
      }
      const id = nextAskId++;
      // As the SDK's Server did: a question ended early is withdrawn from the client, and ends as a timeout
      // unless the reason is an SDK error of its own (a closed connection).
      const cancel = (reason: unknown) => {
        done();
        void notify(
          { method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } },
          relatedRequestId,
        ).catch(() => {});
        reject(ended(reason));
      };
      const onAbort = () => cancel(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(
        () => cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout })),
        timeout,
      );
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        asking.delete(id);
      };
      asking.set(id, {
        settle(message) {
          done();
          const error = (message as { error?: { code?: unknown; message?: unknown; data?: unknown } }).error;
          if (error === undefined) return resolve((message as { result?: unknown }).result);
          const code = Number.isSafeInteger(error.code)
            ? (error.code as number)
            : ProtocolErrorCode.InternalError;
          reject(new ProtocolError(code, String(error.message ?? 'error'), error.data));
        },
        fail(error) {
          done();
          reject(error);
        },
      });
      send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage, relatedRequestId).catch(
        (error: unknown) => {
          done();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });

  const elicit = async (params: ElicitRequestParams, options: AskOptions, related: RequestId) => {
    const url = params.mode === 'url';
    if (!canElicitMode(clientCapabilities, url ? 'url' : 'form'))
      throw new SdkError(
        SdkErrorCode.CapabilityNotSupported,
        `Client does not support ${url ? 'url' : 'form'} elicitation.`,
      );
    const sent = url ? params : { ...params, mode: 'form' as const };
    const result = readElicitResult(await ask('elicitation/create', sent, options, related));
    if (typeof result === 'string')
      throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for elicitation/create: ${result}`);
    const schema = (sent as { requestedSchema?: object }).requestedSchema;
    if (url || result.action !== 'accept' || result.content === undefined || schema === undefined)
      return result;
    validator ??= linearJsonSchemaValidator();
    let verdict: { valid: boolean; errorMessage?: string | undefined };
    try {
      verdict = validator.getValidator(schema)(result.content);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `Error validating elicitation response: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (!verdict.valid)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Elicitation response content does not match requested schema: ${verdict.errorMessage ?? 'invalid'}`,
      );
    return result;
  };

  const sample = async (params: UpstreamSampling, options: AskOptions, related: RequestId) => {
    const problem = samplingProblem(params, clientCapabilities);
    if (problem) throw problem;
    const withTools = Boolean(params.tools || params.toolChoice);
    const result = readSamplingResult(
      await ask('sampling/createMessage', params as unknown as Params, options, related),
      withTools,
    );
    if (typeof result === 'string')
      throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for sampling/createMessage: ${result}`);
    return result;
  };

  const questions: SessionQuestions = { elicit, sample };
  const callTool = (params: Params, view: RequestView): Promise<CallToolResult> => {
    const alias = params.name as string;
    return traceToolCall(core, identity, { name: alias, request: view, protocolVersion }, async (trace) => {
      try {
        const exposed = core.registry.resolve(alias);
        const resolved = exposed && identity.profile.hasTool(exposed) ? exposed : undefined;
        const call = new SessionCall(
          core,
          alias,
          (params.arguments ?? {}) as ToolArguments,
          resolved?.upstream,
          clientCapabilities,
          { identity, view, trace, outputSchema: resolved?.definition.outputSchema, questions },
        );
        return await callLegacy(call);
      } catch (error) {
        return toCallAnswer(core, error);
      }
    });
  };

  const follower: ResourceFollower = (uri) =>
    // A session that closed under a pending update has no one left to tell; its follower is being dropped.
    void notify({ method: 'notifications/resources/updated', params: { uri } }).catch(() => {});

  const methods = new Map<string, Handler>([
    [
      'initialize',
      (params) => {
        const requested = params.protocolVersion as string;
        clientCapabilities = params.capabilities as ClientCapabilities;
        protocolVersion = LEGACY_PROTOCOL_VERSIONS.includes(requested)
          ? requested
          : LEGACY_PROTOCOL_VERSIONS[0];
        if (protocolVersion !== undefined) transport?.setProtocolVersion?.(protocolVersion);
        return { protocolVersion, capabilities: CAPABILITIES, serverInfo: GATEWAY_SERVER_INFO };
      },
    ],
    ['ping', () => ({})],
    [
      'tools/list',
      () => ({ tools: legacyToolList(identity.profile.advertised(core.registry.all()) as Tool[]) }),
    ],
    ['tools/call', callTool],
    ['prompts/list', () => handlers.listPrompts()],
    [
      'prompts/get',
      (params, view) =>
        handlers.getPrompt(
          params.name as string,
          params.arguments as Record<string, string> | undefined,
          view.signal,
        ),
    ],
    ['resources/list', () => handlers.listResources()],
    ['resources/templates/list', () => handlers.listResourceTemplates()],
    ['resources/read', (params, view) => handlers.readResource(params.uri as string, view.signal)],
    [
      'resources/subscribe',
      async (params) => {
        const uri = params.uri as string;
        const upstream = handlers.surface().routeResource(uri);
        if (!upstream)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
        await masked(core, () => core.subscriptions.subscribe(uri, upstream, follower));
        return {};
      },
    ],
    [
      'resources/unsubscribe',
      async (params) => {
        await core.subscriptions.unsubscribe(params.uri as string, follower);
        return {};
      },
    ],
    [
      'completion/complete',
      (params, view) => handlers.complete(params as unknown as CompleteRequestParams, view.signal),
    ],
    [
      'logging/setLevel',
      (params) => {
        logRank = loggingRank(params.level) ?? 0;
        return {};
      },
    ],
  ]);

  const onRequest = (message: { id: RequestId; method: string; params?: unknown }) => {
    const { id, method } = message;
    const handler = methods.get(method);
    if (handler === undefined)
      return void answer(rpcError(id, ProtocolErrorCode.MethodNotFound, 'Method not found'));
    // Two calls under one id could not be told apart by their answers, nor cancelled one by one.
    const refusal = admissionRefusal(running, id, 'session');
    if (refusal !== undefined) return void answer(refusal);
    const raw = message.params;
    if (raw !== undefined && !isRecord(raw))
      return void answer(
        rpcError(id, ProtocolErrorCode.InvalidParams, 'Invalid params: params must be an object'),
      );
    const params = raw ?? {};
    const problem = checkMeta(params) ?? LEGACY_PARAMS_CHECKS[method]?.(params);
    if (problem !== undefined)
      return void answer(
        rpcError(id, ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${problem}`),
      );
    const request = new ServedRequest(id, params._meta as Record<string, unknown> | undefined, session);
    running.set(id, request.controller);
    void serve(request, handler, params);
  };

  /** Runs a request's handler and answers it, unless it was cancelled (the client has stopped waiting for it). */
  const serve = async (request: ServedRequest, handler: Handler, params: Params) => {
    const { id, controller } = request;
    let message: JSONRPCMessage;
    try {
      message = { jsonrpc: '2.0', id, result: await handler(params, request) } as JSONRPCMessage;
    } catch (error) {
      message = errorAnswer(id, error);
    }
    // The id and its slot are free before the answer leaves: a client may reuse the id as soon as it reads it.
    if (running.get(id) === controller) running.delete(id);
    if (!controller.signal.aborted) await answer(message);
  };

  const onNotification = (message: { method: string; params?: unknown }) => {
    if (message.method !== 'notifications/cancelled' || !isRecord(message.params)) return;
    const { requestId, reason } = message.params;
    if (typeof requestId === 'string' || typeof requestId === 'number') running.get(requestId)?.abort(reason);
  };

  const onAnswer = (message: JSONRPCMessage) => {
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'number') asking.get(id)?.settle(message);
  };

  const receive = (message: JSONRPCMessage) => {
    if (!('method' in message)) return onAnswer(message);
    if ('id' in message) return onRequest(message as { id: RequestId; method: string; params?: unknown });
    return onNotification(message);
  };

  const closed = () => {
    transport = undefined;
    core.subscriptions.drop(follower);
    const gone = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const waiting of [...asking.values()]) waiting.fail(gone);
    for (const controller of running.values()) controller.abort(gone);
    running.clear();
  };

  const listChanged = (method: ServerNotification['method']) =>
    transport === undefined ? Promise.resolve() : notify({ method } as ServerNotification);

  return {
    async connect(wire) {
      if (transport !== undefined) throw new SdkError(SdkErrorCode.AlreadyConnected, 'Already connected');
      transport = wire;
      takeOverWire(wire, receive, closed);
      await wire.start();
    },
    async close() {
      await transport?.close();
    },
    sendToolListChanged: () => listChanged('notifications/tools/list_changed'),
    sendPromptListChanged: () => listChanged('notifications/prompts/list_changed'),
    sendResourceListChanged: () => listChanged('notifications/resources/list_changed'),
  };
}
