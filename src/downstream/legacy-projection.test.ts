/**
 * The 2025-era wire's view of non-object outputSchemas: the advertised wrap (local pointers moved under
 * `properties.result`, data and new bases left alone) and the matching wrap of structured content.
 */
import {
  InMemoryTransport,
  Server,
  type CallToolResult,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { legacyToolList, projectLegacyToolResult } from './legacy-projection.ts';

const tool = (outputSchema?: Record<string, unknown>): Tool =>
  ({ name: 't', inputSchema: { type: 'object' }, ...(outputSchema ? { outputSchema } : {}) }) as Tool;

describe('legacyToolList', () => {
  it('returns the same array when every outputSchema is an object (so its JSON stays cached)', () => {
    const tools = [tool(), tool({ type: 'object', properties: {} })];
    expect(legacyToolList(tools)).toBe(tools);
  });

  it.each([
    [
      'an array root',
      { type: 'array', items: { type: 'string' } },
      {
        type: 'object',
        properties: { result: { type: 'array', items: { type: 'string' } } },
        required: ['result'],
      },
    ],
    [
      'local pointers, moved under result; data and names left alone',
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        anyOf: [{ $ref: '#/$defs/item' }, { $ref: '#' }],
        $defs: { item: { type: 'string', default: { $ref: '#/kept' } }, const: { $ref: '#/$defs/item' } },
      },
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          result: {
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            anyOf: [{ $ref: '#/properties/result/$defs/item' }, { $ref: '#/properties/result' }],
            $defs: {
              item: { type: 'string', default: { $ref: '#/kept' } },
              const: { $ref: '#/properties/result/$defs/item' },
            },
          },
        },
        required: ['result'],
      },
    ],
    [
      'a subschema with a base of its own, kept as it is',
      { type: 'array', items: { $id: 'https://x.example/item', $ref: '#/a' } },
      {
        type: 'object',
        properties: { result: { type: 'array', items: { $id: 'https://x.example/item', $ref: '#/a' } } },
        required: ['result'],
      },
    ],
  ])('wraps %s', (_case, schema, wrapped) => {
    const tools = [tool(), tool(schema)];
    const listed = legacyToolList(tools);
    expect(listed[0]).toBe(tools[0]);
    expect(listed[1]?.outputSchema).toEqual(wrapped);
    // One wrapped list per advertised array.
    expect(legacyToolList(tools)).toBe(listed);
  });
});

describe('projectLegacyToolResult', () => {
  const text = { type: 'text' as const, text: 'x' };
  it.each([
    ['no structured content', { content: [text] }, undefined, { content: [text] }],
    ['no content at all', {}, undefined, { content: [] }],
    [
      'an object value under an object schema',
      { content: [text], structuredContent: { a: 1 } },
      { type: 'object' },
      { content: [text], structuredContent: { a: 1 } },
    ],
    [
      'an object value under a non-object schema',
      { content: [text], structuredContent: { a: 1 } },
      { anyOf: [{ type: 'object' }, { type: 'string' }] },
      { content: [text], structuredContent: { result: { a: 1 } } },
    ],
    [
      'an array value without a text block',
      { content: [], structuredContent: [1, 2] },
      { type: 'array' },
      { content: [{ type: 'text', text: '[1,2]' }], structuredContent: { result: [1, 2] } },
    ],
  ])('projects %s', (_case, result, schema, projected) => {
    expect(projectLegacyToolResult(result as unknown as CallToolResult, schema)).toEqual(projected);
  });
});

/**
 * The SDK's Server (its 2025-era codec) as the oracle: what it advertised and projected for the same tools and
 * results is what the gateway's own server now sends.
 */
describe('agreement with the SDK Server on the 2025 wire', () => {
  const schemas: Record<string, unknown>[] = [
    { type: 'string' },
    { type: 'array', items: { $ref: '#/$defs/x' }, $defs: { x: { type: 'integer' } } },
    { anyOf: [{ $ref: '#' }, { type: 'null' }], examples: [{ $ref: '#/data' }] },
    { $id: 'https://x.example/s', type: 'array', items: { $ref: '#/a' } },
    { type: 'array', items: { $id: '#frag', $ref: '#/b' }, dependencies: { a: { $ref: '#/c' } } },
    { type: 'object', properties: { a: { $ref: '#/properties/a' } } },
  ];
  const tools = schemas.map((outputSchema, i) => ({ ...tool(outputSchema), name: `t${i}` }) as Tool);

  async function sdkServer(): Promise<{ server: Server; list: () => Promise<Tool[]> }> {
    const server = new Server({ name: 'oracle', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools }));
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    const answers = new Map<unknown, (m: Record<string, unknown>) => void>();
    clientEnd.onmessage = (message) => {
      const m = message as unknown as Record<string, unknown>;
      answers.get(m.id)?.(m);
    };
    await server.connect(serverEnd);
    await clientEnd.start();
    const ask = (id: number, method: string, params?: unknown) =>
      new Promise<Record<string, unknown>>((resolve) => {
        answers.set(id, resolve);
        void clientEnd.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) } as JSONRPCMessage);
      });
    await ask(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    return { server, list: async () => ((await ask(2, 'tools/list')).result as { tools: Tool[] }).tools };
  }

  it('advertises the same tool list', async () => {
    const { server, list } = await sdkServer();
    expect(legacyToolList(tools)).toEqual(await list());
    await server.close();
  });

  it('projects the same results', async () => {
    const { server } = await sdkServer();
    const results = [
      { content: [], structuredContent: [1] },
      { content: [{ type: 'text', text: 'x' }], structuredContent: 'plain' },
      { content: [], structuredContent: { a: 1 } },
      { content: [], structuredContent: null },
    ] as unknown as CallToolResult[];
    for (const schema of [undefined, ...schemas])
      for (const result of results)
        expect(projectLegacyToolResult(result, schema)).toEqual(server.projectCallToolResult(result, schema));
    await server.close();
  });
});
