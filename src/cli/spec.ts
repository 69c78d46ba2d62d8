/**
 * `portcullis spec new NAME | validate FILE | test FILE | publish FILE | risk FILE`: author, check, run and
 * publish Safe Tool Specs from the command line. Exit codes: 0 success, 1 the spec or its Local Pass failed,
 * 2 usage error.
 */
import { createToolRunner } from '../sandbox/index.ts';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isPortcullisError, type PortcullisError } from '../errors/index.ts';
import {
  createPolicyResolver,
  deriveToolId,
  evaluateSpec,
  formatSpecError,
  lifecycleOf,
  loadSandboxPolicies,
  parseSpec,
  publishSpecFile,
  readSpecFile,
  runLocalPass,
  serializeSpec,
  type LocalPassDeps,
  type LocalPassOutcome,
  type PolicyResolver,
  type SafeToolSpec,
} from '../tool-specs/index.ts';

/** Where the command writes and what it may use; nothing here reads process.env. */
export interface SpecCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Env lookup for static-variable placeholders (the gateway passes its config-backed lookup). */
  lookup: LocalPassDeps['lookup'];
  /** Directory that relative paths are resolved against (default: the process working directory). */
  cwd?: string;
  /** The sandbox runner for test/publish; default: the sandbox domain's createToolRunner. */
  runner?: LocalPassDeps['runner'];
  /** Policies directory (default: the bundled `policies/`). */
  policiesDir?: string;
  now?: () => number;
}

const USAGE = `usage: portcullis spec <command> [options]
  new NAME [--out FILE]     write a draft spec skeleton (default file: NAME.json)
  validate FILE             check schema, invariants and sandbox policy resolution
  test FILE                 run the Local Pass (testValues in the sandbox); the file is not changed
  publish FILE              run the Local Pass and, when it passes, persist draft: false
  risk FILE                 print the resolved toolSafety block and the Risk Level with reasons
options: --profile NAME (default sandbox profile), --policies DIR (sandbox policy files)
`;

interface Parsed {
  command: string | undefined;
  target: string | undefined;
  out: string | undefined;
  profile: string | undefined;
  policies: string | undefined;
}

function parseArgs(args: readonly string[]): Parsed | string {
  const parsed: Parsed = {
    command: undefined,
    target: undefined,
    out: undefined,
    profile: undefined,
    policies: undefined,
  };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--out' || arg === '--profile' || arg === '--policies') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) return `${arg} needs a value`;
      parsed[arg.slice(2) as 'out' | 'profile' | 'policies'] = value;
      i += 1;
    } else if (arg.startsWith('--')) return `unknown option ${arg}`;
    else if (parsed.command === undefined) parsed.command = arg;
    else if (parsed.target === undefined) parsed.target = arg;
    else return `unexpected argument ${arg}`;
  }
  return parsed;
}

// Tool code writes console lines and error text: shown raw, an escape sequence would drive the operator's
// terminal and a newline would forge a line of this command's own output.
// eslint-disable-next-line no-control-regex -- exactly the characters a terminal must not receive raw
const TERMINAL_CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `text` with every C0/C1 control character (newlines included), and DEL, shown as a `\uXXXX` escape. */
function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function printErrors(io: SpecCliIo, file: string, errors: readonly PortcullisError[]): void {
  io.stderr.write(`${file}: ${errors.length} problem${errors.length === 1 ? '' : 's'}\n`);
  for (const error of errors) {
    const nested = error.details?.['errors'];
    if (Array.isArray(nested)) {
      for (const e of nested as Array<{ code: string; pointer?: string; message: string }>) {
        io.stderr.write(
          `  ${terminalSafe(`${e.code} ${e.pointer === undefined || e.pointer === '' ? '/' : e.pointer}: ${e.message}`)}\n`,
        );
      }
    } else io.stderr.write(`  ${terminalSafe(formatSpecError(error))}\n`);
  }
}

async function createRunner(
  io: SpecCliIo,
): Promise<{ runner: LocalPassDeps['runner']; owned: boolean } | undefined> {
  if (io.runner !== undefined) return { runner: io.runner, owned: false };
  return { runner: createToolRunner(), owned: true };
}

async function loadAndResolve(
  io: SpecCliIo,
  file: string,
  options: Parsed,
): Promise<{ spec: SafeToolSpec; resolver: PolicyResolver } | undefined> {
  const read = await readSpecFile(file);
  if (!read.ok) {
    printErrors(io, file, read.errors);
    return undefined;
  }
  const policies = await loadSandboxPolicies(options.policies ?? io.policiesDir);
  const resolver = createPolicyResolver(policies, { defaultProfile: options.profile ?? null });
  const resolved = resolver.resolve(read.value);
  if (!resolved.ok) {
    printErrors(io, file, resolved.errors);
    return undefined;
  }
  return { spec: read.value, resolver };
}

function printPass(io: SpecCliIo, file: string, outcome: LocalPassOutcome, verb: string): number {
  for (const line of outcome.console) io.stdout.write(`console: ${terminalSafe(line)}\n`);
  if (!outcome.ok) {
    printErrors(io, file, [outcome.error]);
    return 1;
  }
  const shown = String(JSON.stringify(outcome.value, null, 2))
    .split('\n')
    .map(terminalSafe)
    .join('\n');
  io.stdout.write(`${shown}\n`);
  io.stdout.write(`${file}: Local Pass ${verb} (risk ${outcome.risk.level})\n`);
  return 0;
}

async function commandNew(io: SpecCliIo, cwd: string, options: Parsed): Promise<number> {
  const name = options.target;
  if (name === undefined || !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(name)) {
    io.stderr.write('spec new needs a NAME: a letter, then letters, digits, _ or -, at most 64 characters\n');
    return 2;
  }
  const file = resolve(cwd, options.out ?? `${name}.json`);
  const skeleton = parseSpec({
    toolId: deriveToolId(name),
    name,
    description: `TODO: say what ${name} does, which arguments it needs and what it returns (Returns { echo }).`,
    category: 'OTHER',
    tags: [],
    params: [
      { name: 'text', type: 'STRING', required: true, testValue: 'hello', description: 'TODO: describe' },
    ],
    staticVariables: [],
    code: 'return { echo: text };',
    codeType: 'Javascript',
    sandboxOverrides: {},
    draft: true,
  });
  if (!skeleton.ok) throw new Error('the built-in skeleton does not validate');
  try {
    const handle = await open(file, 'wx');
    try {
      await handle.writeFile(serializeSpec(skeleton.value), 'utf8');
    } finally {
      await handle.close();
    }
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    io.stderr.write(
      code === 'EEXIST' ? `${file} already exists; pick another name or --out\n` : `cannot write ${file}\n`,
    );
    return 1;
  }
  io.stdout.write(`created ${file} (draft). Edit it, then run: portcullis spec test ${file}\n`);
  return 0;
}

async function run(args: readonly string[], io: SpecCliIo): Promise<number> {
  const options = parseArgs(args);
  if (typeof options === 'string') {
    io.stderr.write(`${options}\n${USAGE}`);
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  if (options.command === 'new') return commandNew(io, cwd, options);
  if (
    !['validate', 'test', 'publish', 'risk'].includes(options.command ?? '') ||
    options.target === undefined
  ) {
    io.stderr.write(USAGE);
    return 2;
  }
  const file = resolve(cwd, options.target);
  const loaded = await loadAndResolve(io, file, options);
  if (loaded === undefined) return 1;
  const { spec, resolver } = loaded;

  if (options.command === 'validate' || options.command === 'risk') {
    const evaluation = evaluateSpec(spec, resolver);
    if (!evaluation.ok) {
      printErrors(io, file, evaluation.errors);
      return 1;
    }
    const { risk, toolSafety, humanInTheLoop } = evaluation.value;
    if (options.command === 'validate') {
      const status = lifecycleOf(spec, io.lookup);
      const missing = status.missing.length > 0 ? `; missing env: ${status.missing.join(', ')}` : '';
      io.stdout.write(`${file}: valid (${status.state}${missing}; risk ${risk.level})\n`);
      return 0;
    }
    io.stdout.write(`toolSafety:\n${JSON.stringify(toolSafety, null, 2)}\n`);
    io.stdout.write(`Risk Level: ${risk.level}\n`);
    for (const reason of risk.reasons) io.stdout.write(`  - ${reason}\n`);
    if (risk.reasons.length === 0) io.stdout.write('  - no network, no files, baseline class lists\n');
    io.stdout.write(`humanInTheLoop: ${humanInTheLoop.mode} (${humanInTheLoop.source})\n`);
    return 0;
  }

  const created = await createRunner(io);
  if (created === undefined) {
    io.stderr.write(
      'no sandbox runner is available (src/sandbox/index.ts does not export createToolRunner yet)\n',
    );
    return 1;
  }
  try {
    const deps: LocalPassDeps = {
      runner: created.runner,
      lookup: io.lookup,
      policyFor: resolver.policyFor,
      ...(io.now === undefined ? {} : { now: io.now }),
    };
    if (options.command === 'test') return printPass(io, file, await runLocalPass(spec, deps), 'passed');
    return printPass(io, file, await publishSpecFile(file, deps), 'passed; published (draft: false)');
  } finally {
    if (created.owned) await created.runner.close();
  }
}

/** Runs one `portcullis spec …` command and returns its exit code; unexpected errors print and return 1. */
export async function runSpecCommand(args: readonly string[], io: SpecCliIo): Promise<number> {
  try {
    return await run(args, io);
  } catch (error) {
    if (isPortcullisError(error)) io.stderr.write(`${error.code}: ${error.message}\n`);
    else io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
