/**
 * Issue 2, "it must show" 4: malformed JSON, wrong content type, an oversized body, a bad Origin or Host, an
 * unknown session id, an unknown tool, a missing or wrong API key — each gets the right HTTP status or JSON-RPC
 * error, and the gateway keeps serving the next request.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

interface JsonRpcReply {
  error?: { code?: number; data?: { code?: string } };
}

const KEY = 'test-api-key-0123456789';
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${TEST_PORTCULLIS_KEY}'] },
      http: { maxBodyBytes: 4096 },
      upstreams: { every: UPSTREAMS.everythingStdio },
    },
    { env: { TEST_PORTCULLIS_KEY: KEY } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** POST over node:http, which (unlike fetch) lets a test send any Host header. */
function rawPost(body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(gateway.url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function post(body: string, headers: Record<string, string> = {}) {
  if (headers.host) {
    const { status, text } = await rawPost(body, {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${KEY}`,
      ...headers,
    });
    return {
      status,
      text,
      json: text.startsWith('{') ? (JSON.parse(text) as JsonRpcReply) : undefined,
    };
  }
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${KEY}`,
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: text.startsWith('{') ? (JSON.parse(text) as JsonRpcReply) : undefined,
  };
}

async function stillServes() {
  const client = await connectClient(gateway.url, { era: 'legacy', apiKey: KEY });
  const result = await client.callTool({ name: 'every_echo', arguments: { message: 'ok' } });
  await client.close();
  expect(JSON.stringify(result.content)).toContain('ok');
}

describe('bad input at the door', () => {
  it.each([
    ['malformed JSON', '{"jsonrpc": "2.0", "id": 1, "method": ', {}, 400, -32700, 'PARSE_ERROR'],
    [
      'a wrong content type',
      JSON.stringify(initialize),
      { 'content-type': 'text/plain' },
      415,
      -32600,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'an oversized body',
      JSON.stringify({ ...initialize, pad: 'x'.repeat(10_000) }),
      {},
      413,
      -32600,
      'BODY_TOO_LARGE',
    ],
    [
      'a bad Origin',
      JSON.stringify(initialize),
      { origin: 'https://evil.example' },
      403,
      -32600,
      'FORBIDDEN_ORIGIN',
    ],
    ['a bad Host', JSON.stringify(initialize), { host: 'evil.example' }, 403, -32600, 'FORBIDDEN_ORIGIN'],
    [
      'an unknown session id',
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      { 'mcp-session-id': 'nope' },
      404,
      -32600,
      'SESSION_NOT_FOUND',
    ],
    ['a missing API key', JSON.stringify(initialize), { authorization: '' }, 401, -32600, 'UNAUTHORIZED'],
    [
      'a wrong API key',
      JSON.stringify(initialize),
      { authorization: 'Bearer wrong-key' },
      401,
      -32600,
      'UNAUTHORIZED',
    ],
    ['a JSON scalar', '42', {}, 400, -32600, 'INVALID_REQUEST'],
  ])('%s', async (_name, body, headers, status, rpcCode, code) => {
    const response = await post(body, headers);
    expect(response.status).toBe(status);
    expect(response.json?.error?.code).toBe(rpcCode);
    expect(response.json?.error?.data?.code).toBe(code);
    expect(response.text).not.toContain(KEY);
    await stillServes();
  });

  it('answers 401 with a WWW-Authenticate challenge', async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.each(['legacy', 'modern'] as const)('answers an unknown tool as a JSON-RPC error (%s)', async (era) => {
    const client = await connectClient(gateway.url, { era, apiKey: KEY });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Unknown tool: no_such_tool/,
    );
    await client.close();
    await stillServes();
  });

  it.each(['legacy', 'modern'] as const)(
    'answers invalid arguments as a tool error the model can act on (%s)',
    async (era) => {
      const client = await connectClient(gateway.url, { era, apiKey: KEY });
      const result = await client.callTool({ name: 'every_echo', arguments: { message: 42 } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(
        /invalid arguments for every_echo: \/message must be string/,
      );
      await client.close();
    },
  );

  it('ends a legacy session with DELETE, after which its id is unknown', async () => {
    const init = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${KEY}`,
      },
      body: JSON.stringify(initialize),
    });
    const session = init.headers.get('mcp-session-id') as string;
    await init.text();
    expect(session).toBeTruthy();
    const deleted = await fetch(gateway.url, {
      method: 'DELETE',
      headers: {
        'mcp-session-id': session,
        authorization: `Bearer ${KEY}`,
        'mcp-protocol-version': '2025-06-18',
      },
    });
    expect(deleted.status).toBe(200);
    const after = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), {
      'mcp-session-id': session,
    });
    expect(after.status).toBe(404);
  });

  it('serves /healthz and /readyz', async () => {
    const base = gateway.url.replace(/\/mcp$/, '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = (await (await fetch(`${base}/readyz`)).json()) as {
      store: string;
      upstreams: { id: string; state: string }[];
    };
    expect(ready.store).toBe('open');
    expect(ready.upstreams).toEqual([{ id: 'every', state: 'connected' }]);
  });
});
