/** Starts the bench's echo upstream (bench/echo-server.ts) as a child process, over stdio or Streamable HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LISTENING_PREFIX } from './echo-server.ts';

/** The repository root (tsx resolves from here). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const ECHO_SERVER = path.join(ROOT, 'bench/echo-server.ts');

/** How to launch the echo server over stdio: the same command for the direct client and the gateway. */
export const ECHO_STDIO = {
  command: process.execPath,
  args: ['--import', 'tsx', ECHO_SERVER, 'stdio'],
  cwd: ROOT,
} as const;

/** A running HTTP echo upstream. */
export interface EchoHttpUpstream {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns the echo server over Streamable HTTP on 127.0.0.1 and a free port; resolves once it listens. */
export async function startEchoHttp(timeoutMs = 30_000): Promise<EchoHttpUpstream> {
  const child = spawn(process.execPath, ['--import', 'tsx', ECHO_SERVER, 'http', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the HTTP echo upstream did not start'));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith(LISTENING_PREFIX));
      if (line) {
        clearTimeout(timer);
        resolve(line.slice(LISTENING_PREFIX.length).trim());
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the HTTP echo upstream exited with ${code}`));
    });
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
