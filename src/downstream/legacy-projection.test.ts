/**
 * The 2025-era wire's view of non-object outputSchemas: the advertised wrap (local pointers moved under
 * `properties.result`, data and new bases left alone) and the matching wrap of structured content.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
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
