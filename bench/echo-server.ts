/**
 * A minimal echo MCP upstream for the bench: one tool, `echo`, that returns its `message`.
 * Run with: node --import tsx bench/echo-server.ts stdio
 *       or: node --import tsx bench/echo-server.ts http [port]
 * Over HTTP it listens on 127.0.0.1 (port 0 = any free port) and prints `listening <url>` on stdout.
 */
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';

/** The line prefix the HTTP mode prints once it accepts connections. */
export const LISTENING_PREFIX = 'listening ';

/** Builds a fresh echo server instance (one per stdio connection or per HTTP request). */
export function createEchoServer(): McpServer {
  const server = new McpServer({ name: 'portcullis-bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Returns the given message unchanged.',
      inputSchema: z.object({ message: z.string().describe('The text to send back') }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

async function main(argv: string[]): Promise<void> {
  const [mode, portText] = argv;
  if (mode === 'stdio') {
    await createEchoServer().connect(new StdioServerTransport());
    return;
  }
  if (mode === 'http') {
    const handler = createMcpHandler(() => createEchoServer());
    const server = serve({
      fetch: (request: Request) => handler.fetch(request),
      hostname: '127.0.0.1',
      port: Number(portText ?? 0),
    });
    server.once('listening', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      process.stdout.write(`${LISTENING_PREFIX}http://127.0.0.1:${port}/mcp\n`);
    });
    const stop = () => {
      void handler.close().finally(() => server.close(() => process.exit(0)));
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return;
  }
  process.stderr.write('usage: echo-server.ts stdio | http [port]\n');
  process.exitCode = 2;
}

// Only run when executed as a script, so the bench can import createEchoServer without side effects.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
