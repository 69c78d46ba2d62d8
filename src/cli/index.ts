/**
 * cli: the `portcullis` command. Subcommands: serve (default), stdio, scan, ledger, spec, audit. Every
 * subcommand takes --config FILE. Errors print their stable code and a message a person can act on.
 */
import { isPortcullisError } from '../errors/index.ts';
import { UsageError, type CommandIo } from './args.ts';
import { describeFault } from './process-faults.ts';
import { runServe } from './serve.ts';
import { runStdio } from './stdio.ts';
import { runScan } from './scan.ts';
import { runLedger } from './ledger.ts';
import { runSpecCommand } from './spec.ts';
import { runAuditCommand } from './audit.ts';
import { loadConfig, processEnvLookup } from '../config/index.ts';

const USAGE = `usage: portcullis <command> [--config FILE] [options]

commands:
  serve     run the gateway on HTTP (default)
  stdio     serve the governed tools over stdio (--profile NAME: one profile's tools)
  scan      scan the upstreams, an MCP client config (--from) or a tools file (--tools); text, json, sarif
  ledger    list | approve | revoke tool fingerprints
  spec      new | validate | test | publish | risk a Safe Tool Spec
  audit     verify | tail | export the audit log
`;

type Command = (args: string[], io: CommandIo) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  serve: runServe,
  stdio: runStdio,
  scan: runScan,
  ledger: runLedger,
  spec: (args, io) =>
    runSpecCommand(withoutConfig(args), {
      stdout: { write: io.stdout },
      stderr: { write: io.stderr },
      lookup: processEnvLookup(),
      cwd: io.cwd,
    }),
  audit: (args, io) => runAuditCommand(withDbFromConfig(args, io.cwd), io),
};

/** `spec` works on spec files alone: accept the common --config flag and ignore it. */
function withoutConfig(args: string[]): string[] {
  const index = args.indexOf('--config');
  return index < 0 ? args : [...args.slice(0, index), ...args.slice(index + 2)];
}

/** `audit` works on a database path; `--config FILE` (or ./portcullis.yaml) names it through store.path. */
function withDbFromConfig(args: string[], cwd: string): string[] {
  if (args.includes('--db') || args.includes('--help') || args.includes('-h')) return args;
  const index = args.indexOf('--config');
  const path = index >= 0 ? args[index + 1] : undefined;
  const rest = index >= 0 ? [...args.slice(0, index), ...args.slice(index + 2)] : args;
  const config = loadConfig({ ...(path === undefined ? {} : { path }), cwd, lookup: processEnvLookup() });
  return [...rest, '--db', config.store.path];
}

/** Runs the CLI with `argv` (without node and script); resolves with the exit code. */
export async function runCli(argv: string[], io: CommandIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`portcullis: unknown command "${name}"\n${USAGE}`);
    return 2;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (isPortcullisError(error)) {
      io.stderr(`portcullis ${name}: ${error.code}: ${error.message}\n`);
      return 1;
    }
    if (
      error instanceof UsageError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      io.stderr(`portcullis ${name}: ${error.message} (see portcullis ${name} --help)\n`);
      return 2;
    }
    // Anything else is a defect of Portcullis, not of the input: one masked line, never a stack trace.
    const fault = describeFault(error);
    io.stderr(`portcullis ${name}: ${fault.code}: ${fault.message}\n`);
    return 1;
  }
}
export { installProcessFaultHandlers } from './process-faults.ts';
