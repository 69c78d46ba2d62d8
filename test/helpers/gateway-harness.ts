/** Test harness: runs a real gateway on 127.0.0.1 with real upstream processes, and connects real SDK clients. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client,
  StreamableHTTPClientTransport,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { buildConfig } from '../../src/config/index.ts';
import { createGateway, type Gateway, type GatewayDeps } from '../../src/app/index.ts';
import { listenGateway } from '../../src/http/index.ts';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Upstream commands for the npm MCP servers used in tests (run with this node, no network). */
export const UPSTREAMS = {
  everythingStdio: {
    transport: 'stdio',
    command: process.execPath,
    args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  },
  filesystem: (dir: string) => ({
    transport: 'stdio',
    command: process.execPath,
    args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), dir],
  }),
  memory: {
    transport: 'stdio',
    command: process.execPath,
    args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
  },
  mutable: {
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/mutable-server.ts')],
    cwd: ROOT,
  },
  /** The conformance fixture (conformance/upstream-server.ts): the suite's test tools, both eras. */
  conformance: {
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'conformance/upstream-server.ts')],
    cwd: ROOT,
  },
  /** Injection in its answers, and FIXTURE_SECRET (from the placeholder) echoed in some of them. */
  injecting: {
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/injecting-server.ts')],
    cwd: ROOT,
    env: { FIXTURE_SECRET: '${FIXTURE_SECRET}' },
  },
} as const;

/** A fresh temp directory. */
export function tempDir(prefix = 'portcullis-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A running gateway on a real port. */
export interface RunningGateway {
  url: string;
  port: number;
  gateway: Gateway;
  logs: string[];
  close(): Promise<void>;
}

/** Builds the config from a document, starts the gateway on 127.0.0.1 and waits for upstreams to settle. */
export async function startGateway(
  document: Record<string, unknown>,
  options: { env?: Record<string, string>; deps?: Partial<GatewayDeps>; settle?: boolean } = {},
): Promise<RunningGateway> {
  const dir = tempDir();
  const config = buildConfig(
    { store: { path: path.join(dir, 'portcullis.db') }, ...document },
    'test',
    dir,
    (name) => options.env?.[name] ?? process.env[name],
  );
  const logs: string[] = [];
  const gateway = createGateway(config, {
    inheritedEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
    writeLog: (line) => logs.push(line),
    lookup: (name) => options.env?.[name],
    ...options.deps,
  });
  const listening = await listenGateway(gateway.app, '127.0.0.1', 0);
  const port = listening.port;
  if (options.settle !== false) await gateway.ready(60_000);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    gateway,
    logs,
    async close() {
      await gateway.close();
      await listening.close();
    },
  };
}

/** Options for a test client. */
export interface ClientOptions {
  era: 'legacy' | 'modern';
  apiKey?: string;
  onElicit?: (params: unknown) => ElicitResult | Promise<ElicitResult>;
  /** Declares the sampling capability and answers sampling/createMessage with it. */
  onSample?: (params: unknown) => CreateMessageResult | Promise<CreateMessageResult>;
}

/** Connects a real SDK client to the gateway in the given era. */
export async function connectClient(url: string, options: ClientOptions): Promise<Client> {
  const client = new Client(
    { name: `test-${options.era}`, version: '1.0.0' },
    {
      capabilities: {
        ...(options.onElicit ? { elicitation: { form: {} } } : {}),
        ...(options.onSample ? { sampling: {} } : {}),
      },
      ...(options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  if (options.onElicit) {
    const onElicit = options.onElicit;
    client.setRequestHandler('elicitation/create', async (request) => onElicit(request.params));
  }
  if (options.onSample) {
    const onSample = options.onSample;
    client.setRequestHandler('sampling/createMessage', async (request) => onSample(request.params));
  }
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Starts server-everything over Streamable HTTP (on `requestedPort`, or a free one); resolves with its URL and process. */
export async function startEverythingHttp(requestedPort?: number): Promise<{
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}> {
  const port = requestedPort ?? (await freePort());
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), 30_000);
    const onData = (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Polls `check` until it returns a truthy value or the timeout passes. */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Calls the admin API of a running gateway with a bearer key: GET without a body, a JSON POST with one. */
export async function adminCall<T>(
  gateway: Pick<RunningGateway, 'url'>,
  key: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const response = await fetch(gateway.url.replace(/\/mcp$/, `/admin/api${route}`), {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as T };
}

/** Finds the pid of the process whose command line contains `marker` (Linux /proc). */
export function pidWith(marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

/** Whether process `pid` is running (a zombie counts as ended). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Sends SIGKILL to each pid still running: a test's clean-up of the processes it found. */
export function killAll(pids: Iterable<number | undefined>): void {
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
