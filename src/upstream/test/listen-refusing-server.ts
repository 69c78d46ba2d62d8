/**
 * A real stdio MCP upstream on the SDK v2 server (both eras) that announces `tools.listChanged` but refuses
 * `subscriptions/listen` with a JSON-RPC error, so a 2026-era link cannot open its list-change stream.
 * Run with: node --import tsx src/upstream/test/listen-refusing-server.ts
 */
import { McpServer, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

function createServer(): McpServer {
  const server = new McpServer(
    { name: 'listen-refusing-fixture', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool('noop', { description: 'Does nothing.' }, () => ({ content: [] }));
  return server;
}

// The SDK serves subscriptions/listen itself, so the refusal happens on the wire, before it: whatever handler
// the server installs is wrapped.
const transport = new StdioServerTransport();
let inner: ((message: JSONRPCMessage) => void) | undefined;
Object.defineProperty(transport, 'onmessage', {
  get: () => (inner === undefined ? undefined : refuseListen),
  set: (handler: ((message: JSONRPCMessage) => void) | undefined) => {
    inner = handler;
  },
});
function refuseListen(message: JSONRPCMessage): void {
  if ('method' in message && message.method === 'subscriptions/listen' && 'id' in message) {
    void transport.send({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32603, message: 'listen refused by the fixture' },
    });
    return;
  }
  inner?.(message);
}

serveStdio(() => createServer().server, { transport });
