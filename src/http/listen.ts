/** Starts an HTTP server for a built gateway app; used by `portcullis serve` and by tests. */
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** A listening server and the port it got. */
export interface Listening {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on host:port (0 picks a free port). Keep-alive outlasts common client idle pools: Node's 5 s default
 * closes idle sockets that clients (undici) may reuse a moment later, which surfaces as ECONNRESET mid-session.
 */
export async function listenGateway(app: Hono, host: string, port: number): Promise<Listening> {
  const server = serve({ fetch: app.fetch, hostname: host, port }) as Server;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
