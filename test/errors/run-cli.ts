/** Spawns the real `portcullis` CLI from source for the error-surface tests. */
import { spawn } from 'node:child_process';
import { ROOT } from '../helpers/gateway-harness.ts';

/** Node arguments that run the CLI from source. */
export const CLI = ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts'];
/** A line of a printed stack trace. */
export const STACK_LINE = /^\s+at /m;

/** How a CLI run ended. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end (50 s at most) and collects its output. */
export function runCli(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not end; stderr: ${stderr.slice(-2000)}`));
    }, 50_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
