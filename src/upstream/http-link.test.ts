/**
 * The gateway's own Streamable HTTP link (http-link.ts) through the real connection code (connectUpstream), against
 * real servers on 127.0.0.1: the SDK's server transport (JSON answers and event-stream answers, with sessions), a
 * 2026-era SDK handler, and a scripted server that misbehaves (test/http-link-upstream.ts).
 */
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import {
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { PortcullisError } from '../errors/index.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './http-link-support.ts';
import { StreamableHttpLink } from './http-link.ts';
import { connectLink, failure, startScriptedUpstream, waitUntil } from './test/http-link-upstream.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Connects the real connection code to `url`; closes it after the test. */
const connect = (url: string, protocol: 'legacy' | 'modern' | 'auto' = 'legacy') =>
  connectLink('http', url, protocol, cleanups);

/** Stops a test server, its kept-alive connections included. */
function stopServer(server: ReturnType<typeof serve>): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

/** A session-keeping SDK server (one McpServer per session) recording what each request carried. */
async function startSdkServer(enableJsonResponse: boolean) {
  const seen: { method: string; session: string | null; version: string | null; auth: string | null }[] = [];
  const closed: string[] = [];
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const server = serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const session = request.headers.get('mcp-session-id');
      seen.push({
        method: request.method,
        session,
        version: request.headers.get('mcp-protocol-version'),
        auth: request.headers.get('authorization'),
      });
      let transport = session === null ? undefined : sessions.get(session);
      if (transport === undefined) {
        if (session !== null) return new Response('no such session', { status: 404 });
        const created = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (id) => void sessions.set(id, created),
          onsessionclosed: (id) => {
            closed.push(id);
            sessions.delete(id);
          },
        });
        const mcp = new McpServer(
          { name: 'sdk-upstream', version: '1.0.0' },
          { capabilities: { logging: {} } },
        );
        mcp.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
          const token = ctx.mcpReq._meta?.progressToken;
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: 1, total: 1 },
            });
          }
          return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
        });
        await mcp.connect(created);
        transport = created;
      }
      return transport.handleRequest(request);
    },
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  cleanups.push(() => stopServer(server));
  return { url: `http://127.0.0.1:${port}/mcp`, seen, closed, sessions };
}

async function scripted(mode: 'http' | 'sse' = 'http', maxBytes = DEFAULT_MAX_MESSAGE_BYTES) {
  const upstream = await startScriptedUpstream(mode, { maxBytes });
  cleanups.push(() => upstream.close());
  return upstream;
}

describe('StreamableHttpLink against the SDK server transport', () => {
  it.each([
    ['JSON answers', true],
    ['event-stream answers', false],
  ])(
    'serves a 2025-era link with %s, sending the session, the version and the headers on every request',
    async (_name, json) => {
      const server = await startSdkServer(json);
      const { connection } = await connect(server.url);
      const lists = await connection.fetchLists();
      expect(lists.tools.map((tool) => tool.name)).toEqual(['greet']);
      const progress: number[] = [];
      const result = await connection.callTool(
        'greet',
        { name: 'Ada' },
        { onProgress: (p) => progress.push(p.progress) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      // A server that answers with plain JSON has no stream to send progress on before the answer.
      expect(progress).toEqual(json ? [] : [1]);

      const [session] = [...server.sessions.keys()];
      expect(session).toBeDefined();
      const [initialize, ...rest] = server.seen;
      // initialize goes without a session and without a version; everything after carries both.
      expect(initialize).toMatchObject({ method: 'POST', session: null, version: null });
      expect(rest.length).toBeGreaterThan(2);
      for (const request of rest) {
        expect(request.session).toBe(session);
        expect(request.version).toBe(connection.protocolVersion);
      }
      expect(server.seen.every((request) => request.auth === 'Bearer http-token')).toBe(true);
      // After notifications/initialized the link opened the GET stream the SDK server offers.
      expect(rest.some((request) => request.method === 'GET')).toBe(true);

      await connection.close();
      // close() ends the session on the server.
      expect(server.closed).toEqual([session]);
      expect(server.seen.at(-1)).toMatchObject({ method: 'DELETE', session });
    },
    30_000,
  );

  it('sends the 2026-07-28 per-request headers a modern server checks', async () => {
    const seen: Record<string, string | null>[] = [];
    const handler = createMcpHandler(
      () => {
        const server = new McpServer({ name: 'modern-upstream', version: '1.0.0' });
        server.registerTool('greet', { inputSchema: z.object({ name: z.string() }) }, async ({ name }) => ({
          content: [{ type: 'text', text: `Hello, ${name}!` }],
        }));
        server.registerTool(
          'weather',
          { inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }) },
          async ({ region }) => ({ content: [{ type: 'text', text: `Sunny in ${region}` }] }),
        );
        return server;
      },
      { legacy: 'reject' },
    );
    const server = serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) => {
        seen.push({
          version: request.headers.get('mcp-protocol-version'),
          method: request.headers.get('mcp-method'),
          name: request.headers.get('mcp-name'),
          region: request.headers.get('mcp-param-region'),
        });
        return handler.fetch(request);
      },
    });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    cleanups.push(() => stopServer(server));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    const { connection } = await connect(`http://127.0.0.1:${port}/mcp`, 'auto');
    expect(connection.era).toBe('modern');
    await connection.fetchLists();
    const result = await connection.callTool('greet', { name: 'Grace' }, {});
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
    expect(seen).toContainEqual({ version: '2026-07-28', method: 'tools/call', name: 'greet', region: null });
    expect(seen).toContainEqual({
      version: '2026-07-28',
      method: 'server/discover',
      name: null,
      region: null,
    });
    // A parameter the tool's schema routes into a header (x-mcp-header) travels as Mcp-Param-<Name>; a value
    // that is not plain ASCII goes base64-encoded.
    const weather = await connection.callTool('weather', { region: 'Zürich' }, {});
    expect(weather.content).toEqual([{ type: 'text', text: 'Sunny in Zürich' }]);
    const header = `=?base64?${Buffer.from('Zürich').toString('base64')}?=`;
    expect(seen).toContainEqual({
      version: '2026-07-28',
      method: 'tools/call',
      name: 'weather',
      region: header,
    });
  });
});

describe('StreamableHttpLink against a misbehaving server', () => {
  it('drops the link with reason message-too-large when an event passes the cap', async () => {
    const upstream = await scripted();
    const { connection, closes } = await connect(upstream.url);
    const error = await failure(connection.callTool('huge-event', {}, {}));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.reason).toBe('message-too-large');
    expect(error.message).toContain(
      `larger than ${DEFAULT_MAX_MESSAGE_BYTES} bytes, the most one HTTP message may hold`,
    );
    await waitUntil(() => closes.length === 1, 'the close');
    expect(closes[0]?.message).toContain(`larger than ${DEFAULT_MAX_MESSAGE_BYTES} bytes`);
  });

  it('drops the link with reason message-too-large when a JSON answer passes the cap', async () => {
    const upstream = await scripted();
    const { connection, closes } = await connect(upstream.url);
    const error = await failure(connection.callTool('huge-json', {}, {}));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.reason).toBe('message-too-large');
    await waitUntil(() => closes.length === 1, 'the close');
  });

  it('ends the stream of a call that timed out, so a stream that never ends holds no connection', async () => {
    const upstream = await scripted();
    const { connection } = await connect(upstream.url);
    const error = await failure(connection.callTool('endless', {}, { timeoutMs: 300 }));
    expect(error.code).toBe('UPSTREAM_TIMEOUT');
    // The timeout sent notifications/cancelled, and the link closed the stream the answer would have come on.
    await waitUntil(() => upstream.abandoned() === 1 && upstream.openStreams() === 0, 'the stream to close');
    expect(upstream.seen.map((request) => request.rpc)).toContain('notifications/cancelled');
    // The link is still up.
    const echo = await connection.callTool('echo', {}, {});
    expect(echo.content).toEqual([{ type: 'text', text: 'called echo' }]);
  });

  it('resumes a stream that dropped after an event id with a GET carrying Last-Event-ID', async () => {
    const upstream = await scripted();
    const { connection } = await connect(upstream.url);
    const result = await connection.callTool('resumable', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'resumed' }]);
    const resumed = upstream.seen.filter((request) => request.headers['last-event-id'] !== undefined);
    expect(resumed.map((request) => [request.method, request.headers['last-event-id']])).toEqual([
      ['GET', 'e1'],
    ]);
    expect(resumed[0]?.headers['mcp-session-id']).toBe('session-42');
  });

  it('aborts every request in flight on close()', async () => {
    const upstream = await scripted();
    const { connection } = await connect(upstream.url);
    const calls = [1, 2, 3].map(() =>
      connection.callTool('endless', {}, {}).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    await waitUntil(() => upstream.openStreams() === 3, 'three open streams');
    await connection.close();
    for (const error of await Promise.all(calls)) {
      expect(error).toBeInstanceOf(PortcullisError);
      expect((error as PortcullisError).code).toBe('UPSTREAM_UNAVAILABLE');
    }
    await waitUntil(() => upstream.openStreams() === 0, 'the streams to close');
    expect(upstream.abandoned()).toBe(3);
  });

  it('drops the link when the server no longer knows its session (404)', async () => {
    const upstream = await scripted();
    const { connection, closes } = await connect(upstream.url);
    const error = await failure(connection.callTool('expire', {}, {}));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toContain('no longer knows session session-42');
    await waitUntil(() => closes.length === 1, 'the close');
    // An expired session is not DELETEd.
    expect(upstream.seen.filter((request) => request.method === 'DELETE')).toEqual([]);
  });

  it.each([
    ['fail-500', /answered HTTP 500 Internal Server Error: boom detail/],
    ['html', /answered HTTP 502 Bad Gateway: an HTML page, not MCP/],
  ])('reports %s with the status and a short excerpt, never the whole body', async (tool, expected) => {
    const upstream = await scripted();
    const { connection } = await connect(upstream.url);
    const error = await failure(connection.callTool(tool, {}, {}));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(expected);
    expect(error.message.length).toBeLessThan(500);
    expect(error.message).not.toContain('<script>');
  });

  it('refuses to follow a redirect to another origin, and names it', async () => {
    const elsewhere = await scripted();
    const upstream = await startScriptedUpstream('http', {
      maxBytes: DEFAULT_MAX_MESSAGE_BYTES,
      elsewhere: elsewhere.origin,
    });
    cleanups.push(() => upstream.close());
    const { connection } = await connect(upstream.url);
    const error = await failure(connection.callTool('redirect-away', {}, {}));
    expect(error.message).toContain(`a redirect to ${elsewhere.origin}/mcp, not followed`);
    // The configured Authorization header never reached the other origin.
    expect(elsewhere.seen).toEqual([]);
  });

  it('names an upstream that is not there', async () => {
    const upstream = await scripted();
    const url = upstream.url;
    await upstream.close();
    const error = await failure(connect(url));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/mcp failed: ECONNREFUSED/);
  });

  it('refuses a send before start() and after close()', async () => {
    const upstream = await scripted();
    const link = new StreamableHttpLink({ url: new URL(upstream.url), headers: {} });
    const ping = { jsonrpc: '2.0' as const, id: 1, method: 'ping' };
    await expect(link.send(ping)).rejects.toThrow('Not connected');
    await link.start();
    await link.close();
    await expect(link.send(ping)).rejects.toThrow('Not connected');
    expect(upstream.seen).toEqual([]);
  });
});
