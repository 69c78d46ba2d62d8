/**
 * Drives the official conformance CLI (`@modelcontextprotocol/conformance`) as a child process: lists its
 * server scenarios and runs them against a URL, writing per-scenario results under an output directory.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './gateway-under-test.ts';

/** The installed conformance package. */
export const SUITE_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance');

/** The CLI entry of the installed conformance package. */
export const SUITE_CLI = path.join(SUITE_DIR, 'dist/index.js');

/** The installed conformance package version. */
export function suiteVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(SUITE_DIR, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

/** Every server scenario the installed suite knows (`conformance list --server`). */
export async function listServerScenarios(nodePath: string): Promise<string[]> {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(nodePath, [SUITE_CLI, 'list', '--server'], { timeout: 30_000 }, (error, out) =>
      error ? reject(error) : resolve(out),
    );
  });
  return stdout
    .split('\n')
    .map((line) => /^\s+-\s+(\S+)\s*$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** Options of one suite run. */
export interface SuiteRunOptions {
  nodePath: string;
  url: string;
  outputDir: string;
  /** Scenarios to run one by one; undefined runs the whole suite (`--suite all`) in one process. */
  scenarios?: readonly string[];
  /** Everything the CLI prints is appended here. */
  logFile: string;
  /** Also echo the CLI's output to this process's stdout. */
  echo: boolean;
  /** The whole run is killed after this long; scenarios without results then count as missing. */
  timeoutMs: number;
}

/** How the run ended. */
export interface SuiteRunResult {
  timedOut: boolean;
  /** Exit codes of the CLI invocations (null when killed). */
  exitCodes: (number | null)[];
}

/** Runs the suite; resolves when every invocation has exited or the deadline killed it. */
export async function runSuite(options: SuiteRunOptions): Promise<SuiteRunResult> {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const deadline = Date.now() + options.timeoutMs;
  const invocations = options.scenarios
    ? options.scenarios.map((s) => ['--scenario', s])
    : [['--suite', 'all']];
  const result: SuiteRunResult = { timedOut: false, exitCodes: [] };
  try {
    for (const selection of invocations) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        result.timedOut = true;
        break;
      }
      const args = [SUITE_CLI, 'server', '--url', options.url, ...selection, '-o', options.outputDir];
      const code = await runOnce(options.nodePath, args, remaining, (chunk) => {
        log.write(chunk);
        if (options.echo) process.stdout.write(chunk);
      });
      if (code === 'timeout') {
        result.timedOut = true;
        result.exitCodes.push(null);
        break;
      }
      result.exitCodes.push(code);
    }
  } finally {
    await new Promise<void>((resolve) => log.end(() => resolve()));
  }
  return result;
}

function runOnce(
  nodePath: string,
  args: string[],
  timeoutMs: number,
  onOutput: (chunk: Buffer) => void,
): Promise<number | null | 'timeout'> {
  return new Promise((resolve, reject) => {
    const child = spawn(nodePath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(timedOut ? 'timeout' : code);
    });
  });
}
