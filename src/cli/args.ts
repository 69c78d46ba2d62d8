/** Shared argument handling for every subcommand: `--config FILE` everywhere, friendly errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Standard streams and environment a command runs with (tests pass their own). */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON = { config: { type: 'string', short: 'c' }, help: { type: 'boolean', short: 'h' } } as const;

/** The parse configuration of a command with options `T`. */
export type CommandArgsConfig<T extends Options> = {
  args: string[];
  options: typeof COMMON & T;
  allowPositionals: true;
  strict: true;
};

/** The parsed values and positionals of a command with options `T`. */
export type CommandArgs<T extends Options> = ReturnType<typeof parseArgs<CommandArgsConfig<T>>>;

/** Parses `args` with the given options plus `--config` and `--help`; throws on unknown options. */
export function parseCommandArgs<T extends Options>(args: string[], options: T): CommandArgs<T> {
  return parseArgs<CommandArgsConfig<T>>({
    args,
    options: { ...COMMON, ...options },
    allowPositionals: true,
    strict: true,
  });
}
