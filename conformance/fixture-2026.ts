/**
 * The fixture's 2026-07-28 additions: the multi-round-trip (`input_required`) tools and prompt of SEP-2322,
 * the `server-stateless` diagnostic tools, and the SEP-2243 `x-mcp-header` tool. Each answers with what the
 * suite's scenarios call and check; `requestState` is plain JSON except for the tampered-state tool, whose
 * state is HMAC-signed so that an altered echo is refused.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type GetPromptResult,
  type InputRequest,
  type InputRequiredResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';

/** A tool handler of the fixture: a result, or a request for more input from the client. */
export type FixtureToolHandler = (
  args: Record<string, unknown>,
  ctx: ServerContext,
) => Promise<CallToolResult | InputRequiredResult>;

const EMPTY_OBJECT = { type: 'object', properties: {} } as const;
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: EMPTY_OBJECT });

/** The SEP-2243 tool: `region` is mirrored into the `Mcp-Param-Region` request header. */
export const CUSTOM_HEADER_TOOL = 'test_custom_header';

/** The 2026-07-28 tools, in listing order. */
export const TOOLS_2026: readonly Tool[] = [
  tool('test_input_required_result_elicitation', 'MRTR: asks for a name through one elicitation.'),
  tool('test_input_required_result_sampling', 'MRTR: asks the client for one sampling completion.'),
  tool('test_input_required_result_list_roots', 'MRTR: asks the client for its roots.'),
  tool('test_input_required_result_request_state', 'MRTR: asks for a confirmation, carrying requestState.'),
  tool(
    'test_input_required_result_multiple_inputs',
    'MRTR: asks for an elicitation, a sample and roots at once.',
  ),
  tool('test_input_required_result_multi_round', 'MRTR: asks for a name, then a colour, over two rounds.'),
  tool('test_input_required_result_tampered_state', 'MRTR: HMAC-signed requestState, refused when altered.'),
  tool(
    'test_input_required_result_capabilities',
    'MRTR: asks only for what the client declared it supports.',
  ),
  tool('test_missing_capability', 'Needs the sampling capability; refused with -32021 without it.'),
  tool('test_streaming_elicitation', 'Reports progress on the response stream, then answers.'),
  tool(
    'test_trigger_tool_change',
    'Changes its tool list (lists or drops test_dynamic_tool) and announces it.',
  ),
  tool('test_trigger_prompt_change', 'Announces that its prompt list changed.'),
  tool('test_logging_tool', 'Logs one message, which only a request with a log level receives.'),
  {
    name: CUSTOM_HEADER_TOOL,
    description:
      'Echoes the region it was called for; the region travels as the Mcp-Param-Region header too.',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', description: 'A region name', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
  },
];

/** The 2026-07-28 prompt. */
export const PROMPT_2026 = {
  name: 'test_input_required_result_prompt',
  description: 'MRTR: a prompt that asks for context through one elicitation first.',
};

const askText = (message: string, field: string): InputRequest =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] },
  });

const CONFIRM = inputRequired.elicit({
  message: 'Please confirm',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
});

const sample = (prompt: string, maxTokens: number): InputRequest =>
  inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    maxTokens,
  });

/** The accepted elicitation's string field, or undefined. */
function elicited(ctx: ServerContext, key: string, field: string): string | undefined {
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  if (answer.kind !== 'elicit' || answer.action !== 'accept') return undefined;
  const value = answer.content?.[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The action of the first elicitation the client declined or cancelled, if any: the flow then ends there
 * instead of asking again (a legacy-era client that always declines would otherwise be asked forever).
 */
function refusal(ctx: ServerContext): string | undefined {
  for (const key of Object.keys(ctx.mcpReq.inputResponses ?? {})) {
    const answer = inputResponse(ctx.mcpReq.inputResponses, key);
    if (answer.kind === 'elicit' && answer.action !== 'accept') return answer.action;
  }
  return undefined;
}

/** Runs a multi-round handler unless the client refused an elicitation of this round. */
const unlessRefused =
  (handler: FixtureToolHandler): FixtureToolHandler =>
  async (args, ctx) => {
    const action = refusal(ctx);
    return action === undefined ? handler(args, ctx) : text(`Input refused: ${action}`);
  };

function sampledText(ctx: ServerContext, key: string): string | undefined {
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  if (answer.kind !== 'sampling') return undefined;
  const content = answer.result.content;
  const first = Array.isArray(content) ? content[0] : content;
  return first && first.type === 'text' ? first.text : undefined;
}

function rootCount(ctx: ServerContext, key: string): number | undefined {
  const answer = inputResponse(ctx.mcpReq.inputResponses, key);
  return answer.kind === 'roots' ? answer.roots.length : undefined;
}

/** The plain-JSON requestState of this round, or undefined when absent or not an object. */
function plainState(ctx: ServerContext): Record<string, unknown> | undefined {
  const raw = ctx.mcpReq.requestState<unknown>();
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// One key per fixture process: every round of a flow reaches the same stdio process.
const STATE_KEY = randomBytes(32);
const mac = (body: string) => createHmac('sha256', STATE_KEY).update(body).digest('base64url');

function signState(payload: object): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(body)}`;
}

function signedStateIsIntact(state: string): boolean {
  const [body, tag, ...rest] = state.split('.');
  if (body === undefined || tag === undefined || rest.length > 0) return false;
  const expected = Buffer.from(mac(body));
  const given = Buffer.from(tag);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The client's declared capabilities: the request's `_meta` envelope (2026-07-28), else the session's. */
function clientCapabilities(ctx: ServerContext, session: () => object | undefined): { [k: string]: unknown } {
  const envelope: unknown = ctx.mcpReq.envelope;
  if (envelope !== null && typeof envelope === 'object' && CLIENT_CAPABILITIES_META_KEY in envelope) {
    const declared: unknown = (envelope as { [k: string]: unknown })[CLIENT_CAPABILITIES_META_KEY];
    if (declared !== null && typeof declared === 'object') return { ...declared };
  }
  return { ...session() };
}

/** What the handlers need from the server they run in. */
export interface FixtureServerHooks {
  /** The capabilities a legacy client declared at initialize. */
  sessionCapabilities(): object | undefined;
  /** Sends notifications/tools/list_changed or notifications/prompts/list_changed. */
  listChanged(list: 'tools' | 'prompts'): Promise<void>;
}

/** The 2026-07-28 tool handlers. */
export function handlers2026(hooks: FixtureServerHooks): Record<string, FixtureToolHandler> {
  const session = () => hooks.sessionCapabilities();
  return {
    test_input_required_result_elicitation: unlessRefused(async (_args, ctx) => {
      const name = elicited(ctx, 'user_name', 'name');
      if (name !== undefined) return text(`Hello, ${name}!`);
      return inputRequired({ inputRequests: { user_name: askText('What is your name?', 'name') } });
    }),
    test_input_required_result_sampling: async (_args, ctx) => {
      const answer = sampledText(ctx, 'sample_request');
      if (answer !== undefined) return text(`Sampling result: ${answer}`);
      return inputRequired({
        inputRequests: { sample_request: sample('What is the capital of France?', 100) },
      });
    },
    test_input_required_result_list_roots: async (_args, ctx) => {
      const count = rootCount(ctx, 'roots_request');
      if (count !== undefined) return text(`Found ${count} root(s)`);
      return inputRequired({ inputRequests: { roots_request: inputRequired.listRoots() } });
    },
    test_input_required_result_request_state: unlessRefused(async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'confirm');
      const confirmed = answer.kind === 'elicit' && answer.content?.ok === true;
      if (plainState(ctx)?.kind === 'request-state' && confirmed)
        return text('state-ok: requestState validated');
      return inputRequired({
        inputRequests: { confirm: CONFIRM },
        requestState: JSON.stringify({ kind: 'request-state', nonce: randomUUID() }),
      });
    }),
    test_input_required_result_multiple_inputs: unlessRefused(async (_args, ctx) => {
      const name = elicited(ctx, 'user_name', 'name');
      const greeting = sampledText(ctx, 'greeting');
      const roots = rootCount(ctx, 'client_roots');
      if (plainState(ctx)?.kind === 'multiple-inputs' && name !== undefined && roots !== undefined) {
        return text(`Name: ${name}; Greeting: ${greeting ?? 'Hello there!'}; Roots: ${roots}`);
      }
      return inputRequired({
        inputRequests: {
          user_name: askText('What is your name?', 'name'),
          greeting: sample('Generate a greeting', 50),
          client_roots: inputRequired.listRoots(),
        },
        requestState: JSON.stringify({ kind: 'multiple-inputs', nonce: randomUUID() }),
      });
    }),
    test_input_required_result_multi_round: unlessRefused(async (_args, ctx) => {
      const state = plainState(ctx);
      const name = elicited(ctx, 'step1', 'name');
      if (state?.round === 1 && name !== undefined) {
        return inputRequired({
          inputRequests: { step2: askText('Step 2: What is your favorite color?', 'color') },
          requestState: JSON.stringify({ round: 2, name, nonce: randomUUID() }),
        });
      }
      const color = elicited(ctx, 'step2', 'color');
      if (state?.round === 2 && color !== undefined) {
        return text(`Multi-round complete for ${String(state.name)} who likes ${color}`);
      }
      return inputRequired({
        inputRequests: { step1: askText('Step 1: What is your name?', 'name') },
        requestState: JSON.stringify({ round: 1, nonce: randomUUID() }),
      });
    }),
    test_input_required_result_tampered_state: unlessRefused(async (_args, ctx) => {
      const state = ctx.mcpReq.requestState<unknown>();
      if (typeof state === 'string') {
        if (!signedStateIsIntact(state)) {
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState integrity check failed');
        }
        if (inputResponse(ctx.mcpReq.inputResponses, 'confirm').kind === 'elicit') {
          return text('integrity-ok: state verified');
        }
      }
      return inputRequired({
        inputRequests: { confirm: CONFIRM },
        requestState: signState({ kind: 'tamper-test', nonce: randomUUID() }),
      });
    }),
    test_input_required_result_capabilities: unlessRefused(async (_args, ctx) => {
      const received = Object.keys(ctx.mcpReq.inputResponses ?? {});
      if (received.length > 0) return text(`capabilities-ok: received ${received.join(',')}`);
      const declared = clientCapabilities(ctx, session);
      const inputRequests: Record<string, InputRequest> = {};
      if (declared.elicitation) inputRequests.elicit_input = askText('Elicitation input', 'value');
      if (declared.sampling) inputRequests.sample_input = sample('Sample request', 50);
      if (Object.keys(inputRequests).length === 0) return text('No supported capabilities declared');
      return inputRequired({
        inputRequests,
        requestState: signState({ kind: 'capabilities-test', nonce: randomUUID() }),
      });
    }),
    test_missing_capability: async (_args, ctx) => {
      if (!clientCapabilities(ctx, session).sampling) {
        throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { sampling: {} } });
      }
      return text('Success');
    },
    test_streaming_elicitation: async (_args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      if (token !== undefined) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress: 50, total: 100 },
        });
      }
      return text('Streaming complete');
    },
    test_trigger_tool_change: async () => {
      await hooks.listChanged('tools');
      return text('Mutation triggered');
    },
    test_trigger_prompt_change: async () => {
      await hooks.listChanged('prompts');
      return text('Mutation triggered');
    },
    test_logging_tool: async (_args, ctx) => {
      // The SDK sends nothing on the 2026 era unless the request's `_meta` set a log level.
      await ctx.mcpReq.log('info', 'Diagnostic trace logging activated');
      return text('Logging evaluated');
    },
    [CUSTOM_HEADER_TOOL]: async (args) => text(`Region: ${String(args.region)}`),
  };
}

/** The 2026-07-28 prompt: asks for context, then returns a message that uses it. */
export function promptWithInput(ctx: ServerContext): GetPromptResult | InputRequiredResult {
  const action = refusal(ctx);
  if (action !== undefined) {
    return { messages: [{ role: 'user', content: { type: 'text', text: `Input refused: ${action}` } }] };
  }
  const context = elicited(ctx, 'user_context', 'context');
  if (context !== undefined) {
    return {
      messages: [{ role: 'user', content: { type: 'text', text: `Prompt with context: ${context}` } }],
    };
  }
  return inputRequired({
    inputRequests: { user_context: askText('What context should the prompt use?', 'context') },
  });
}
