/**
 * What both eras' servers share around a tools/call: the caller context handed to the pipeline (who, which era,
 * signal, progress and log relays, trace headers), the SERVER span around the call, and the last net that turns
 * whatever escaped the pipeline into an answer without internal text.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  type CallToolResult,
  type JSONRPCMessage,
  type LoggingLevel,
  type ServerNotification,
  type Transport,
} from '@modelcontextprotocol/server';
import type { CallerContext } from '../calls/index.ts';
import { toWireError } from '../calls/index.ts';
import type { Principal } from '../identity/index.ts';
import { traceContextFromMeta, type RequestTrace } from '../telemetry/index.ts';
import { PORTCULLIS_VERSION } from '../shared/index.ts';
import type { DownstreamIdentity, GatewayCore } from './gateway-core.ts';

/** The gateway's identity toward clients. */
export const GATEWAY_SERVER_INFO = { name: 'portcullis', version: PORTCULLIS_VERSION } as const;

/** The principal of a `portcullis stdio` process: the local user who started it. */
export const STDIO_PRINCIPAL: Principal = Object.freeze({
  id: 'stdio',
  source: 'anonymous',
  groups: Object.freeze([]),
  scopes: Object.freeze([]),
});

/** One request as the caller context reads it, whichever server received it. */
export interface RequestView {
  id: string | number;
  /** The request's `params._meta` (progress token, W3C trace context). */
  meta: Record<string, unknown> | undefined;
  signal: AbortSignal;
  /** Sends a notification related to this request (on its stream). */
  notify(notification: ServerNotification): Promise<void>;
  /** Sends a log message related to this request, when the session's level lets it through. */
  log(level: LoggingLevel, data: unknown, logger: string | undefined): Promise<void>;
}

// A notification the client can no longer receive (it went away mid-call) has no one to report to; the call
// itself goes on and ends on its own signal.
const clientGone = () => {};

function progressRelay(request: RequestView): CallerContext['progress'] {
  const token = request.meta?.progressToken;
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  return (progress) =>
    void request
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: progress.progress,
          ...(progress.total === undefined ? {} : { total: progress.total }),
          ...(progress.message === undefined ? {} : { message: progress.message }),
        },
      })
      .catch(clientGone);
}

/** The caller context of one request: who, which era, its signal, progress and log relays, trace headers. */
export function callerOf(
  core: GatewayCore,
  identity: DownstreamIdentity,
  request: RequestView,
  extra: Partial<CallerContext> = {},
): CallerContext {
  const caller: CallerContext = {
    principal: identity.principal,
    profile: identity.profile,
    era: identity.era,
    signal: request.signal,
    log: (message) =>
      void request
        .log(message.level as LoggingLevel, core.maskDeep(message.data), message.logger)
        .catch(clientGone),
  };
  if (identity.sessionId !== undefined) caller.sessionId = identity.sessionId;
  const progress = progressRelay(request);
  if (progress) caller.progress = progress;
  const meta = request.meta;
  const traceparent = meta?.traceparent;
  const tracestate = meta?.tracestate;
  if (typeof traceparent === 'string' || typeof tracestate === 'string') {
    const forwardMeta: NonNullable<CallerContext['meta']> = {};
    if (typeof traceparent === 'string') forwardMeta.traceparent = traceparent;
    if (typeof tracestate === 'string') forwardMeta.tracestate = tracestate;
    caller.meta = forwardMeta;
  }
  return Object.assign(caller, extra);
}

/**
 * The last net of a tools/call: errors of the SDK's own kinds (protocol errors, input rounds) pass on, a
 * PortcullisError gets its stable code, and anything else becomes INTERNAL without its message, so no internal
 * text (a stack overflow, a TypeError) reaches the client.
 */
export function toCallAnswer(core: Pick<GatewayCore, 'mask'>, error: unknown): CallToolResult {
  if (error instanceof ProtocolError || error instanceof SdkError) throw error;
  const wire = toWireError(error, { mask: core.mask });
  if (wire.kind === 'protocol-error') throw wire.error;
  return wire.result;
}

/** A JSON-RPC error response. */
export const rpcError = (
  id: string | number | null,
  code: number,
  message: string,
  data?: unknown,
): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  }) as JSONRPCMessage;

/**
 * Requests one session (or stdio connection) may have running at once. A client that sends more without waiting
 * is refused per request rather than given an unbounded share of the gateway's memory and its upstreams.
 */
export const MAX_REQUESTS_IN_FLIGHT = 256;

/**
 * The refusal of request `id` on a session or connection whose running requests are `running`: an id still in
 * flight (two calls under one id could not be told apart by their answers, nor cancelled one by one), or one
 * request too many; undefined when it may run.
 */
export function admissionRefusal(
  running: { has(id: string | number): boolean; readonly size: number },
  id: string | number,
  holder: 'session' | 'connection',
): JSONRPCMessage | undefined {
  if (running.has(id))
    return rpcError(
      id,
      ProtocolErrorCode.InvalidRequest,
      `Invalid Request: request id ${JSON.stringify(id)} is still in flight; use a new id`,
    );
  if (running.size >= MAX_REQUESTS_IN_FLIGHT)
    return rpcError(
      id,
      ProtocolErrorCode.InternalError,
      `this ${holder} already has ${MAX_REQUESTS_IN_FLIGHT} requests running; wait for answers before sending more`,
      { code: 'TOO_MANY_REQUESTS' },
    );
  return undefined;
}

/** Takes over `wire`'s messages and close, after whatever handlers it already had (they still run first). */
export function takeOverWire(
  wire: Transport,
  receive: (message: JSONRPCMessage) => void,
  closed: () => void,
): void {
  const earlier = { message: wire.onmessage, close: wire.onclose };
  wire.onmessage = (message, extra) => {
    earlier.message?.(message, extra);
    receive(message);
  };
  wire.onclose = () => {
    earlier.close?.();
    closed();
  };
}

/**
 * The JSON-RPC error answer of whatever a request's handler threw (masked on its way out by the server): a protocol
 * error keeps its code, message and data; an SDK error its text (a timed-out question, a closed connection); anything
 * else is `-32603` `Internal error` without its text.
 */
export function errorAnswer(id: string | number, error: unknown): JSONRPCMessage {
  const answer = (code: number, message: string, data?: unknown) => rpcError(id, code, message, data);
  // -32002 (resource not found) crosses as -32602 in both eras, as the SDK's codecs send it.
  if (error instanceof ProtocolError)
    return answer(
      error.code === -32002 ? ProtocolErrorCode.InvalidParams : error.code,
      error.message,
      error.data,
    );
  if (error instanceof SdkError) return answer(ProtocolErrorCode.InternalError, error.message);
  return answer(ProtocolErrorCode.InternalError, 'Internal error');
}

/** Runs one tools/call inside its SERVER span; the call path is handed the trace (no async context per request). */
export function traceToolCall<T>(
  core: GatewayCore,
  identity: DownstreamIdentity,
  call: { name: string; request: RequestView; protocolVersion: string | undefined },
  run: (trace: RequestTrace | undefined) => Promise<T>,
): Promise<T> {
  return core.telemetry.traceRequest(
    {
      method: 'tools/call',
      target: call.name,
      sessionId: identity.sessionId,
      principal: identity.principal.id,
      profile: identity.profile.name,
      protocolVersion: call.protocolVersion,
      requestId: call.request.id,
      transport: identity.principal.id === STDIO_PRINCIPAL.id ? 'pipe' : 'tcp',
      ...traceContextFromMeta(call.request.meta),
    },
    run,
    'handed',
  );
}
