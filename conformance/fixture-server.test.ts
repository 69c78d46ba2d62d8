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
        capabilities: { elicitation: { form: {} }, sampling: {} },
        ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      elicitations.push(request.params);
      return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    });
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

  it('keeps the JSON Schema 2020-12 keywords of its schema tool', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'json_schema_2020_12_tool');
    expect(tool?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object' } },
      additionalProperties: false,
    });
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
