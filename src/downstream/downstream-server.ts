/**
 * The downstream MCP server of one 2026-era request: a low-level SDK Server whose handlers delegate to the shared
 * gateway core. Proxies need raw JSON Schemas and dynamic tool lists, which is why this uses the low-level Server
 * rather than McpServer. 2025-era sessions are served by the gateway's own server (legacy-server.ts) instead.
 * tools/call goes to `modern-calls.ts`; everything else is `server-surface.ts`.
 */
import {
  Server,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { linearJsonSchemaValidator } from '../upstream/index.ts';
import { callerOf, toCallAnswer, traceToolCall, type RequestView } from './call-context.ts';
import type { DownstreamIdentity, GatewayCore, ModernCall } from './gateway-core.ts';
import { maskOutgoingErrors } from './masked-errors.ts';
import { callModern } from './modern-calls.ts';
import { registerServerSurface } from './server-surface.ts';
import { PORTCULLIS_VERSION } from '../shared/index.ts';

export type { DownstreamIdentity, GatewayCore } from './gateway-core.ts';

/** The gateway's identity toward clients. */
export const GATEWAY_SERVER_INFO = { name: 'portcullis', version: PORTCULLIS_VERSION } as const;

/** The SDK request context as the shared caller context reads it. */
function viewOf(ctx: ServerContext): RequestView {
  return {
    id: ctx.mcpReq.id,
    meta: ctx.mcpReq._meta,
    signal: ctx.mcpReq.signal,
    notify: (notification) => ctx.mcpReq.notify(notification),
    log: (level, data, logger) => ctx.mcpReq.log(level, data, logger),
  };
}

/** Creates the downstream server of one 2026-era request. */
export function createDownstreamServer(core: GatewayCore, identity: DownstreamIdentity): Server {
  const server = new Server(GATEWAY_SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      // Subscriptions need a session to notify: only 2025-era servers offer them.
      resources: { listChanged: true },
      completions: {},
      logging: {},
    },
    inputRequired: { roundTimeoutMs: core.elicitationTimeoutMs },
    // A relayed elicitation form is the upstream's schema, checked against the client's answer.
    jsonSchemaValidator: linearJsonSchemaValidator(),
  });
  maskOutgoingErrors(server, core);

  server.setRequestHandler('tools/list', () => ({
    tools: identity.profile.advertised(core.registry.all()) as Tool[],
  }));
  server.setRequestHandler('tools/call', (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const view = viewOf(ctx);
    const alias = request.params.name;
    return traceToolCall(
      core,
      identity,
      { name: alias, request: view, protocolVersion: server.getNegotiatedProtocolVersion() },
      async (trace) => {
        try {
          const exposed = core.registry.resolve(alias);
          const resolved = exposed && identity.profile.hasTool(exposed) ? exposed : undefined;
          const outputSchema = resolved?.definition.outputSchema;
          const capabilities = server.getClientCapabilities();
          const call: ModernCall = {
            core,
            principal: identity.principal,
            alias,
            args: request.params.arguments ?? {},
            ctx,
            upstreamId: resolved?.upstream,
            caller: (extra) => callerOf(core, identity, view, { trace, ...extra }),
            clientCanElicit: capabilities?.elicitation !== undefined,
            clientCanSample: capabilities?.sampling !== undefined,
            clientCanListRoots: capabilities?.roots !== undefined,
            project: (result) => server.projectCallToolResult(result, outputSchema),
          };
          return await callModern(call);
        } catch (error) {
          return toCallAnswer(core, error);
        }
      },
    );
  });
  registerServerSurface(server, core, identity);
  return server;
}
