import { describe, expect, it } from 'vitest';
import { paramHeaderProblem } from './param-headers.ts';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
    target: {
      type: 'object',
      properties: { host: { type: 'string', 'x-mcp-header': 'Host' } },
    },
    note: { type: 'string' },
  },
};

const problem = (args: unknown, headers: Record<string, string>) =>
  paramHeaderProblem(schema, args, new Headers(headers));

describe('paramHeaderProblem', () => {
  it.each([
    ['an integer as its decimal', { count: 42 }, { 'Mcp-Param-Count': '42' }],
    ['an integer written 42.0', { count: 42 }, { 'Mcp-Param-Count': '42.0' }],
    ['a boolean as true/false', { dry: false }, { 'Mcp-Param-Dry': 'false' }],
    ['a nested argument', { target: { host: 'db1' } }, { 'Mcp-Param-Host': 'db1' }],
    ['null and absent arguments without headers', { count: null, target: {} }, {}],
    ['an argument without x-mcp-header', { note: 'free text' }, {}],
    ['headers the tool does not declare', {}, { 'Mcp-Param-Other': 'x' }],
  ])('accepts %s', (_what, args, headers) => {
    expect(problem(args, headers)).toBeUndefined();
  });

  it.each([
    ['a different integer', { count: 42 }, { 'Mcp-Param-Count': '43' }, 'does not match argument count'],
    ['an integer not in decimal', { count: 42 }, { 'Mcp-Param-Count': '0x2a' }, 'does not match'],
    ['a boolean in capitals', { dry: true }, { 'Mcp-Param-Dry': 'TRUE' }, 'does not match argument dry'],
    ['a missing nested header', { target: { host: 'db1' } }, {}, 'Mcp-Param-Host header is missing'],
  ])('refuses %s', (_what, args, headers, reason) => {
    expect(problem(args, headers)).toContain(reason);
  });

  it('looks for declarations through eight levels of properties, not below', () => {
    const nested = (levels: number) => {
      let deep: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
      let args: unknown = 'v';
      for (let i = 0; i < levels; i += 1) {
        deep = { type: 'object', properties: { p: deep } };
        args = { p: args };
      }
      return paramHeaderProblem(deep, args, new Headers());
    };
    expect(nested(8)).toContain('Mcp-Param-Deep header is missing');
    expect(nested(9)).toBeUndefined();
  });
});
