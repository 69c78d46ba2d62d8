/**
 * The gateway's own 2026-era downstream server (docs/architecture.md, "Downstream server"): it serves one
 * 2026-07-28 request at a time, whichever door it came through (an HTTP POST, a line of a stdio connection),
 * without an SDK Server. It reads the request's `_meta` envelope (protocol version, client capabilities, log
 * level) and its retry material (`requestState`, `inputResponses`), dispatches by method with the shallow params
 * checks the 2025-era server uses (legacy-shapes.ts; no zod, no recursion over client data), checks an input round
 * against the client capabilities the request declared, stamps the result as the revision requires (`resultType`,
 * cache fields, the server's identity) and masks every error on its way out. `subscriptions/listen` belongs to the
 * doors, which hold the streams (modern-listen.ts).
 */
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  type CallToolResult,
  type JSONRPCMessage,
  type LoggingLevel,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ToolArguments } from '../shared/index.ts';
import { isRecord, MODERN_PROTOCOL_VERSION } from '../shared/index.ts';
import {
  callerOf,
  errorAnswer,
  GATEWAY_SERVER_INFO,
  rpcError,
  toCallAnswer,
  traceToolCall,
  type RequestView,
} from './call-context.ts';
import type { DownstreamIdentity, GatewayCore, ModernCall, ModernRequestState } from './gateway-core.ts';
import { maskErrorResponse } from './masked-errors.ts';
import { callModern } from './modern-calls.ts';
import {
  acceptedInputResponses,
  envelopeIssue,
  hasEnvelopeKey,
  missingCapabilities,
  readEnvelope,
  type Envelope,
} from './modern-shapes.ts';
import { checkMeta, LEGACY_PARAMS_CHECKS, loggingRank, type Params } from './legacy-shapes.ts';
import { createSurfaceHandlers, getPromptRelayed } from './server-surface.ts';

type RequestId = string | number;

/** One 2026-era request as a door hands it over: a JSON-RPC request whose id and method were read. */
export interface ModernRequest {
  id: RequestId;
  method: string;
  params?: unknown;
}

/** Where the messages of one request go: its notifications while it runs, then its one answer. */
export interface ModernReply {
  /** Sends a notification of this request (progress, a log message); the HTTP door opens a stream for it. */
  notify(message: JSONRPCMessage): Promise<void>;
  /**
   * Sends the request's answer. `status` is the HTTP status the revision gives it: 200 for answers of a request
   * that was dispatched, the validation ladder's status (404 for an unknown method, 400 for a missing client
   * capability) otherwise.
   */
  answer(message: JSONRPCMessage, status: number): void;
}

/** The capabilities the gateway's 2026-era server advertises (`server/discover`, listen filters). */
export const MODERN_CAPABILITIES = Object.freeze({
  tools: Object.freeze({ listChanged: true }),
  prompts: Object.freeze({ listChanged: true }),
  // Subscriptions need a session to notify: only 2025-era servers offer them.
  resources: Object.freeze({ listChanged: true }),
  completions: Object.freeze({}),
  logging: Object.freeze({}),
});

/** The 2026-era downstream server of a gateway: stateless, shared by every request and both doors. */
export interface ModernServer {
  /** Serves `request` of `identity`; its answer goes to `reply` unless `signal` is aborted first. */
  serve(request: ModernRequest, identity: DownstreamIdentity, signal: AbortSignal, reply: ModernReply): void;
}

/** What a method's handler gets besides its checked params. */
interface Served extends RequestView, ModernRequestState {
  readonly identity: DownstreamIdentity;
  readonly envelope: Envelope;
  readonly reply: ModernReply;
}

type Handler = (params: Params, request: Served) => unknown;

/** The HTTP statuses of the validation ladder's codes, for an error answered before the request was dispatched. */
const LADDER_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  [-32020]: 400,
};

/** The HTTP status of an answer: a missing client capability is 400 wherever it arises (the revision says so). */
function statusOf(message: JSONRPCMessage, ladder: boolean): number {
  const code = (message as { error?: { code?: number } }).error?.code;
  if (code === undefined) return 200;
  if (code === ProtocolErrorCode.MissingRequiredClientCapability) return 400;
  return ladder ? (LADDER_STATUS[code] ?? 200) : 200;
}

/** Methods whose 2026-era results may be `input_required`. */
const INPUT_ROUND_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** Methods whose complete results carry cache fields. */
const CACHEABLE_METHODS = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'server/discover',
]);

/**
 * Checks an `input_required` result before it leaves: it asks something or carries a state, and every request it
 * embeds is one the revision defines and the client declared it can answer (else `-32021`, HTTP 400).
 */
export function checkInputRound(method: string, result: Record<string, unknown>, envelope: Envelope): void {
  const requests = result.inputRequests;
  const asks = isRecord(requests) && Object.keys(requests).length > 0;
  if (!asks && typeof result.requestState !== 'string')
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `the ${method} input round asks nothing and carries no requestState`,
    );
  if (!asks) return;
  for (const key of Object.keys(requests)) {
    const missing = missingCapabilities(requests[key], envelope.clientCapabilities);
    if (missing === 'unknown')
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `the ${method} input round embeds a request the 2026-07-28 revision does not define`,
      );
    if (missing !== undefined)
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: missing },
        `Cannot request input '${key.slice(0, 64)}': the request's client capabilities do not declare the required capability`,
      );
  }
}

/** The tool list without the `execution` member the 2026 revision removed, kept per advertised array. */
const modernLists = new WeakMap<readonly unknown[], unknown[]>();
function modernToolList(tools: readonly unknown[]): unknown[] {
  let list = modernLists.get(tools);
  if (list === undefined) {
    list = tools.map((tool) => {
      if (!isRecord(tool) || !('execution' in tool)) return tool;
      const { execution: _removed, ...rest } = tool;
      return rest;
    });
    modernLists.set(tools, list);
  }
  return list;
}

/** The result as the 2026 wire carries it: `resultType`, the cache fields of a cacheable one, the server's identity. */
function encodeResult(method: string, result: unknown): Record<string, unknown> {
  const value: Record<string, unknown> = isRecord(result) ? { ...result } : {};
  const type = value.resultType;
  if (type === undefined) value.resultType = 'complete';
  else if (type !== 'complete' && !INPUT_ROUND_METHODS.has(method))
    throw new ProtocolError(ProtocolErrorCode.InternalError, `${method} results can only be complete`);
  if (value.resultType === 'complete' && CACHEABLE_METHODS.has(method)) {
    const ttl = value.ttlMs;
    if (!(typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl >= 0)) value.ttlMs = 0;
    if (value.cacheScope !== 'public' && value.cacheScope !== 'private') value.cacheScope = 'private';
  }
  const meta = value._meta;
  if (meta === undefined) value._meta = { [SERVER_INFO_META_KEY]: GATEWAY_SERVER_INFO };
  else if (isRecord(meta) && meta[SERVER_INFO_META_KEY] === undefined)
    value._meta = { ...meta, [SERVER_INFO_META_KEY]: GATEWAY_SERVER_INFO };
  return value;
}

/**
 * A tools/call result as the 2026 wire carries it (the SDK codec's projection): one without content gets an empty
 * content list, and structured content that is not an object gets a text fallback when no text block is there.
 */
export function projectModernToolResult(result: CallToolResult): CallToolResult {
  const raw = result as Record<string, unknown>;
  let projected = result;
  if (raw.content === undefined && !('task' in raw) && !('inputRequests' in raw) && !('requestState' in raw))
    projected = { ...result, content: [] };
  const structured = projected.structuredContent as unknown;
  if (structured === undefined || (isRecord(structured) && !Array.isArray(structured))) return projected;
  if (projected.content.some((block) => block.type === 'text')) return projected;
  return {
    ...projected,
    content: [...projected.content, { type: 'text', text: JSON.stringify(structured) }],
  };
}

/** One request being served: the view its handler and the caller context read. */
class ServedRequest implements Served {
  constructor(
    readonly id: RequestId,
    readonly meta: Record<string, unknown> | undefined,
    readonly signal: AbortSignal,
    readonly identity: DownstreamIdentity,
    readonly envelope: Envelope,
    readonly requestState: unknown,
    readonly inputResponses: Record<string, unknown> | undefined,
    readonly reply: ModernReply,
  ) {}

  notify(notification: ServerNotification): Promise<void> {
    return this.reply.notify({ jsonrpc: '2.0', ...notification } as JSONRPCMessage);
  }

  log(level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void> {
    // A 2026-era request gets log messages only when its envelope names a level, and only at or above it.
    const threshold = loggingRank(this.envelope.logLevel);
    if (threshold === undefined || (loggingRank(level) ?? 0) < threshold) return Promise.resolve();
    return this.notify({
      method: 'notifications/message',
      params: { level, data, ...(logger === undefined ? {} : { logger }) },
    });
  }
}

/** The capabilities of the client as this request declared them. */
const canOf = (request: Served) => {
  const capabilities = request.envelope.clientCapabilities;
  return {
    elicitation: capabilities.elicitation !== undefined,
    sampling: capabilities.sampling !== undefined,
    roots: capabilities.roots !== undefined,
  };
};

/** Creates the gateway's 2026-era server. */
export function createModernServer(core: GatewayCore): ModernServer {
  const callTool: Handler = (params, request) => {
    const { identity } = request;
    const alias = params.name as string;
    const trace = { name: alias, request, protocolVersion: request.envelope.protocolVersion };
    return traceToolCall(core, identity, trace, async (span) => {
      try {
        const exposed = core.registry.resolve(alias);
        const resolved = exposed && identity.profile.hasTool(exposed) ? exposed : undefined;
        const can = canOf(request);
        const call: ModernCall = {
          core,
          principal: identity.principal,
          alias,
          args: (params.arguments ?? {}) as ToolArguments,
          upstreamId: resolved?.upstream,
          requestState: request.requestState,
          inputResponses: request.inputResponses,
          signal: request.signal,
          caller: (extra) => callerOf(core, identity, request, { trace: span, ...extra }),
          clientCanElicit: can.elicitation,
          clientCanSample: can.sampling,
          clientCanListRoots: can.roots,
          project: projectModernToolResult,
        };
        return await callModern(call);
      } catch (error) {
        return toCallAnswer(core, error);
      }
    });
  };

  const methods = new Map<string, Handler>([
    [
      'server/discover',
      () => ({ supportedVersions: [MODERN_PROTOCOL_VERSION], capabilities: MODERN_CAPABILITIES }),
    ],
    [
      'tools/list',
      (_params, request) => ({
        tools: modernToolList(request.identity.profile.advertised(core.registry.all()) as Tool[]),
      }),
    ],
    ['tools/call', callTool],
    ['prompts/list', (_params, request) => createSurfaceHandlers(core, request.identity).listPrompts()],
    [
      'prompts/get',
      (params, request) =>
        getPromptRelayed(core, request.identity, {
          name: params.name as string,
          args: params.arguments as Record<string, string> | undefined,
          requestState: request.requestState,
          inputResponses: request.inputResponses,
          signal: request.signal,
          can: canOf(request),
        }),
    ],
    ['resources/list', (_params, request) => createSurfaceHandlers(core, request.identity).listResources()],
    [
      'resources/templates/list',
      (_params, request) => createSurfaceHandlers(core, request.identity).listResourceTemplates(),
    ],
    [
      'resources/read',
      (params, request) =>
        createSurfaceHandlers(core, request.identity).readResource(params.uri as string, request.signal),
    ],
    [
      'completion/complete',
      (params, request) =>
        createSurfaceHandlers(core, request.identity).complete(
          params as unknown as Parameters<ReturnType<typeof createSurfaceHandlers>['complete']>[0],
          request.signal,
        ),
    ],
  ]);

  /** Runs a dispatched request's handler and answers it, unless its signal was aborted (no one is waiting). */
  const run = async (handler: Handler, method: string, params: Params, request: Served) => {
    let message: JSONRPCMessage;
    try {
      const raw = request.requestState;
      if (raw !== undefined && typeof raw !== 'string')
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
          reason: 'invalid_request_state',
        });
      const result = await handler(params, request);
      if (isRecord(result) && result.resultType === 'input_required') {
        if (!INPUT_ROUND_METHODS.has(method))
          throw new ProtocolError(ProtocolErrorCode.InternalError, `${method} cannot ask for input`);
        checkInputRound(method, result, request.envelope);
      }
      message = { jsonrpc: '2.0', id: request.id, result: encodeResult(method, result) } as JSONRPCMessage;
    } catch (error) {
      message = errorAnswer(request.id, error);
    }
    if (request.signal.aborted) return;
    request.reply.answer(maskErrorResponse(message, core), statusOf(message, false));
  };

  return {
    serve(message, identity, signal, reply) {
      const { id, method } = message;
      const refuse = (code: number, text: string, data?: unknown) => {
        const answer = maskErrorResponse(rpcError(id, code, text, data), core);
        reply.answer(answer, statusOf(answer, true));
      };
      // The ladder's order: an unknown method outranks everything wrong with its params.
      const handler = methods.get(method);
      if (handler === undefined) return refuse(ProtocolErrorCode.MethodNotFound, 'Method not found');
      const raw = message.params;
      if (raw !== undefined && !isRecord(raw))
        return refuse(ProtocolErrorCode.InvalidParams, 'Invalid params: params must be an object');
      const meta = raw?._meta;
      if (!isRecord(meta) || !hasEnvelopeKey(meta))
        return refuse(
          ProtocolErrorCode.InvalidParams,
          'Request is missing the required _meta envelope for protocol revision 2026-07-28 ' +
            '(io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)',
        );
      const issue = envelopeIssue(meta);
      if (issue !== undefined)
        return refuse(
          ProtocolErrorCode.InvalidParams,
          `Invalid _meta envelope for protocol revision 2026-07-28: ${issue.key}: ${issue.problem}`,
          { envelope: issue },
        );
      // Handlers see the params without the retry material, as the 2025-era handlers would.
      const { requestState, inputResponses, ...params } = raw as Params;
      const problem = checkMeta(params) ?? LEGACY_PARAMS_CHECKS[method]?.(params);
      if (problem !== undefined) {
        const answer = maskErrorResponse(
          rpcError(id, ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${problem}`),
          core,
        );
        return reply.answer(answer, 200);
      }
      const request = new ServedRequest(
        id,
        meta,
        signal,
        identity,
        readEnvelope(meta),
        requestState,
        acceptedInputResponses(inputResponses),
        reply,
      );
      void run(handler, method, params, request);
    },
  };
}
