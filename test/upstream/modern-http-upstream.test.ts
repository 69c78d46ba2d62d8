/**
 * The gateway's own 2026-era client over Streamable HTTP, against the conformance fixture served by the SDK's
 * per-request handler (a real HTTP server): `protocol: auto` finds the era with one `server/discover`, every
 * request carries the era's `_meta` envelope (from which the transport sets MCP-Protocol-Version and Mcp-Method,
 * which the server cross-checks), a tool whose inputSchema marks an argument with `x-mcp-header` gets its
 * Mcp-Param header (the server refuses the call without it), and an `input_required` result is either handed
 * back (relayed) or answered through the caller's asker and retried. A call the caller abandons is cancelled by
 * closing its own response stream, which the server sees as the abort of the request.
 */
import { serve } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { closeServer } from '../../conformance/direct-http.ts';
import { createFixtureServer } from '../../conformance/fixture-server.ts';
import type { UpstreamConfig } from '../../src/config/index.ts';
import { connectUpstream, type UpstreamConnection } from '../../src/upstream/connection.ts';

/** What one POST to the fixture carried. */
interface Seen {
  version: string | null;
  method: string | null;
  region: string | null;
  body: { method?: string; params?: { _meta?: Record<string, unknown> } };
}

const seen: Seen[] = [];
let server: ReturnType<typeof serve>;
let url = '';
let connection: UpstreamConnection;
/** How many calls of the slow server's `hang` tool saw their request aborted. */
let abortedHangs = 0;

beforeAll(async () => {
  const modern = createMcpHandler(() => createFixtureServer(), { legacy: 'reject' });
  const slow = createMcpHandler(
    () => {
      const hanging = new McpServer({ name: 'slow', version: '1.0.0' });
      hanging.registerTool('hang', { inputSchema: z.object({}) }, async (_args, ctx) => {
        await new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve()));
        abortedHangs += 1;
        return { content: [{ type: 'text', text: 'aborted' }] };
      });
      return hanging;
    },
    { legacy: 'reject' },
  );
  server = serve({
    fetch: async (request) => {
      if (request.method === 'POST') {
        seen.push({
          version: request.headers.get('mcp-protocol-version'),
          method: request.headers.get('mcp-method'),
          region: request.headers.get('mcp-param-region'),
          body: (await request.clone().json()) as Seen['body'],
        });
      }
      return new URL(request.url).pathname === '/slow' ? slow.fetch(request) : modern.fetch(request);
    },
    hostname: '127.0.0.1',
    port: 0,
  });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
  const config: UpstreamConfig = {
    id: 'fixture',
    enabled: true,
    protocol: 'auto',
    callTimeoutMs: 10_000,
    sampling: false,
    transport: 'http',
    url,
    headers: {},
  };
  connection = await connectUpstream(
    config,
    { inheritedEnv: {} },
    { onClose: () => {}, onListChanged: () => {} },
  );
  await connection.fetchLists();
}, 60_000);

afterAll(async () => {
  await connection?.close();
  if (server) await closeServer(server);
});

describe('a 2026-era upstream over Streamable HTTP', () => {
  it('is found by one server/discover and linked in the 2026 era', () => {
    expect(connection.era).toBe('modern');
    expect(connection.protocolVersion).toBe('2026-07-28');
    expect(connection.serverInfo?.name).toBe('portcullis-conformance-fixture');
    expect(seen.filter((s) => s.body.method === 'server/discover')).toHaveLength(1);
    expect(seen.some((s) => s.body.method === 'initialize')).toBe(false);
  });

  it('sends every request with the envelope and the headers the transport derives from it', async () => {
    await connection.callTool('test_simple_text', {}, {});
    const requests = seen.filter(
      (s) => s.body.method !== undefined && !s.body.method.startsWith('notifications/'),
    );
    expect(requests.length).toBeGreaterThan(2);
    for (const request of requests) {
      expect(request.version).toBe('2026-07-28');
      expect(request.method).toBe(request.body.method);
      expect(request.body.params?._meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'portcullis' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      });
    }
  });

  it('mirrors an x-mcp-header argument into its Mcp-Param header, which the server checks', async () => {
    const result = await connection.callTool('test_custom_header', { region: 'eu-west' }, {});
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'Region: eu-west' }]);
    expect(seen.at(-1)?.region).toBe('eu-west');
    const encoded = await connection.callTool('test_custom_header', { region: 'Zürich' }, {});
    expect(encoded.content).toEqual([{ type: 'text', text: 'Region: Zürich' }]);
    expect(seen.at(-1)?.region).toBe(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
  });

  it('hands an input_required result back to a caller that relays input rounds', async () => {
    const relayed = await connection.callTool(
      'test_input_required_result_elicitation',
      {},
      { relayInput: { elicitation: true, sampling: false, roots: false } },
    );
    expect(relayed).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_name: { method: 'elicitation/create' } },
    });
    const last = seen.at(-1)?.body.params?._meta;
    // The caller's own capabilities replace the gateway's for this request.
    expect(last?.['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} } });
  });

  it('answers an input_required round through the caller and retries with the answer', async () => {
    const asked: string[] = [];
    const result = await connection.callTool(
      'test_input_required_result_elicitation',
      {},
      {
        askClient: async (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    );
    expect(asked).toEqual(['What is your name?']);
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const retry = seen.at(-1)?.body.params as { inputResponses?: unknown } | undefined;
    expect(retry?.inputResponses).toEqual({ user_name: { action: 'accept', content: { name: 'Ada' } } });
  });

  it('passes the liveness check with server/discover', async () => {
    await connection.probe(5_000);
    expect(seen.at(-1)?.body.method).toBe('server/discover');
  });

  it('cancels an abandoned call by closing its response stream, which the server sees', async () => {
    const slowLink = await connectUpstream(
      {
        id: 'slow',
        enabled: true,
        protocol: 'modern',
        callTimeoutMs: 10_000,
        sampling: false,
        transport: 'http',
        url: url.replace(/\/mcp$/, '/slow'),
        headers: {},
      },
      { inheritedEnv: {} },
      { onClose: () => {}, onListChanged: () => {} },
    );
    try {
      await slowLink.fetchLists();
      const controller = new AbortController();
      const call = slowLink.callTool('hang', {}, { signal: controller.signal }).then(
        () => undefined,
        (error: unknown) => error as Error & { code?: string },
      );
      setTimeout(() => controller.abort(new Error('caller went away')), 100);
      expect(await call).toMatchObject({
        code: 'UPSTREAM_ERROR',
        message: expect.stringMatching(/was cancelled/),
      });
      await expect.poll(() => abortedHangs).toBe(1);
      // The stream's close is the cancellation: no notifications/cancelled is posted.
      expect(seen.some((s) => s.body.method === 'notifications/cancelled')).toBe(false);
    } finally {
      await slowLink.close();
    }
  });
});
