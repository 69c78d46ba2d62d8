/**
 * The downstream MCP server one client talks to: a low-level SDK Server (one per legacy session, one per modern
 * request) whose handlers delegate to the shared gateway core. Proxies need raw JSON Schemas and dynamic tool
 * lists, which is why this uses the low-level Server rather than McpServer. tools/call goes to the call path of
 * the server's era (`legacy-calls.ts`, `modern-calls.ts`); everything else is `server-surface.ts`.
 */
import {
  ProtocolError,
  SdkError,
  Server,
  type CallToolResult,
  type InputRequiredResult,
  type LoggingLevel,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { CallerContext } from '../calls/index.ts';
import type { Principal } from '../identity/index.ts';
import { traceContextFromMeta, type RequestTrace } from '../telemetry/index.ts';
import { linearJsonSchemaValidator } from '../upstream/index.ts';
import type { DownstreamIdentity, EraCall, GatewayCore } from './gateway-core.ts';
import { callLegacy } from './legacy-calls.ts';
import { maskOutgoingErrors } from './masked-errors.ts';
import { callModern } from './modern-calls.ts';
import { registerServerSurface } from './server-surface.ts';
import { toWireError } from '../calls/index.ts';
import { PORTCULLIS_VERSION, type ToolArguments } from '../shared/index.ts';

export type { DownstreamIdentity, GatewayCore } from './gateway-core.ts';

/** The principal of a `portcullis stdio` process: the local user who started it. */
export const STDIO_PRINCIPAL: Principal = Object.freeze({
  id: 'stdio',
  source: 'anonymous',
  groups: Object.freeze([]),
  scopes: Object.freeze([]),
});

/** The gateway's identity toward clients. */
export const GATEWAY_SERVER_INFO = { name: 'portcullis', version: PORTCULLIS_VERSION } as const;

// A notification the client can no longer receive (it went away mid-call) has no one to report to; the call
// itself goes on and ends on its own signal.
const clientGone = () => {};

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
      .catch(clientGone);
}

/** The caller context of one request: who, which era, its signal, progress and log relays, trace headers. */
function callerOf(
  core: GatewayCore,
  identity: DownstreamIdentity,
  ctx: ServerContext,
  extra: Partial<CallerContext> = {},
): CallerContext {
  const progress = progressRelay(ctx);
  const meta = ctx.mcpReq._meta;
  const forwardMeta: NonNullable<CallerContext['meta']> = {};
  if (meta?.traceparent !== undefined) forwardMeta.traceparent = meta.traceparent;
  if (meta?.tracestate !== undefined) forwardMeta.tracestate = meta.tracestate;
  return {
    principal: identity.principal,
    profile: identity.profile,
    ...(identity.sessionId === undefined ? {} : { sessionId: identity.sessionId }),
    era: identity.era,
    signal: ctx.mcpReq.signal,
    ...(progress ? { progress } : {}),
    log: (message) =>
      void ctx.mcpReq
        .log(message.level as LoggingLevel, core.maskDeep(message.data), message.logger)
        .catch(clientGone),
    ...(Object.keys(forwardMeta).length > 0 ? { meta: forwardMeta } : {}),
    ...extra,
  };
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
    args: ToolArguments,
    ctx: ServerContext,
    trace: RequestTrace | undefined,
  ): Promise<CallToolResult | InputRequiredResult> => {
    const exposed = core.registry.resolve(alias);
    const resolved = exposed && identity.profile.hasTool(exposed) ? exposed : undefined;
    const outputSchema = resolved?.definition.outputSchema;
    const capabilities = server.getClientCapabilities();
    const call: EraCall = {
      core,
      principal: identity.principal,
      alias,
      args,
      ctx,
      upstreamId: resolved?.upstream,
      caller: (extra) => callerOf(core, identity, ctx, { trace, ...extra }),
      clientCanElicit: capabilities?.elicitation !== undefined,
      clientCanSample: capabilities?.sampling !== undefined,
      clientCanListRoots: capabilities?.roots !== undefined,
      project: (result) => server.projectCallToolResult(result, outputSchema),
    };
    return identity.era === 'legacy' ? await callLegacy(call) : await callModern(call);
  };

  server.setRequestHandler('tools/list', () => ({
    // The profile's own array (the same until the registry rebuilds), so the transport can reuse its JSON.
    tools: identity.profile.advertised(core.registry.all()) as Tool[],
  }));
  server.setRequestHandler('tools/call', (request, ctx): Promise<CallToolResult | InputRequiredResult> =>
    core.telemetry.traceRequest(
      {
        method: 'tools/call',
        target: request.params.name,
        sessionId: identity.sessionId,
        principal: identity.principal.id,
        profile: identity.profile.name,
        protocolVersion: server.getNegotiatedProtocolVersion(),
        requestId: ctx.mcpReq.id,
        transport: identity.principal.id === STDIO_PRINCIPAL.id ? 'pipe' : 'tcp',
        ...traceContextFromMeta(ctx.mcpReq._meta),
      },
      (trace) =>
        callTool(request.params.name, request.params.arguments ?? {}, ctx, trace).catch(toCallAnswer),
      // The call path is handed the trace (caller.trace): no async context per request.
      'handed',
    ),
  );
  registerServerSurface(server, core, identity);
  return server;
}
