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

/** A wrong flag value: the CLI prints its message and exits with status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A TCP port from a flag value (0 picks a free one); throws UsageError otherwise. */
export function parsePort(flag: string, text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65_535))
    throw new UsageError(`${flag} needs a whole number from 0 to 65535, got "${text}"`);
  return port;
}

/** A positive number of seconds from a flag value; throws UsageError otherwise. */
export function parseSeconds(flag: string, text: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds > 0 && seconds <= 86_400))
    throw new UsageError(`${flag} needs a positive number of seconds, got "${text}"`);
  return seconds;
}
