/**
 * The gateway's legacy-session transport under a real SDK Server: what it answers as JSON, when it opens a stream
 * instead, and what a closed session does to a pending answer. Requests are built by hand so every header and
 * byte of the answer can be read; the tool handlers are released by the test, never by a clock.
 */
import { Server, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBytes, LegacySessionTransport } from './legacy-transport.ts';

const VERSION = '2025-06-18';
const SESSION = 'session-1';

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

interface Rig {
  transport: LegacySessionTransport;
  /** Releases the pending `hold` call with this text. */
  release(text: string): void;
  /** Resolves once the `hold` handler runs. */
  holding: Promise<void>;
}

const rigs: LegacySessionTransport[] = [];
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((t) => t.close()));
});

async function rig(keepAliveMs = 60_000): Promise<Rig> {
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {}, logging: {} } });
  let release!: (text: string) => void;
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  server.setRequestHandler('tools/list', () => ({ tools: [] }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    if (request.params.name === 'log') {
      await ctx.mcpReq.log('info', 'working');
      return { content: [{ type: 'text', text: 'logged' }] };
    }
    if (request.params.name !== 'hold') return { content: [{ type: 'text', text: 'now' }] };
    held();
    const text = await new Promise<string>((resolve) => {
      release = resolve;
    });
    return { content: [{ type: 'text', text }] };
  });
  const transport = new LegacySessionTransport(SESSION, keepAliveMs);
  rigs.push(transport);
  await server.connect(transport);
  const opened = await post(transport, initialize(0));
  expect(opened.status).toBe(200);
  expect(await post(transport, { jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({
    status: 202,
  });
  return { transport, release: (text) => release(text), holding };
}

function post(
  transport: LegacySessionTransport,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const request = new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': SESSION,
      'mcp-protocol-version': VERSION,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return transport.handleRequest(request, body);
}

const call = (id: number, name: string, meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
});

/** The JSON-RPC messages of an SSE body, read to its end. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice('data: '.length)));
}

describe('answers of a legacy session', () => {
  it('answers a call that streams nothing as one JSON body', async () => {
    const { transport } = await rig();
    const response = await post(transport, call(1, 'now'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe(SESSION);
    expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ text: 'now' }] } });
  });

  it('answers a batch as a JSON array of its answers', async () => {
    const { transport } = await rig();
    const response = await post(transport, [call(1, 'now'), { jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
    expect(response.headers.get('content-type')).toBe('application/json');
    const answers = (await response.json()) as { id: number }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
  });

  it('opens a stream when a message other than the answer flows, and ends it with the answer', async () => {
    const { transport } = await rig();
    await post(transport, { jsonrpc: '2.0', id: 5, method: 'logging/setLevel', params: { level: 'debug' } });
    const response = await post(transport, call(6, 'log'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const messages = await events(response);
    expect(messages).toEqual([
      expect.objectContaining({ method: 'notifications/message' }),
      expect.objectContaining({
        id: 6,
        result: expect.objectContaining({ content: [{ type: 'text', text: 'logged' }] }),
      }),
    ]);
  });

  it('opens the stream at once for a call that carries a progress token', async () => {
    const rigged = await rig();
    const response = await post(rigged.transport, call(7, 'hold', { progressToken: 'p' }));
    // The response is out while the call is still held.
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    await rigged.holding;
    rigged.release('done');
    expect(await events(response)).toEqual([expect.objectContaining({ id: 7 })]);
  });

  it('refuses a request whose id is still in flight, and the first answer still reaches its own POST', async () => {
    const rigged = await rig();
    const first = post(rigged.transport, call(8, 'hold'));
    await rigged.holding;
    const again = await post(rigged.transport, call(8, 'now'));
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ id: 8, error: { code: -32600 } });
    // The same id twice in one batch is refused alike, before anything runs.
    const batch = await post(rigged.transport, [call(9, 'now'), call(9, 'now')]);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ id: 9, error: { code: -32600 } });
    rigged.release('first');
    const answered = await first;
    expect(await answered.json()).toMatchObject({ id: 8, result: { content: [{ text: 'first' }] } });
    // Once answered, the id may be used again.
    expect(await (await post(rigged.transport, call(8, 'now'))).json()).toMatchObject({ id: 8, result: {} });
  });

  it('turns an answer still pending after a keep-alive interval into a stream', async () => {
    const rigged = await rig(20);
    // Resolves only when the sweep opens the stream: the handler is held until released below.
    const response = await post(rigged.transport, call(8, 'hold'));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    rigged.release('late');
    expect(await events(response)).toEqual([
      expect.objectContaining({
        id: 8,
        result: expect.objectContaining({ content: [{ type: 'text', text: 'late' }] }),
      }),
    ]);
  });

  it('answers a pending call with "Session not found" when the session closes', async () => {
    const rigged = await rig();
    const pending = post(rigged.transport, call(9, 'hold'));
    await rigged.holding;
    await rigged.transport.close();
    const response = await pending;
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('keeps the SDK transport answers to requests it refuses', async () => {
    const { transport } = await rig();
    expect((await post(transport, call(1, 'now'), { accept: 'application/json' })).status).toBe(406);
    expect((await post(transport, call(1, 'now'), { 'mcp-protocol-version': '1999-01-01' })).status).toBe(
      400,
    );
    expect((await post(transport, call(1, 'now'), { 'mcp-session-id': 'other' })).status).toBe(404);
    const invalid = await post(transport, { jsonrpc: '2.0', id: 1, method: 7 });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: -32700 } });
    const again = await post(transport, initialize(2));
    expect(again.status).toBe(400);
    // An answer from the client to nothing it was asked is accepted and dropped, as before.
    expect((await post(transport, { jsonrpc: '2.0', id: 99, result: {} })).status).toBe(202);
  });
});

describe('answerBytes', () => {
  const tools = Array.from({ length: 3 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Says "${i}" \u2028 back`,
    inputSchema: { type: 'object' as const, properties: {} },
  }));
  it.each<[string, JSONRPCMessage]>([
    ['an answer without a tool list', { jsonrpc: '2.0', id: 1, result: { content: [] } }],
    ['a tool list', { jsonrpc: '2.0', id: 'a"b', result: { tools } }],
    [
      'a tool list with a cursor and _meta',
      { jsonrpc: '2.0', id: 7, result: { _meta: { k: 'portcullis-tools-x' }, tools, nextCursor: 'c' } },
    ],
    ['an error', { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } }],
  ])('writes %s as the UTF-8 of JSON.stringify, every time', (_name, message) => {
    expect(answerBytes(message).toString('utf8')).toBe(JSON.stringify(message));
    // The kept tool bytes reused under another id, and stdio's line.
    const again = { ...message, id: 'other \u00e9' } as JSONRPCMessage;
    expect(answerBytes(again).toString('utf8')).toBe(JSON.stringify(again));
    expect(answerBytes(message, '\n').toString('utf8')).toBe(`${JSON.stringify(message)}\n`);
  });

  it('serializes a new list array afresh: a rebuilt list is never answered from the old one', () => {
    const first = [{ name: 'a', inputSchema: { type: 'object' as const } }];
    const rebuilt = [{ name: 'b', description: 'caf\u00e9', inputSchema: { type: 'object' as const } }];
    const answer = (list: unknown[]) =>
      ({ jsonrpc: '2.0', id: 1, result: { tools: list } }) as JSONRPCMessage;
    expect(answerBytes(answer(first)).toString('utf8')).toBe(JSON.stringify(answer(first)));
    expect(answerBytes(answer(rebuilt)).toString('utf8')).toBe(JSON.stringify(answer(rebuilt)));
  });
});
