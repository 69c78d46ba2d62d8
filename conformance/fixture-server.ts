/**
 * The conformance fixture: a low-level SDK v2 Server implementing every test tool, prompt and resource the
 * conformance suite's server scenarios call, with the exact contents those scenarios describe. Elicitation and
 * sampling are written multi-round-trip (`inputRequired`), which the SDK serves on both protocol eras. The
 * 2026-07-28 additions live in `fixture-2026.ts`. Longer than most files: it is one table of the suite's
 * contents (tools, prompts, resources, completions), read side by side with the suite's scenario sources.
 */
import {
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  UriTemplate,
  type CallToolResult,
  type GetPromptResult,
  type InputRequiredResult,
  type ReadResourceResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { CONFORMANCE_RESOURCES, CONFORMANCE_TEMPLATE } from './contract.ts';
import {
  handlers2026,
  PROMPT_2026,
  promptWithInput,
  TOOLS_2026,
  type FixtureToolHandler,
} from './fixture-2026.ts';

/** A 1x1 red PNG. */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid 8 kHz, 8-bit mono PCM WAV file holding 8 samples of silence. */
function silentWavBase64(): string {
  const samples = 8;
  const wav = Buffer.alloc(44 + samples);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(8000, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  wav.fill(128, 44);
  return wav.toString('base64');
}

const WAV_BASE64 = silentWavBase64();
const EMPTY_OBJECT = { type: 'object', properties: {} } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

const TOOLS: Tool[] = [
  { name: 'test_simple_text', description: 'Returns a simple text response.', inputSchema: EMPTY_OBJECT },
  { name: 'test_image_content', description: 'Returns a 1x1 PNG image.', inputSchema: EMPTY_OBJECT },
  { name: 'test_audio_content', description: 'Returns a short WAV audio clip.', inputSchema: EMPTY_OBJECT },
  {
    name: 'test_embedded_resource',
    description: 'Returns an embedded text resource.',
    inputSchema: EMPTY_OBJECT,
  },
  {
    name: 'test_multiple_content_types',
    description: 'Returns text, image and embedded resource content together.',
    inputSchema: EMPTY_OBJECT,
  },
  {
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages while it runs.',
    inputSchema: EMPTY_OBJECT,
  },
  { name: 'test_error_handling', description: 'Always returns a tool error.', inputSchema: EMPTY_OBJECT },
  {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 out of 100.',
    inputSchema: EMPTY_OBJECT,
  },
  {
    name: 'test_sampling',
    description: 'Asks the client to sample an LLM completion for the prompt.',
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
      required: ['prompt'],
    },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for a username and an email address.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    },
  },
  {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks the user for values, offering a default for every primitive type.',
    inputSchema: EMPTY_OBJECT,
  },
  {
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks the user to choose from the five enum schema variants.',
    inputSchema: EMPTY_OBJECT,
  },
  {
    name: 'test_reconnection',
    description: 'Closes its SSE stream mid-call (when served over HTTP with resumability), then answers.',
    inputSchema: EMPTY_OBJECT,
  },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      // SEP-2106: composition, conditional and reference keywords must survive tools/list.
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  },
];

const SEP1034_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, description: 'Your name', default: 'John Doe' },
    age: { type: 'integer' as const, description: 'Your age', default: 30 },
    score: { type: 'number' as const, description: 'Your score', default: 95.5 },
    status: {
      type: 'string' as const,
      description: 'Account status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean' as const, description: 'Verified account', default: true },
  },
};

const SEP1330_SCHEMA = {
  type: 'object' as const,
  properties: {
    untitledSingle: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string' as const,
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string' as const,
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array' as const,
      items: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array' as const,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

type ToolHandler = FixtureToolHandler;

/** Asks the client through one form elicitation and reports its answer as text. */
function elicitOnce(
  ctx: ServerContext,
  message: string,
  requestedSchema: Parameters<typeof inputRequired.elicit>[0]['requestedSchema'],
  prefix: string,
): CallToolResult | InputRequiredResult {
  const answer = inputResponse(ctx.mcpReq.inputResponses, 'answer');
  if (answer.kind === 'missing') {
    return inputRequired({ inputRequests: { answer: inputRequired.elicit({ message, requestedSchema }) } });
  }
  if (answer.kind !== 'elicit')
    return { ...text(`${prefix}: unexpected ${answer.kind} response`), isError: true };
  return text(`${prefix}: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
}

const HANDLERS: Record<string, ToolHandler> = {
  test_simple_text: async () => text('This is a simple text response for testing.'),
  test_image_content: async () => ({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] }),
  test_audio_content: async () => ({ content: [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }] }),
  test_embedded_resource: async () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }),
  test_multiple_content_types: async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
  test_tool_with_logging: async (_args, ctx) => {
    await ctx.mcpReq.log('info', 'Tool execution started');
    await sleep(50);
    await ctx.mcpReq.log('info', 'Tool processing data');
    await sleep(50);
    await ctx.mcpReq.log('info', 'Tool execution completed');
    return text('Tool with logging executed successfully');
  },
  test_error_handling: async () => ({
    ...text('This tool intentionally returns an error for testing'),
    isError: true,
  }),
  test_tool_with_progress: async (_args, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progress > 0) await sleep(50);
      if (token !== undefined) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total: 100 },
        });
      }
    }
    return text('Tool with progress executed successfully');
  },
  test_sampling: async (args, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, 'sample');
    if (answer.kind === 'missing') {
      const prompt = typeof args.prompt === 'string' ? args.prompt : '';
      return inputRequired({
        inputRequests: {
          sample: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
            maxTokens: 100,
          }),
        },
      });
    }
    if (answer.kind !== 'sampling') return { ...text(`unexpected ${answer.kind} response`), isError: true };
    const content = answer.result.content;
    const first = Array.isArray(content) ? content[0] : content;
    return text(`LLM response: ${first && first.type === 'text' ? first.text : JSON.stringify(content)}`);
  },
  test_elicitation: async (args, ctx) =>
    elicitOnce(
      ctx,
      typeof args.message === 'string' ? args.message : 'Please provide your information',
      {
        type: 'object',
        properties: {
          username: { type: 'string', description: "User's response" },
          email: { type: 'string', description: "User's email address" },
        },
        required: ['username', 'email'],
      },
      'User response',
    ),
  test_elicitation_sep1034_defaults: async (_args, ctx) =>
    elicitOnce(
      ctx,
      'Please review and update the form fields with defaults',
      SEP1034_SCHEMA,
      'Elicitation completed',
    ),
  test_elicitation_sep1330_enums: async (_args, ctx) =>
    elicitOnce(ctx, 'Please choose from the enum variants', SEP1330_SCHEMA, 'Elicitation completed'),
  test_reconnection: async (_args, ctx) => {
    // Only an HTTP transport with an event store can close the stream and let the client resume it.
    const close = ctx.http?.closeSSE;
    if (close) {
      close();
      await sleep(100);
    }
    return text('Reconnection test completed');
  },
  json_schema_2020_12_tool: async (args) => text(`Received: ${JSON.stringify(args)}`),
};

const PROMPTS = [
  { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt that includes an image' },
  PROMPT_2026,
];

function getPrompt(name: string, args: Record<string, string>): GetPromptResult {
  const user = (content: GetPromptResult['messages'][number]['content']) => ({
    role: 'user' as const,
    content,
  });
  switch (name) {
    case 'test_simple_prompt':
      return { messages: [user({ type: 'text', text: 'This is a simple prompt for testing.' })] };
    case 'test_prompt_with_arguments':
      return {
        messages: [
          user({ type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` }),
        ],
      };
    case 'test_prompt_with_embedded_resource':
      return {
        messages: [
          user({
            type: 'resource',
            resource: {
              uri: args.resourceUri ?? 'test://example-resource',
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          }),
          user({ type: 'text', text: 'Please process the embedded resource above.' }),
        ],
      };
    case 'test_prompt_with_image':
      return {
        messages: [
          user({ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }),
          user({ type: 'text', text: 'Please analyze the image above.' }),
        ],
      };
    default:
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  }
}

const RESOURCES = [
  {
    uri: CONFORMANCE_RESOURCES.staticText,
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
  },
  {
    uri: CONFORMANCE_RESOURCES.staticBinary,
    name: 'static-binary',
    description: 'A static binary resource (PNG)',
    mimeType: 'image/png',
  },
  {
    uri: CONFORMANCE_RESOURCES.watched,
    name: 'watched-resource',
    description: 'A resource clients can subscribe to',
    mimeType: 'text/plain',
  },
];

const TEMPLATE = new UriTemplate(CONFORMANCE_TEMPLATE);

function readResource(uri: string): ReadResourceResult {
  if (uri === CONFORMANCE_RESOURCES.staticText) {
    return {
      contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    };
  }
  if (uri === CONFORMANCE_RESOURCES.staticBinary) {
    return { contents: [{ uri, mimeType: 'image/png', blob: PNG_BASE64 }] };
  }
  if (uri === CONFORMANCE_RESOURCES.watched) {
    return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content.' }] };
  }
  const match = TEMPLATE.match(uri);
  if (match) {
    const id = String(match.id);
    return {
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    };
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${uri}`, { uri });
}

/** Listed after every odd call of test_trigger_tool_change, so each call changes the tool list. */
const DYNAMIC_TOOL: Tool = {
  name: 'test_dynamic_tool',
  description: 'Listed only while test_trigger_tool_change has been called an odd number of times.',
  inputSchema: { type: 'object', properties: {} },
};

const ARG1_COMPLETIONS = ['paris', 'park', 'party', 'test', 'testing', 'tested'];

/** Creates one fixture server instance (one per stdio process, or one per HTTP session). */
export function createFixtureServer(): Server {
  const server = new Server(
    { name: 'portcullis-conformance-fixture', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true },
        logging: {},
        completions: {},
      },
    },
  );
  const subscriptions = new Set<string>();
  // test_trigger_tool_change really changes the list (a gateway re-reads it and announces only a real change).
  let dynamicListed = false;
  const handlers = {
    ...HANDLERS,
    ...handlers2026({
      sessionCapabilities: () => server.getClientCapabilities(),
      listChanged: (list) => {
        if (list === 'prompts') return server.sendPromptListChanged();
        dynamicListed = !dynamicListed;
        return server.sendToolListChanged();
      },
    }),
    [DYNAMIC_TOOL.name]: () => text('Listed while the tool list is changed'),
  };

  server.setRequestHandler('tools/list', () => ({
    tools: [...TOOLS, ...TOOLS_2026, ...(dynamicListed ? [DYNAMIC_TOOL] : [])],
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const handler = handlers[request.params.name];
    if (!handler)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return handler(request.params.arguments ?? {}, ctx);
  });
  server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS }));
  server.setRequestHandler('prompts/get', (request, ctx) =>
    request.params.name === PROMPT_2026.name
      ? promptWithInput(ctx)
      : getPrompt(request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler('resources/list', () => ({ resources: RESOURCES }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: CONFORMANCE_TEMPLATE,
        name: 'template-data',
        description: 'Data for the given id',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler('resources/read', (request) => readResource(request.params.uri));
  server.setRequestHandler('resources/subscribe', (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler('completion/complete', (request) => {
    const { ref, argument } = request.params;
    const values =
      ref.type === 'ref/prompt' && ref.name === 'test_prompt_with_arguments' && argument.name === 'arg1'
        ? ARG1_COMPLETIONS.filter((v) => v.startsWith(argument.value))
        : [];
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}
