import { describe, expect, it } from 'vitest';
import { paramHeaders } from './param-headers.ts';

const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('the Mcp-Param headers of a call to a 2026-era upstream', () => {
  it('mirrors each marked primitive argument, literally or as Base64 of its UTF-8', () => {
    const inputSchema = schema({
      region: { type: 'string', 'x-mcp-header': 'Region' },
      count: { type: 'integer', 'x-mcp-header': 'Count' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
      padded: { type: 'string', 'x-mcp-header': 'Padded' },
      nested: schema({ city: { type: 'string', 'x-mcp-header': 'City' } }),
    });
    expect(
      paramHeaders(inputSchema, {
        region: 'eu-west',
        count: 3,
        dry: false,
        padded: ' x',
        nested: { city: 'Zürich' },
      }),
    ).toEqual({
      'Mcp-Param-Region': 'eu-west',
      'Mcp-Param-Count': '3',
      'Mcp-Param-Dry': 'false',
      'Mcp-Param-Padded': `=?base64?${Buffer.from(' x').toString('base64')}?=`,
      'Mcp-Param-City': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
    });
  });

  it('sends nothing for absent, null or non-primitive arguments, or for a tool without declarations', () => {
    const inputSchema = schema({ region: { type: 'string', 'x-mcp-header': 'Region' } });
    expect(paramHeaders(inputSchema, {})).toBeUndefined();
    expect(paramHeaders(inputSchema, { region: null })).toBeUndefined();
    expect(paramHeaders(inputSchema, { region: { a: 1 } })).toBeUndefined();
    expect(paramHeaders(schema({ region: { type: 'string' } }), { region: 'x' })).toBeUndefined();
    expect(paramHeaders(undefined, { region: 'x' })).toBeUndefined();
  });

  it('ignores declarations that are not header names, on types a header cannot carry, or repeated', () => {
    const inputSchema = schema({
      spaced: { type: 'string', 'x-mcp-header': 'Not A Token' },
      list: { type: 'array', 'x-mcp-header': 'List' },
      first: { type: 'string', 'x-mcp-header': 'Same' },
      second: { type: 'string', 'x-mcp-header': 'SAME' },
    });
    expect(paramHeaders(inputSchema, { spaced: 'a', list: 'b', first: 'c', second: 'd' })).toEqual({
      'Mcp-Param-Same': 'c',
    });
  });

  it('looks through a bounded depth of properties, without recursion', () => {
    // 10 000 levels of nesting: a recursive walk would overflow the stack; this one stops at its depth.
    let deep: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    let args: unknown = 'x';
    for (let i = 0; i < 10_000; i += 1) {
      deep = schema({ a: deep });
      args = { a: args };
    }
    expect(paramHeaders(deep, args as Record<string, unknown>)).toBeUndefined();
  });
});
