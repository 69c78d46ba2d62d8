/** Starts the bench's echo upstream (bench/echo-server.ts) as a child process, over stdio or Streamable HTTP. */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LISTENING_PREFIX } from './echo-server.ts';
import { childEnv, spawnUntilLine, stopChild } from './spawn.ts';

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
  const { child, rest } = await spawnUntilLine({
    command: process.execPath,
    args: ['--import', 'tsx', ECHO_SERVER, 'http', '0'],
    cwd: ROOT,
    env: childEnv(),
    prefix: LISTENING_PREFIX,
    timeoutMs,
  });
  return { url: rest, child, stop: () => stopChild(child, 5_000) };
}
