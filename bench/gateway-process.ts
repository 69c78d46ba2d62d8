/**
 * Portcullis as its own process, as users run it: a temp portcullis.yaml (default config plus the bench's
 * upstreams, a temp store and workspace, and an OTLP endpoint so spans are really exported), then either
 * `dist/main.js serve --config FILE --port N` (waited for on /healthz and /readyz) or the launch line of
 * `dist/main.js stdio --config FILE` for a stdio client to spawn. The gateway runs compiled, as the installed
 * `portcullis` command (bin/portcullis.js) and the Docker image run it: `buildGateway()` compiles it once per
 * bench process with `tsc -p tsconfig.build.json`, as `npm run build` does.
 * With PORTCULLIS_BENCH_CPU_PROF=DIR in the bench's environment, each `serve` child runs under
 * `node --cpu-prof --cpu-prof-dir=DIR` and writes a .cpuprofile there when it exits (after SIGTERM).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { freePort } from '../test/helpers/gateway-harness.ts';
import type { BenchClient, StdioLaunch } from './clients.ts';
import { ROOT } from './echo-upstream.ts';
import { childEnv, stopChild } from './spawn.ts';

/** The gateway's compiled entry point (`npm run build` writes it). */
export const GATEWAY_MAIN = path.join(ROOT, 'dist/main.js');

let built = false;

/** Compiles the gateway into dist/ as `npm run build` does, once per process (about 10 s), so no stale build is measured. */
export function buildGateway(): void {
  if (built) return;
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  built = true;
}

/**
 * The config document of a bench gateway: only what differs from the defaults, plus telemetry when given and the
 * top-level sections in `extra` (the scale section raises `http` session caps).
 */
export function gatewayDocument(
  dir: string,
  upstreams: Record<string, Record<string, unknown>>,
  otlpEndpoint?: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...extra,
    store: { path: path.join(dir, 'portcullis.db') },
    tools: { workspace: path.join(dir, 'workspace') },
    upstreams,
    ...(otlpEndpoint === undefined
      ? {}
      : { telemetry: { serviceName: 'portcullis-bench', otlp: { endpoint: otlpEndpoint } } }),
  };
}

/** The command line of a TypeScript `script` run from source with tsx and the node flags `npm start` uses. */
export function tsxLaunch(script: string, args: readonly string[]): StdioLaunch {
  return {
    command: process.execPath,
    args: ['--no-node-snapshot', '--import', 'tsx', script, ...args],
    cwd: ROOT,
  };
}

/** The command line of the compiled `portcullis <mode> --config FILE`, with the node flags of bin/portcullis.js; call buildGateway() first. */
export function gatewayLaunch(mode: 'serve' | 'stdio', configFile: string, port?: number): StdioLaunch {
  return {
    command: process.execPath,
    args: [
      '--no-node-snapshot',
      GATEWAY_MAIN,
      mode,
      '--config',
      configFile,
      ...(port === undefined ? [] : ['--port', String(port)]),
    ],
    cwd: ROOT,
  };
}

/** A temp directory holding a written portcullis.yaml; `remove()` deletes it with the store. */
export interface GatewayConfigDir {
  dir: string;
  file: string;
  remove(): void;
}

/** Writes the gateway document for `upstreams` (and the OTLP endpoint) into a fresh temp directory. */
export function writeGatewayConfig(
  upstreams: Record<string, Record<string, unknown>>,
  otlpEndpoint?: string,
  extra: Record<string, unknown> = {},
): GatewayConfigDir {
  const dir = mkdtempSync(path.join(tmpdir(), 'portcullis-bench-gw-'));
  const file = path.join(dir, 'portcullis.yaml');
  writeFileSync(file, stringify(gatewayDocument(dir, upstreams, otlpEndpoint, extra)));
  return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Counts log lines of a child's stderr and keeps the last few for error messages. */
export function createLineCounter(keep = 20): {
  onChunk(chunk: Buffer): void;
  count(): number;
  tail(): string;
} {
  let count = 0;
  let partial = '';
  const last: string[] = [];
  return {
    onChunk(chunk) {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      count += lines.length;
      last.push(...lines);
      if (last.length > keep) last.splice(0, last.length - keep);
    },
    count: () => count,
    tail: () => [...last, partial].filter(Boolean).join('\n'),
  };
}

/** A `portcullis serve` child. */
export interface GatewayProcess {
  url: string;
  pid: number;
  /** performance.now() when the child was spawned, and when its /healthz first answered (polled every 100 ms). */
  spawnedAt: number;
  healthyAt: number;
  /** Log lines it wrote to stderr so far (drained, not printed). */
  logLines(): number;
  /** SIGTERM (which flushes telemetry), wait for the exit, remove the temp directory. */
  stop(): Promise<void>;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what} within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`);
    await sleep(100);
  }
}

/** Starts `portcullis serve` on a free port; resolves when /healthz answers and /readyz shows every upstream connected. */
export async function startGatewayProcess(
  upstreams: Record<string, Record<string, unknown>>,
  otlpEndpoint?: string,
  timeoutMs = 90_000,
  extra: Record<string, unknown> = {},
): Promise<GatewayProcess> {
  buildGateway();
  const config = writeGatewayConfig(upstreams, otlpEndpoint, extra);
  const port = await freePort();
  const launch = gatewayLaunch('serve', config.file, port);
  const profileDir = process.env.PORTCULLIS_BENCH_CPU_PROF;
  const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const spawnedAt = performance.now();
  let healthyAt = Number.NaN;
  const child = spawn(launch.command, [...nodeFlags, ...launch.args], {
    cwd: launch.cwd,
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = createLineCounter();
  child.stderr?.on('data', lines.onChunk);
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child, 15_000);
    config.remove();
  };
  try {
    const exited = new Promise<never>((_resolve, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`portcullis serve exited with ${code}:\n${lines.tail()}`)),
      ),
    );
    exited.catch(() => {});
    const ready = (async () => {
      await until('portcullis serve did not answer /healthz', timeoutMs, async () =>
        (await fetch(`${base}/healthz`)).ok ? true : undefined,
      );
      healthyAt = performance.now();
      await until('portcullis serve did not connect every upstream', timeoutMs, async () => {
        const body = (await (await fetch(`${base}/readyz`)).json()) as {
          upstreams?: { id: string; state: string }[];
        };
        const states = body.upstreams ?? [];
        return states.length === Object.keys(upstreams).length && states.every((u) => u.state === 'connected')
          ? true
          : undefined;
      });
    })();
    await Promise.race([ready, exited]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${base}/mcp`, pid: child.pid ?? 0, spawnedAt, healthyAt, logLines: lines.count, stop };
}

/** Waits until the client's tools/list holds every name in `names` (tools are published once scanned). */
export async function waitForTools(
  client: BenchClient,
  names: readonly string[],
  timeoutMs = 60_000,
): Promise<void> {
  await until(`tools ${names.join(', ')} were not listed`, timeoutMs, async () => {
    const { tools } = await client.client.listTools();
    const listed = new Set(tools.map((t) => t.name));
    return names.every((n) => listed.has(n)) ? true : undefined;
  });
}
