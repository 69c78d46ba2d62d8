/**
 * The non-tool surface of a downstream server: prompts, resources and completion, the same for both eras but for
 * a 2026-era prompt's relayed input round (resource subscriptions need a session to notify: the 2025-era server,
 * legacy-server.ts, keeps them). Every request is routed to the upstream that listed the prompt or resource; its
 * result loses the gateway's `_meta` and crosses /mcp masked, as its error does. A prompt's messages and a
 * resource's texts then go through the response scan (withheld under `enforce`).
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CompleteRequestParams,
  type CompleteResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type InputRequiredResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/server';
import { argsDigest } from '../approval/index.ts';
import { readUpstreamInputAsk, screenSurfaceAnswer, stripGatewayMeta } from '../calls/index.ts';
import type { DownstreamIdentity, GatewayCore } from './gateway-core.ts';
import { profileSurface, routeCompletion, type UpstreamSurface } from './prompts-resources.ts';
import { auditedSurfaceRead } from './surface-audit.ts';
import { invalidRelayState, relayUpstreamRound, reopenRelayedRound } from './upstream-relay.ts';

/**
 * Runs an upstream prompt, resource or completion request: its result loses the gateway's `_meta` keys and has
 * every known secret masked (an upstream may echo one in a prompt message or a resource body); its error crosses
 * /mcp masked, as a JSON-RPC error.
 */
export async function masked<T>(core: GatewayCore, run: () => Promise<T>): Promise<T> {
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

/** The surface requests both eras answer alike; each reads the caller's profile's part, never the whole. */
export interface SurfaceHandlers {
  /** The profile's part of the upstream surface. */
  surface(): UpstreamSurface;
  listPrompts(): ListPromptsResult;
  /** A prompt, got in one round (the 2025 era; a 2026-era round may be relayed, see getPromptRelayed). */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<GetPromptResult>;
  listResources(): ListResourcesResult;
  listResourceTemplates(): ListResourceTemplatesResult;
  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult>;
  complete(params: CompleteRequestParams, signal: AbortSignal): Promise<CompleteResult>;
}

const unknownPrompt = (name: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);

/** The surface handlers of one server instance. */
export function createSurfaceHandlers(core: GatewayCore, identity: DownstreamIdentity): SurfaceHandlers {
  const surface = (): UpstreamSurface => profileSurface(core.surface(), identity.profile);
  return {
    surface,
    listPrompts: () => ({ prompts: surface().prompts.map((p) => p.definition) }),
    getPrompt(name, args, signal) {
      const prompt = surface().findPrompt(name);
      const read = { kind: 'prompt', target: name, upstreamId: prompt?.upstream, args } as const;
      return auditedSurfaceRead(core, identity, read, async (notes) => {
        if (!prompt) throw unknownPrompt(name);
        const answer = await masked(core, () =>
          core.supervisor.getPrompt(prompt.upstream, prompt.upstreamName, args, { signal }),
        );
        return screenSurfaceAnswer(
          core.response,
          { kind: 'prompt', target: name, upstream: prompt.upstream, trace: notes.trace },
          answer,
          notes,
        );
      });
    },
    listResources: () => ({ resources: surface().resources }),
    listResourceTemplates: () => ({ resourceTemplates: surface().resourceTemplates }),
    readResource(uri, signal) {
      const upstream = surface().routeResource(uri);
      const read = { kind: 'resource', target: uri, upstreamId: upstream } as const;
      return auditedSurfaceRead(core, identity, read, async (notes) => {
        if (!upstream)
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
        const answer = await masked(core, () => core.supervisor.readResource(upstream, uri, signal));
        return screenSurfaceAnswer(
          core.response,
          { kind: 'resource', target: uri, upstream, trace: notes.trace },
          answer,
          notes,
        );
      });
    },
    complete(params, signal) {
      const routed = routeCompletion(surface(), params.ref);
      if (!routed) {
        const { ref } = params;
        const what = ref.type === 'ref/prompt' ? `prompt: ${ref.name}` : `resource: ${ref.uri}`;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${what}`);
      }
      return masked(core, () =>
        core.supervisor.complete(routed.upstream, { ...params, ref: routed.ref }, signal),
      );
    },
  };
}

/** A 2026-era `prompts/get` as the modern server hands it over: its retry material and what its client can answer. */
export interface RelayedPromptRequest {
  name: string;
  args: Record<string, string> | undefined;
  requestState: unknown;
  inputResponses: Record<string, unknown> | undefined;
  signal: AbortSignal;
  can: { elicitation: boolean; sampling: boolean; roots: boolean };
}

/**
 * A 2026-era `prompts/get`: the upstream's input round is relayed under a state bound to this prompt and its
 * arguments (upstream-relay.ts), and a retry carrying that state resumes it.
 */
export function getPromptRelayed(
  core: GatewayCore,
  identity: DownstreamIdentity,
  request: RelayedPromptRequest,
): Promise<GetPromptResult | InputRequiredResult> {
  const { name, args, can } = request;
  const prompt = profileSurface(core.surface(), identity.profile).findPrompt(name);
  const read = { kind: 'prompt', target: name, upstreamId: prompt?.upstream, args } as const;
  return auditedSurfaceRead(core, identity, read, async (notes) => {
    if (!prompt) throw unknownPrompt(name);
    const origin = { kind: 'prompt', target: name, upstream: prompt.upstream, trace: notes.trace } as const;
    const binding = {
      principal: identity.principal.id,
      alias: `prompt:${name}`,
      argsDigest: argsDigest(args),
    };
    const state = request.requestState;
    const relayed =
      typeof state === 'string'
        ? reopenRelayedRound(core, state, binding, request.inputResponses)
        : undefined;
    if (relayed !== undefined && relayed.retry.upstream !== prompt.upstream) throw invalidRelayState();
    const answer = await masked(core, () =>
      core.supervisor.getPrompt(prompt.upstream, prompt.upstreamName, args, {
        signal: request.signal,
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
    if (round !== undefined) {
      notes.inputRequired = true;
      return screenSurfaceAnswer(core.response, { ...origin, kind: 'input-request' }, round, notes);
    }
    return screenSurfaceAnswer(core.response, origin, answer, notes);
  });
}
