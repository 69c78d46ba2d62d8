/** Starts Portcullis in-process (createGateway + @hono/node-server on 127.0.0.1:0) with its default config. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { buildConfig } from '../src/config/index.ts';
import { createGateway, type Gateway } from '../src/app/index.ts';
import { gatewayDocument } from './gateway-process.ts';

/** A listening in-process gateway. */
export interface BenchGateway {
  url: string;
  gateway: Gateway;
  /** Log lines the gateway produced (kept as a count: the bench does not pay for a terminal). */
  logLines(): number;
  close(): Promise<void>;
}

/**
 * Builds the default config plus `upstreams` (and OTLP export to `otlpEndpoint` when given, and the top-level
 * sections in `extra`), with the store in a
 * fresh temp dir, and listens on 127.0.0.1:0: the same document the out-of-process gateways get.
 */
export async function startBenchGateway(
  upstreams: Record<string, Record<string, unknown>>,
  inheritedEnv: Record<string, string | undefined>,
  otlpEndpoint?: string,
  extra: Record<string, unknown> = {},
): Promise<BenchGateway> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portcullis-bench-'));
  const config = buildConfig(
    gatewayDocument(dir, upstreams, otlpEndpoint, extra),
    'bench',
    dir,
    () => undefined,
  );
  let lines = 0;
  const gateway = createGateway(config, {
    inheritedEnv,
    writeLog: () => {
      lines += 1;
    },
  });
  const server = serve({ fetch: gateway.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await gateway.ready(60_000);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    gateway,
    logLines: () => lines,
    async close() {
      await gateway.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets from the clients would hold server.close open; they are closed by then.
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
