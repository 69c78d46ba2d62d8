/**
 * A stdio MCP upstream with N generated tools for the scale section: `tool_000` ... each echoing its `message`.
 * Run with: node --import tsx bench/many-tools-server.ts <tool count>
 */
import { pathToFileURL } from 'node:url';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** The name of the `index`th generated tool. */
export function generatedToolName(index: number): string {
  return `tool_${String(index).padStart(3, '0')}`;
}

/** The tool list of a server with `count` tools: plain descriptions, one string argument, read-only. */
export function generatedTools(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: generatedToolName(i),
    description: `Returns the given message unchanged (generated tool ${i + 1} of ${count}).`,
    inputSchema: {
      type: 'object' as const,
      properties: { message: { type: 'string', description: 'The text to send back' } },
      required: ['message'],
    },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }));
}

async function main(argv: string[]): Promise<void> {
  const count = Number(argv[0]);
  if (!Number.isInteger(count) || count < 1) {
    process.stderr.write('usage: many-tools-server.ts <tool count>\n');
    process.exitCode = 2;
    return;
  }
  const tools = generatedTools(count);
  const server = new Server(
    { name: 'portcullis-bench-many-tools', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) => {
    const message = request.params.arguments?.message;
    return { content: [{ type: 'text', text: typeof message === 'string' ? message : '' }] };
  });
  await server.connect(new StdioServerTransport());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
