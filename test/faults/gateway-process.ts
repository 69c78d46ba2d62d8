/**
 * Runs the real gateway as its own process (`portcullis serve`), so a test can see it crash, read its RSS from
 * /proc, keep its own event loop free while the gateway's is blocked, and kill it whatever state it is in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeConfigFile } from '../helpers/serve-support.ts';
import { ROOT, tempDir } from '../helpers/gateway-harness.ts';

/** One parsed log line of the gateway. */
export interface LogLine {
  level?: string;
  event?: string;
  [field: string]: unknown;
}

/** A gateway running in a child process. */
export interface GatewayProcess {
  url: string;
  base: string;
  pid: number;
  child: ChildProcess;
  /** Every JSON log line so far (non-JSON stderr lines are kept in `rawStderr`). */
  logs: LogLine[];
  rawStderr: string[];
  /** The exit code or signal once the process has ended, otherwise undefined. */
  exited(): string | undefined;
  /** Resident set size in bytes (from /proc); 0 once the process has ended. */
  rss(): number;
  /** GET or POST on /admin/api with the API key; rejects after `timeoutMs`. */
  admin<T>(route: string, timeoutMs?: number): Promise<T>;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process has ended. */
  stop(): Promise<void>;
}

/** Starts `portcullis serve` on a free loopback port with `document` as its config; resolves when it listens. */
export async function startGatewayProcess(
  document: Record<string, unknown>,
  env: Record<string, string> = {},
  apiKey?: string,
): Promise<GatewayProcess> {
  const dir = tempDir('portcullis-faults-');
  const configFile = writeConfigFile(dir, {
    listen: { host: '127.0.0.1', port: 0 },
    store: { path: path.join(dir, 'portcullis.db') },
    tools: { bundled: false, workspace: path.join(dir, 'workspace') },
    ...document,
  });
  const child = spawn(
    process.execPath,
    ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'serve', '--config', configFile],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const logs: LogLine[] = [];
  const rawStderr: string[] = [];
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = signal ?? `exit code ${code}`));
  let pending = '';
  let onListening: ((url: string) => void) | undefined;
  child.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const parsed = JSON.parse(line) as LogLine;
        logs.push(parsed);
        if (parsed.event === 'gateway.listening' && typeof parsed.url === 'string') onListening?.(parsed.url);
      } catch {
        rawStderr.push(line);
      }
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the gateway did not start listening')), 60_000);
    onListening = (found) => {
      clearTimeout(timer);
      resolve(found);
    };
    child.once('exit', () =>
      reject(new Error(`the gateway exited before listening: ${rawStderr.join('\n').slice(-2000)}`)),
    );
  });
  const base = url.replace(/\/mcp$/, '');
  const died = () =>
    new Error(
      `the gateway process ended (${exit}); its last stderr: ${[...rawStderr, ...logs.slice(-5).map((l) => JSON.stringify(l))].join('\n').slice(-2500)}`,
    );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (exit !== undefined) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
  return {
    url,
    base,
    pid: child.pid ?? 0,
    child,
    logs,
    rawStderr,
    exited: () => exit,
    rss() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kib = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
        return kib ? Number(kib) * 1024 : 0;
      } catch {
        return 0;
      }
    },
    async admin<T>(route: string, timeoutMs = 5_000): Promise<T> {
      try {
        const response = await fetch(`${base}/admin/api${route}`, {
          headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) throw new Error(`admin ${route} answered ${response.status}`);
        return (await response.json()) as T;
      } catch (error) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        if (exit !== undefined) throw died();
        if ((error as Error).name === 'TimeoutError') {
          throw new Error(`admin ${route} got no answer within ${timeoutMs} ms: the gateway is not serving`, {
            cause: error,
          });
        }
        throw error;
      }
    },
    stop,
  };
}
