/** Child processes of the bench: spawn one and wait for the line that says it is up, stop one politely. */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

/** How to start a child that announces itself with a line on stdout. */
export interface SpawnUntilLineOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** The stdout line prefix to wait for; the rest of the line is returned. */
  prefix: string;
  /** What to do with the child's stderr (default: inherit). */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  timeoutMs?: number;
}

/** Spawns a child and resolves once it prints a stdout line starting with `prefix` (killed on timeout or exit). */
export async function spawnUntilLine(
  options: SpawnUntilLineOptions,
): Promise<{ child: ChildProcess; rest: string }> {
  const stdio: StdioOptions = ['ignore', 'pipe', options.stderr ?? 'inherit'];
  const child = spawn(options.command, [...options.args], { cwd: options.cwd, env: options.env, stdio });
  const rest = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.args.join(' ')} did not start within ${options.timeoutMs ?? 30_000} ms`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const line = buffered.split('\n').find((l) => l.startsWith(options.prefix));
      if (line === undefined) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      // Keep draining stdout so a chatty child never blocks on a full pipe.
      child.stdout?.off('data', onData).resume();
      resolve(line.slice(options.prefix.length).trim());
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${options.args.join(' ')} exited with ${code} before it started`));
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
  return { child, rest };
}

/** Sends `signal` and waits for the exit, then SIGKILLs after `graceMs`; resolves at once if already gone. */
export function stopChild(
  child: ChildProcess,
  graceMs = 10_000,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

/** The minimal environment the bench gives its children: PATH and HOME, nothing from OTEL_* or NODE_OPTIONS. */
export function childEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
}
