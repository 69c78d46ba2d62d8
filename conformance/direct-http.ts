/**
 * The reference run: the fixture served directly on 127.0.0.1 (no gateway) with a localhost Host/Origin check:
 * 2026-07-28 requests by the SDK's per-request handler (one fixture server per request), 2025-era traffic over
 * sessionful Streamable HTTP with resumable SSE streams. A scenario that passes here but fails through the
 * gateway is the gateway's doing; one that fails here too is the fixture's or the suite's.
 */
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
  WebStandardStreamableHTTPServerTransport,
  type EventStore,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { createFixtureServer } from './fixture-server.ts';

/** A running HTTP endpoint. */
export interface RunningEndpoint {
  url: string;
  close(): Promise<void>;
}

/** An in-memory event store: ids are `<stream>::<sequence>`, replay returns later events of the same stream. */
export function createMemoryEventStore(): EventStore {
  const events: { id: string; stream: string; message: JSONRPCMessage }[] = [];
  let sequence = 0;
  return {
    async storeEvent(stream, message) {
      sequence += 1;
      const id = `${stream}::${String(sequence).padStart(10, '0')}`;
      events.push({ id, stream, message });
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.find((e) => e.id === eventId)?.stream;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const stream = lastEventId.split('::')[0] ?? '';
      for (const event of events) {
        if (event.stream === stream && event.id > lastEventId) await send(event.id, event.message);
      }
      return stream;
    },
  };
}

const plainError = (status: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** Closes a listening server, dropping idle and streaming connections so that close() cannot hang. */
export async function closeServer(server: ReturnType<typeof serve>): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  if ('closeAllConnections' in server) server.closeAllConnections();
  await closed;
}

/** Serves the fixture on 127.0.0.1 at a free port, one fixture server per session. */
export async function serveFixtureDirect(): Promise<RunningEndpoint> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const hosts = localhostAllowedHostnames();
  const modern = createMcpHandler(() => createFixtureServer(), { legacy: 'reject' });

  const handle = async (request: Request): Promise<Response> => {
    const host = validateHostHeader(request.headers.get('host'), hosts);
    const origin = validateOriginHeader(request.headers.get('origin'), hosts);
    if (!host.ok) return plainError(403, host.message);
    if (!origin.ok) return plainError(403, origin.message);
    if (request.method === 'POST' && !(await isLegacyRequest(request.clone()))) return modern.fetch(request);
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const transport = sessions.get(sessionId);
      return transport ? transport.handleRequest(request) : plainError(404, 'Session not found');
    }
    if (request.method !== 'POST') return plainError(400, 'No Mcp-Session-Id header');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: createMemoryEventStore(),
      retryInterval: 500,
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await createFixtureServer().connect(transport);
    return transport.handleRequest(request);
  };

  const server = serve({ fetch: handle, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      sessions.clear();
      await closeServer(server);
    },
  };
}
