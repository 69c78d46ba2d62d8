/**
 * The 2026-07-28 wire at the HTTP door, served by the gateway's own 2026-era server: each raw POST of the table
 * gets the HTTP status and JSON-RPC error the revision's validation ladder gives it (the classifier's refusals,
 * the supported-revision gate, the standard request headers, the method registry, params checks), results are
 * stamped as the revision requires, a notification is accepted without an answer, and a `subscriptions/listen`
 * stream acknowledges its filter and ends with its complete result when the gateway closes. The upstream is the
 * server-everything package as a real stdio process; the requests are real HTTP posts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const V = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio } });
}, 120_000);
afterAll(async () => {
  await gateway?.close();
});

/** The standard headers of a 2026-era request for `method` (and `name`, mirrored in Mcp-Name). */
function standardHeaders(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': V,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

async function post(body: unknown, headers: Record<string, string>) {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), text };
}

const request = (
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> = ENVELOPE,
) => ({
  jsonrpc: '2.0',
  id: 9,
  method,
  params: { ...params, _meta: meta },
});

describe('the validation ladder of a 2026-era POST', () => {
  it.each([
    [
      'an unknown method',
      request('tools/destroy'),
      standardHeaders('tools/destroy'),
      404,
      -32601,
      'Method not found',
    ],
    [
      'ping, which the revision removed',
      request('ping'),
      standardHeaders('ping'),
      404,
      -32601,
      'Method not found',
    ],
    [
      'logging/setLevel, which the envelope replaced',
      request('logging/setLevel', { level: 'debug' }),
      standardHeaders('logging/setLevel'),
      404,
      -32601,
      'Method not found',
    ],
    [
      'a request without its Mcp-Method header',
      request('tools/list'),
      { 'mcp-protocol-version': V },
      400,
      -32020,
      'Mcp-Method header is absent',
    ],
    [
      'a request without its MCP-Protocol-Version header',
      request('tools/list'),
      { 'mcp-method': 'tools/list' },
      400,
      -32020,
      'MCP-Protocol-Version header is absent',
    ],
    [
      'a call without its Mcp-Name header',
      request('tools/call', { name: 'every_echo', arguments: { message: 'x' } }),
      standardHeaders('tools/call'),
      400,
      -32020,
      'Mcp-Name header is absent',
    ],
    [
      'a call whose Mcp-Name names another tool',
      request('tools/call', { name: 'every_echo', arguments: { message: 'x' } }),
      standardHeaders('tools/call', 'every_add'),
      400,
      -32020,
      'the Mcp-Name header names "every_add"',
    ],
    [
      'a read whose Mcp-Name is an invalid Base64 sentinel',
      request('resources/read', { uri: 'demo://x' }),
      standardHeaders('resources/read', '=?base64?***?='),
      400,
      -32020,
      'invalid Base64 sentinel',
    ],
    [
      'headers naming another method than the body',
      request('tools/list'),
      standardHeaders('prompts/list'),
      400,
      -32020,
      'the Mcp-Method header names prompts/list',
    ],
    [
      'an envelope naming a revision the gateway does not serve',
      request('tools/list', {}, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
      { ...standardHeaders('tools/list'), 'mcp-protocol-version': '2099-01-01' },
      400,
      -32022,
      'Unsupported protocol version',
    ],
    [
      'a modern header without the envelope',
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} },
      standardHeaders('tools/list'),
      400,
      -32602,
      'missing the required per-request envelope',
    ],
    [
      'an envelope without client capabilities',
      request('tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': V }),
      standardHeaders('tools/list'),
      400,
      -32602,
      'Invalid _meta envelope',
    ],
    [
      'a batch holding a 2026-era request',
      [request('tools/list')],
      standardHeaders('tools/list'),
      400,
      -32600,
      'batches may not contain',
    ],
    [
      'a call without a name',
      request('tools/call', { arguments: {} }),
      standardHeaders('tools/call'),
      200,
      -32602,
      'name must be a string',
    ],
    [
      'a call of an unknown tool',
      request('tools/call', { name: 'nope', arguments: {} }),
      standardHeaders('tools/call', 'nope'),
      200,
      -32602,
      'nope',
    ],
  ])('answers %s', async (_case, body, headers, status, code, text) => {
    const answer = await post(body, headers);
    expect(answer.status).toBe(status);
    expect(answer.type).toBe('application/json');
    const parsed = JSON.parse(answer.text) as { error?: { code: number; message: string } };
    expect(parsed.error?.code).toBe(code);
    expect(parsed.error?.message).toContain(text);
  });

  it('answers tools/list with one JSON body stamped with resultType, cache fields and the server identity', async () => {
    const answer = await post(request('tools/list'), standardHeaders('tools/list'));
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/json');
    const { result } = JSON.parse(answer.text) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'portcullis' } },
    });
    expect((result.tools as { name: string }[]).some((tool) => tool.name === 'every_echo')).toBe(true);
  });

  it('answers server/discover with the served revision and the capabilities', async () => {
    const answer = await post(request('server/discover'), standardHeaders('server/discover'));
    const { result } = JSON.parse(answer.text) as { result: Record<string, unknown> };
    expect(result).toMatchObject({
      supportedVersions: [V],
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
      resultType: 'complete',
    });
  });

  it('accepts a 2026-era notification with 202 and no body', async () => {
    const answer = await post(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: ENVELOPE } },
      { 'mcp-protocol-version': V, 'mcp-method': 'notifications/cancelled' },
    );
    expect(answer).toEqual({ status: 202, type: null, text: '' });
  });
});

describe('subscriptions/listen over HTTP', () => {
  it('acknowledges the honoured filter on an event stream', async () => {
    const controller = new AbortController();
    const response = await fetch(gateway.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...standardHeaders('subscriptions/listen'),
      },
      body: JSON.stringify(
        request('subscriptions/listen', {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['demo://x'] },
        }),
      ),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('notifications/subscriptions/acknowledged');
    const data = JSON.parse(first.split('data: ')[1] as string) as { params: Record<string, unknown> };
    // Resource subscriptions need a session: the 2026-era server does not honour them.
    expect(data.params).toEqual({
      notifications: { toolsListChanged: true },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 9 },
    });
    controller.abort();
  });

  it('ends a filter that follows nothing with its complete result at once', async () => {
    const answer = await post(
      request('subscriptions/listen', { notifications: {} }),
      standardHeaders('subscriptions/listen'),
    );
    expect(answer.type).toBe('text/event-stream');
    const events = answer.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(events.map((e) => e.method ?? 'result')).toEqual([
      'notifications/subscriptions/acknowledged',
      'result',
    ]);
    expect(events[1]).toMatchObject({ id: 9, result: { resultType: 'complete' } });
  });

  it('refuses a filter that is not one', async () => {
    const answer = await post(
      request('subscriptions/listen', { notifications: { toolsListChanged: 'yes' } }),
      standardHeaders('subscriptions/listen'),
    );
    expect(JSON.parse(answer.text)).toMatchObject({ id: 9, error: { code: -32602 } });
  });
});
