/**
 * Issue 5, "across eras" (the reverse direction): a modern (2026-07-28) upstream that asks for input with
 * `input_required` reaches a LEGACY client as a plain elicitation/create on the stream of its call, and the
 * upstream call resumes with the client's answer.
 */
import { serve } from '@hono/node-server';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { connectClient, startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

let upstream: ReturnType<typeof serve>;
let gateway: RunningGateway;

beforeAll(async () => {
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'modern-asker', version: '1.0.0' });
      server.registerTool(
        'greet',
        { description: 'Asks the user for their name, then greets them.', inputSchema: z.object({}) },
        async (_args, ctx) => {
          const answer = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'name');
          if (!answer) {
            return inputRequired({
              inputRequests: {
                name: inputRequired.elicit({
                  message: 'What is your name?',
                  requestedSchema: {
                    type: 'object',
                    properties: { name: { type: 'string' } },
                    required: ['name'],
                  },
                }),
              },
            });
          }
          return { content: [{ type: 'text', text: `Hello, ${answer.name}!` }] };
        },
      );
      return server;
    },
    { legacy: 'reject' },
  );
  upstream = serve({ fetch: (request) => handler.fetch(request), hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => upstream.once('listening', resolve));
  const address = upstream.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  gateway = await startGateway({
    upstreams: { modern: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, protocol: 'modern' } },
  });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

describe('a modern upstream asking a legacy client', () => {
  it('relays input_required as elicitation/create and resumes the upstream call with the answer', async () => {
    expect(gateway.gateway.supervisor.snapshot('modern')?.era).toBe('modern');
    const asked: string[] = [];
    const client = await connectClient(gateway.url, {
      era: 'legacy',
      onElicit: (params) => {
        asked.push((params as { message: string }).message);
        return { action: 'accept', content: { name: 'Grace' } };
      },
    });
    const result = (await client.callTool({ name: 'modern_greet', arguments: {} })) as CallToolResult;
    expect(asked).toEqual([
      'Upstream server "modern" asks (this is not a Portcullis approval): What is your name?',
    ]);
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
    await client.close();
  });

  it('declines upstream when the legacy client cannot be asked, and keeps the upstream connected', async () => {
    const before = gateway.gateway.supervisor.snapshot('modern');
    const client = await connectClient(gateway.url, { era: 'legacy' });
    const result = (await client.callTool({ name: 'modern_greet', arguments: {} })) as CallToolResult;
    // Without an answer the upstream's question stays open: it re-asks (declined each time) until the SDK's
    // round limit. That fails this call only; the upstream answered every round, so its link stays up.
    expect(result.isError).toBe(true);
    expect(result._meta?.['dev.portcullis/error']).toEqual({ code: 'UPSTREAM_ERROR' });
    const message = (result.content[0] as { text: string }).text;
    expect(message).toMatch(/^upstream "modern" failed greet: .*still required input after \d+ rounds/);
    expect(message).not.toContain('Hello,');
    const after = gateway.gateway.supervisor.snapshot('modern');
    expect(after?.state).toBe('connected');
    expect(after?.connectedAt).toBe(before?.connectedAt);
    await client.close();
  });
});
