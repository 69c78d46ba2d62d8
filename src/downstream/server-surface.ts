/**
 * The non-tool surface of a downstream server: prompts, resources, completion, and (2025 era only, since a
 * notification needs a session to reach) resource subscriptions. Every request is routed to the upstream that
 * listed the prompt or resource; its result loses the gateway's `_meta` and crosses /mcp masked, as its error does.
 * A prompt's messages and a resource's texts then go through the response scan (withheld under `enforce`).
 */
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { argsDigest } from '../approval/index.ts';
import { readUpstreamInputAsk, screenSurfaceAnswer, stripGatewayMeta } from '../calls/index.ts';
import type { DownstreamIdentity, GatewayCore } from './gateway-core.ts';
import { profileSurface, routeCompletion, type UpstreamSurface } from './prompts-resources.ts';
import type { ResourceFollower } from './resource-subscriptions.ts';
import { invalidRelayState, relayUpstreamRound, reopenRelayedRound } from './upstream-relay.ts';

/**
 * Runs an upstream prompt, resource or completion request: its result loses the gateway's `_meta` keys and has
 * every known secret masked (an upstream may echo one in a prompt message or a resource body); its error crosses
 * /mcp masked, as a JSON-RPC error.
 */
async function masked<T>(core: GatewayCore, run: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    const message = core.mask(error instanceof Error ? error.message : String(error));
    throw new ProtocolError(ProtocolErrorCode.InternalError, message);
  }
  return core.maskDeep(stripGatewayMeta(result));
}

/** Runs `run`; what it throws crosses /mcp as a masked JSON-RPC error, as an upstream request's error does. */
function asSurfaceError<T>(core: GatewayCore, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      core.mask(error instanceof Error ? error.message : String(error)),
    );
  }
}

/** Registers the prompt, resource, completion and (legacy) subscription handlers on `server`. */
export function registerServerSurface(server: Server, core: GatewayCore, identity: DownstreamIdentity): void {
  // Every handler below reads the caller's profile's part of the surface, never the whole.
  const surface = (): UpstreamSurface => profileSurface(core.surface(), identity.profile);
  server.setRequestHandler('prompts/list', () => ({
    prompts: surface().prompts.map((p) => p.definition),
  }));
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const prompt = surface().findPrompt(request.params.name);
    if (!prompt)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name}`);
    const args = request.params.arguments;
    const origin = { kind: 'prompt', target: request.params.name, upstream: prompt.upstream } as const;
    if (identity.era === 'legacy') {
      const answer = await masked(core, () =>
        core.supervisor.getPrompt(prompt.upstream, prompt.upstreamName, args, { signal: ctx.mcpReq.signal }),
      );
      return screenSurfaceAnswer(core.response, origin, answer);
    }
    // A modern caller: the upstream's input round is relayed under a state bound to this prompt and arguments.
    const binding = {
      principal: identity.principal.id,
      alias: `prompt:${request.params.name}`,
      argsDigest: argsDigest(args),
    };
    const state = ctx.mcpReq.requestState<string>();
    const relayed =
      typeof state === 'string'
        ? reopenRelayedRound(core, state, binding, ctx.mcpReq.inputResponses)
        : undefined;
    if (relayed !== undefined && relayed.retry.upstream !== prompt.upstream) throw invalidRelayState();
    const capabilities = server.getClientCapabilities();
    const can = {
      elicitation: capabilities?.elicitation !== undefined,
      sampling: capabilities?.sampling !== undefined,
      roots: capabilities?.roots !== undefined,
    };
    const answer = await masked(core, () =>
      core.supervisor.getPrompt(prompt.upstream, prompt.upstreamName, args, {
        signal: ctx.mcpReq.signal,
        relayInput: can,
        ...(relayed === undefined ? {} : { retry: relayed.retry }),
      }),
    );
    // Sealed after masking, so the masker never rewrites the gateway's own state.
    const round = asSurfaceError(core, () => {
      const ask = readUpstreamInputAsk(answer, prompt.upstream);
      return ask === undefined ? undefined : relayUpstreamRound(core, binding, ask, can);
    });
    // A relayed round's questions are read by the client's user as the prompt's are: screened alike.
    if (round !== undefined)
      return screenSurfaceAnswer(core.response, { ...origin, kind: 'input-request' }, round);
    return screenSurfaceAnswer(core.response, origin, answer);
  });
  server.setRequestHandler('resources/list', () => ({ resources: surface().resources }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: surface().resourceTemplates,
  }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const upstream = surface().routeResource(request.params.uri);
    if (!upstream)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`, {
        uri: request.params.uri,
      });
    const answer = await masked(core, () =>
      core.supervisor.readResource(upstream, request.params.uri, ctx.mcpReq.signal),
    );
    return screenSurfaceAnswer(
      core.response,
      { kind: 'resource', target: request.params.uri, upstream },
      answer,
    );
  });
  if (identity.era === 'legacy') registerSubscriptions(server, core, surface);
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const routed = routeCompletion(surface(), request.params.ref);
    if (!routed) {
      const { ref } = request.params;
      const what = ref.type === 'ref/prompt' ? `prompt: ${ref.name}` : `resource: ${ref.uri}`;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${what}`);
    }
    const params = { ...request.params, ref: routed.ref };
    return masked(core, () => core.supervisor.complete(routed.upstream, params, ctx.mcpReq.signal));
  });
}

/** One follower per session: its subscriptions end with the session. */
function registerSubscriptions(server: Server, core: GatewayCore, surface: () => UpstreamSurface): void {
  const follower: ResourceFollower = (uri) =>
    // A session that closed under a pending update has no one left to tell; its follower is being dropped.
    void Promise.resolve(server.sendResourceUpdated({ uri })).catch(() => {});
  server.onclose = () => core.subscriptions.drop(follower);
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    const upstream = surface().routeResource(uri);
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
