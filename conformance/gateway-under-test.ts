/**
 * The system under test: Portcullis built in-process (createGateway) with the conformance fixture as its one
 * stdio upstream, every fixture tool aliased to its own name so the suite's names cross the gateway unchanged,
 * listening on 127.0.0.1 at a free port.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { buildConfig } from '../src/config/index.ts';
import type { EnvLookup } from '../src/secrets/index.ts';
import { createGateway } from '../src/app/index.ts';
import { CONFORMANCE_PROMPTS, CONFORMANCE_TOOLS, FIXTURE_UPSTREAM_ID } from './contract.ts';
import { closeServer, type RunningEndpoint } from './direct-http.ts';

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** How the gateway negotiates with the fixture (the config's `protocol` of the upstream). */
export type UpstreamProtocol = 'auto' | 'legacy' | 'modern';

/** The gateway config document: one stdio upstream, the fixture, with identity aliases for its tools and prompts. */
export function gatewayDocument(
  workDir: string,
  nodePath: string,
  protocol: UpstreamProtocol,
): Record<string, unknown> {
  return {
    store: { path: path.join(workDir, 'portcullis.db') },
    upstreams: {
      [FIXTURE_UPSTREAM_ID]: {
        transport: 'stdio',
        command: nodePath,
        args: ['--import', 'tsx', path.join(REPO_ROOT, 'conformance/upstream-server.ts')],
        cwd: REPO_ROOT,
        protocol,
        // The suite's test_sampling asks its client for a completion: relayed only where configured.
        sampling: true,
        tools: {
          include: ['*'],
          overrides: Object.fromEntries(CONFORMANCE_TOOLS.map((name) => [name, { alias: name }])),
        },
        prompts: {
          overrides: Object.fromEntries(CONFORMANCE_PROMPTS.map((name) => [name, { alias: name }])),
        },
      },
    },
  };
}

/** Options of the gateway under test. */
export interface GatewayUnderTestOptions {
  /** A directory for the SQLite store and the gateway log. */
  workDir: string;
  /** The node binary that runs the fixture. */
  nodePath: string;
  protocol: UpstreamProtocol;
  /** Reads PATH and HOME for the stdio child (config's lookup, so nothing here reads process.env). */
  lookup: EnvLookup;
}

/** A running gateway and what it connected to. */
export interface RunningGateway extends RunningEndpoint {
  /** Where the gateway's log lines go. */
  logFile: string;
  /** The fixture connection as the gateway sees it. */
  upstream: { state: string; era?: string; tools: number; prompts: number; resources: number };
}

/** Builds and starts the gateway, waiting until the fixture upstream has connected (or failed) once. */
export async function startGatewayUnderTest(options: GatewayUnderTestOptions): Promise<RunningGateway> {
  mkdirSync(options.workDir, { recursive: true });
  const logFile = path.join(options.workDir, 'gateway.log');
  const config = buildConfig(
    gatewayDocument(options.workDir, options.nodePath, options.protocol),
    'conformance',
    options.workDir,
    options.lookup,
  );
  const gateway = createGateway(config, {
    inheritedEnv: { PATH: options.lookup('PATH'), HOME: options.lookup('HOME') },
    writeLog: (line) => appendFileSync(logFile, line.endsWith('\n') ? line : `${line}\n`),
  });
  const server = serve({ fetch: gateway.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await gateway.ready(60_000);
  const snapshot = gateway.supervisor.snapshots().find((s) => s.id === FIXTURE_UPSTREAM_ID);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    logFile,
    upstream: {
      state: snapshot?.state ?? 'missing',
      ...(snapshot?.era === undefined ? {} : { era: snapshot.era }),
      tools: snapshot?.tools.length ?? 0,
      prompts: snapshot?.prompts.length ?? 0,
      resources: snapshot?.resources.length ?? 0,
    },
    async close() {
      await gateway.close();
      await closeServer(server);
    },
  };
}
