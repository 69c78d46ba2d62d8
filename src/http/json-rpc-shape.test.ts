/**
 * The zod-free reading of JSON-RPC messages and the era router's shortcut agree with the SDK: whatever
 * `plainMessage` accepts, the SDK's JSONRPCMessageSchema accepts and returns unchanged, and `routeOf` answers
 * as the SDK's `isLegacyRequest` does, on hand-picked edge cases and on seeded mutations of real messages.
 */
import { classifyInboundRequest, isLegacyRequest, parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { mutateMessage, serialize, type Json } from '../../test/fuzz/mutate.ts';
import { createRng } from '../../test/fuzz/prng.ts';
import { plainMessage } from '../shared/json-rpc-shape.ts';
import { routeOf } from './mcp-endpoint.ts';

const CLAIM = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

const MESSAGES: Json[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 'p' } } },
  { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 3 } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'no' } },
  { jsonrpc: '2.0', id: 3, result: { action: 'accept', content: { ok: true } } },
  { jsonrpc: '2.0', id: 4, error: { code: -32000, message: 'nope' } },
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  },
  { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: { [CLAIM]: '2026-07-28' } } },
];

/** 2026-era requests whose envelope is of the common shape the era router reads itself. */
const MODERN_MESSAGES: Json[] = [
  {
    jsonrpc: '2.0',
    id: 10,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: { message: 'hi' },
      _meta: {
        [CLAIM]: '2026-07-28',
        [CAPABILITIES]: { elicitation: { form: {} }, sampling: { tools: {} }, roots: { listChanged: true } },
        'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1', title: 'C' },
        'io.modelcontextprotocol/logLevel': 'info',
        progressToken: 'p',
      },
    },
  },
  {
    jsonrpc: '2.0',
    id: 11,
    method: 'prompts/get',
    params: {
      name: 'p',
      requestState: 's',
      inputResponses: {},
      _meta: { [CLAIM]: '2026-07-28', [CAPABILITIES]: {} },
    },
  },
];

const EDGES: unknown[] = [
  null,
  [],
  'text',
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { jsonrpc: '2.0', id: 1.5, method: 'x' },
  { jsonrpc: '2.0', id: null, method: 'x' },
  { jsonrpc: '2.0', id: 2 ** 60, method: 'x' },
  { jsonrpc: '2.0', id: 1, method: 'x', extra: true },
  { jsonrpc: '2.0', id: 1, method: 'x', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'x', params: null },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: null } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { 'io.modelcontextprotocol/related-task': {} } } },
  { jsonrpc: '2.0', method: 'x', params: { _meta: { progressToken: {} } } },
  { jsonrpc: '2.0', id: 1, result: [] },
  { jsonrpc: '2.0', id: 1, result: { _meta: { anything: 1 } } },
  { jsonrpc: '2.0', result: {} },
  JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{"a":1}}'),
  JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"_meta":1}}}'),
  JSON.parse('{"jsonrpc":"2.0","id":3,"result":{"__proto__":{"polluted":true},"content":[]}}'),
];

function sdkReading(value: unknown): unknown {
  try {
    return { ok: parseJSONRPCMessage(value) };
  } catch {
    return 'rejected';
  }
}

/** Seeded mutations of the valid messages, parsed back (texts that do not parse are skipped). */
function mutations(count: number, of = MESSAGES, seed = 20): unknown[] {
  const rng = createRng(seed);
  const out: unknown[] = [];
  for (let i = 0; i < count; i += 1) {
    const text = serialize(mutateMessage(rng, rng.pick(of), 40));
    try {
      out.push(JSON.parse(text));
    } catch {
      // Raw fragments may not be JSON; the endpoint answers those before any of this runs.
    }
  }
  return out;
}

const CASES = [...MESSAGES, ...EDGES, ...mutations(1500)];

describe('plainMessage', () => {
  it('accepts only what the SDK schema accepts, unchanged', () => {
    let accepted = 0;
    for (const value of CASES) {
      const plain = plainMessage(value);
      if (plain === undefined) continue;
      accepted += 1;
      expect(sdkReading(value)).toEqual({ ok: plain });
    }
    // The shortcut must cover the common messages, or it saves nothing.
    expect(accepted).toBeGreaterThan(MESSAGES.length);
  });

  it('takes the common requests, notifications and results', () => {
    for (const value of MESSAGES.slice(0, 7)) expect(plainMessage(value)).toBe(value);
  });
});

function post(body: unknown, version?: string): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(version === undefined ? {} : { 'mcp-protocol-version': version }),
    },
    body: JSON.stringify(body),
  });
}

describe('the era router', () => {
  it('routes as the SDK classifier does, with and without protocol version headers', async () => {
    for (const value of CASES.filter((v) => v !== null && typeof v === 'object')) {
      for (const version of [undefined, '2025-06-18', '2025-11-25', '2026-07-28', ' 2025-06-18', 'bogus']) {
        const ours = routeOf(post(value, version), value).kind === 'legacy';
        const sdk = await isLegacyRequest(post(value, version), value, { maxRequestBodySize: 1_000_000 });
        expect({ value, version, legacy: ours }).toEqual({ value, version, legacy: sdk });
      }
    }
  });

  it('routes a plain 2026-era request exactly as the SDK classifier does, and takes the common ones itself', () => {
    let shortcut = 0;
    const modernCases = [...MODERN_MESSAGES, ...mutations(800, MODERN_MESSAGES, 26), ...CASES];
    for (const value of modernCases.filter((v) => v !== null && typeof v === 'object')) {
      const method = (value as { method?: unknown }).method;
      for (const version of [undefined, '2026-07-28', '2025-11-25']) {
        // A header value is a byte string; a mutated method that is none cannot be sent as one.
        const sendable = typeof method === 'string' && /^[\x20-\x7e]*$/.test(method) ? method : 'x';
        for (const named of [undefined, sendable, 'tools/list']) {
          const headers = {
            'content-type': 'application/json',
            ...(version === undefined ? {} : { 'mcp-protocol-version': version }),
            ...(named === undefined ? {} : { 'mcp-method': named }),
          };
          const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: '{}' });
          const ours = routeOf(request, value);
          const sdk = classifyInboundRequest({
            httpMethod: 'POST',
            body: value,
            ...(version === undefined ? {} : { protocolVersionHeader: version }),
            ...(named === undefined ? {} : { mcpMethodHeader: named }),
          });
          // The legacy shortcut keeps its own reason; the era is what must agree.
          if (ours.kind === 'legacy')
            expect({ value, headers, kind: sdk.kind }).toEqual({ value, headers, kind: 'legacy' });
          else expect({ value, headers, route: ours }).toEqual({ value, headers, route: sdk });
          if (ours.kind === 'modern' && ours.message === value) shortcut += 1;
        }
      }
    }
    expect(shortcut).toBeGreaterThan(0);
  });

  it('sends every GET and DELETE to the session table', async () => {
    for (const method of ['GET', 'DELETE']) {
      expect(routeOf(new Request('http://127.0.0.1/mcp', { method }), undefined).kind).toBe('legacy');
    }
  });
});
