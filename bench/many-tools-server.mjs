/**
 * A dependency-free stdio MCP upstream with N generated tools for the scale section: `tool_000` ... each echoing
 * its `message` (names as bench/generated-tools.ts makes them; bench/test/scale.test.ts checks they agree).
 * Plain JavaScript with no SDK, so that starting 50 of them measures the gateway, not 50 module loads: an
 * SDK-based server costs about 0.6 s of CPU to start under Node 20, 30 s of CPU for 50 on 2 cores.
 * Run with: node bench/many-tools-server.mjs <tool count>
 * Speaks newline-delimited JSON-RPC 2.0: initialize, ping, tools/list, tools/call; other requests get -32601.
 */
import process from 'node:process';
import { createInterface } from 'node:readline';

const count = Number(process.argv[2]);
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: many-tools-server.mjs <tool count>\n');
  process.exit(2);
}

const tools = Array.from({ length: count }, (_, i) => ({
  name: `tool_${String(i).padStart(3, '0')}`,
  description: `Returns the given message unchanged (generated tool ${i + 1} of ${count}).`,
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'The text to send back' } },
    required: ['message'],
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
}));
const names = new Set(tools.map((t) => t.name));

/** The result of one request, or an error object. */
function answer(method, params) {
  switch (method) {
    case 'initialize':
      return {
        result: {
          protocolVersion:
            typeof params?.protocolVersion === 'string' ? params.protocolVersion : '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'portcullis-bench-many-tools', version: '1.0.0' },
        },
      };
    case 'ping':
      return { result: {} };
    case 'tools/list':
      return { result: { tools } };
    case 'tools/call': {
      if (!names.has(params?.name))
        return { error: { code: -32602, message: `unknown tool ${params?.name}` } };
      const message = params?.arguments?.message;
      return { result: { content: [{ type: 'text', text: typeof message === 'string' ? message : '' }] } };
    }
    default:
      return { error: { code: -32601, message: `method not found: ${method}` } };
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    return;
  }
  // Notifications (no id) need no answer.
  if (request === null || typeof request !== 'object' || request.id === undefined) return;
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: request.id, ...answer(request.method, request.params) })}\n`,
  );
});
