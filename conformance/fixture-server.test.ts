/** The fixture itself, as a real stdio process driven by the real SDK client in both protocol eras. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CONFORMANCE_PROMPTS, CONFORMANCE_RESOURCES, CONFORMANCE_TOOLS } from './contract.ts';
import { REPO_ROOT } from './gateway-under-test.ts';

describe.each(['legacy', 'modern'] as const)('the stdio fixture on the %s era', (era) => {
  let client: Client;
  const elicitations: unknown[] = [];
  const samplings: unknown[] = [];

  beforeAll(async () => {
    client = new Client(
      { name: 'fixture-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
        ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      elicitations.push(request.params);
      // Answers every field the form asks for: booleans with true, everything else with a name.
      const schema = 'requestedSchema' in request.params ? request.params.requestedSchema : undefined;
      const fields = Object.entries(schema?.properties ?? {});
      const content = Object.fromEntries(
        fields.map(([key, field]) => [key, field.type === 'boolean' ? true : `ada-${key}`]),
      );
      return { action: 'accept', content };
    });
    client.setRequestHandler('roots/list', async () => ({
      roots: [{ uri: 'file:///tmp/fixture-root', name: 'root' }],
    }));
    client.setRequestHandler('sampling/createMessage', async (request) => {
      samplings.push(request.params);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'sampled' },
        model: 'm',
        stopReason: 'endTurn',
      };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', path.join(REPO_ROOT, 'conformance/upstream-server.ts')],
        cwd: REPO_ROOT,
      }),
    );
    expect(client.getProtocolEra()).toBe(era);
  });
  afterAll(async () => client?.close());

  it('publishes exactly the contract', async () => {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([...CONFORMANCE_TOOLS].sort());
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(
      [...CONFORMANCE_PROMPTS].sort(),
    );
    expect((await client.listResources()).resources.map((r) => r.uri).sort()).toEqual(
      Object.values(CONFORMANCE_RESOURCES).sort(),
    );
  });

  it('changes its tool list with each test_trigger_tool_change, back after two', async () => {
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    expect(await names()).toContain('test_dynamic_tool');
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    expect(await names()).not.toContain('test_dynamic_tool');
  });

  it('keeps the JSON Schema 2020-12 keywords of its schema tool', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'json_schema_2020_12_tool');
    expect(tool?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object', $anchor: 'addressDef' } },
      additionalProperties: false,
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
    });
  });

  it('marks the region of its custom-header tool with x-mcp-header', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'test_custom_header');
    expect(tool?.inputSchema.properties?.region).toMatchObject({ type: 'string', 'x-mcp-header': 'Region' });
    const result = await client.callTool({ name: 'test_custom_header', arguments: { region: 'eu-west' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Region: eu-west' }]);
  });

  it('carries its requestState over two rounds of input', async () => {
    const result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'Multi-round complete for ada-name who likes ada-color' },
    ]);
  });

  it('asks for an elicitation, a sample and the roots in one round', async () => {
    const result = await client.callTool({
      name: 'test_input_required_result_multiple_inputs',
      arguments: {},
    });
    expect(result.content).toEqual([{ type: 'text', text: 'Name: ada-name; Greeting: sampled; Roots: 1' }]);
  });

  it('accepts its own signed requestState', async () => {
    const result = await client.callTool({
      name: 'test_input_required_result_tampered_state',
      arguments: {},
    });
    expect(result.content).toEqual([{ type: 'text', text: 'integrity-ok: state verified' }]);
  });

  it('asks for input on prompts/get too', async () => {
    const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Prompt with context: ada-context' } },
    ]);
  });

  it('needs sampling for test_missing_capability, which this client declares', async () => {
    const result = await client.callTool({ name: 'test_missing_capability', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Success' }]);
  });

  it.each([
    ['test_image_content', 'image', 'image/png'],
    ['test_audio_content', 'audio', 'audio/wav'],
  ])('%s returns %s content', async (name, type, mimeType) => {
    const result = await client.callTool({ name, arguments: {} });
    expect(result.content).toEqual([expect.objectContaining({ type, mimeType, data: expect.any(String) })]);
  });

  it('asks the client through elicitation and reports the answer', async () => {
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
    expect(elicitations.at(-1)).toMatchObject({
      message: 'who?',
      requestedSchema: { required: ['username', 'email'] },
    });
    expect(JSON.stringify(result.content)).toContain('action=accept');
    expect(JSON.stringify(result.content)).toContain('ada-username');
  });

  it('asks the client for sampling and reports the answer', async () => {
    const result = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hello' } });
    expect(samplings.at(-1)).toMatchObject({ maxTokens: 100 });
    expect(JSON.stringify(result.content)).toContain('LLM response: sampled');
  });

  it('reports a tool error as isError', async () => {
    const result = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(result.isError).toBe(true);
  });

  it('substitutes template parameters and prompt arguments', async () => {
    const read = await client.readResource({ uri: 'test://template/42/data' });
    expect(read.contents[0]).toMatchObject({ uri: 'test://template/42/data', mimeType: 'application/json' });
    expect(JSON.stringify(read.contents)).toContain('Data for ID: 42');
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'x1', arg2: 'y2' },
    });
    expect(JSON.stringify(prompt.messages)).toMatch(/x1.*y2/);
  });

  it('completes the first argument of its prompt', async () => {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'pa' },
    });
    expect(result.completion.values).toEqual(['paris', 'park', 'party']);
  });
});

describe('the stdio fixture, when the client declines', () => {
  it('ends a multi-round flow at the first refusal instead of asking again', async () => {
    let asked = 0;
    const client = new Client(
      { name: 'fixture-decline', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      return { action: 'decline' };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', path.join(REPO_ROOT, 'conformance/upstream-server.ts')],
        cwd: REPO_ROOT,
      }),
    );
    try {
      const result = await client.callTool({ name: 'test_input_required_result_multi_round', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Input refused: decline' }]);
      const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt' });
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Input refused: decline' } },
      ]);
      expect(asked).toBe(2);
    } finally {
      await client.close();
    }
  });
});
