/**
 * A real stdio MCP upstream for the trace-context proof: its one tool, `meta`, answers with the `_meta` of the
 * tools/call request it received, so a test can see the `traceparent` the gateway forwarded.
 * Run with: node --import tsx test/helpers/meta-echo-server.ts
 */
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

const server = new McpServer({ name: 'meta-echo-fixture', version: '1.0.0' });

server.registerTool(
  'meta',
  {
    description: 'Returns the _meta object of the request that called it, as JSON text.',
    inputSchema: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (_args, ctx) => ({
    content: [{ type: 'text', text: JSON.stringify(ctx.mcpReq._meta ?? {}) }],
  }),
);

await server.connect(new StdioServerTransport());
