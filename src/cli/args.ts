/** Shared argument handling for every subcommand: `--config FILE` everywhere, friendly errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Standard streams and environment a command runs with (tests pass their own). */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

/** Parses `args` with the given options plus `--config` and `--help`; throws a usage error string on failure. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
) {
  return parseArgs({
    args,
    options: { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' }, ...options },
    allowPositionals: true,
    strict: true,
  });
}
