/** Command-line options of `npm run bench`. */
import type { BenchOptions } from './types.ts';

/** Parsed command line: the section options plus where to write JSON and which sections to run. */
export interface BenchArgs {
  options: BenchOptions;
  jsonFile?: string;
  /** Section names to run (all when empty). */
  only: string[];
  /** Parts picked within a section (`--only scale:upstreams`), by section name; a section absent here runs whole. */
  parts: Record<string, string[]>;
  /** Sample the CPU while the sections run and print the gateway's hot spots. */
  profile: boolean;
}

/** The usage text. */
export const USAGE =
  'usage: npm run bench -- [--quick] [--profile] [--json FILE] [--only SECTION[:PART][,SECTION[:PART]...]]';

/** Parses argv (without node and the script); throws with the usage text on an unknown flag. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  let quick = false;
  let profile = false;
  let jsonFile: string | undefined;
  const only: string[] = [];
  const parts: Record<string, string[]> = {};
  const pick = (entry: string) => {
    const [section = '', part] = entry.split(':', 2);
    if (!only.includes(section)) only.push(section);
    if (part !== undefined) (parts[section] ??= []).push(part);
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--json' || arg === '--only') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value\n${USAGE}`);
      if (arg === '--json') jsonFile = value;
      else value.split(',').filter(Boolean).forEach(pick);
      i += 1;
    } else if (arg.startsWith('--json=')) jsonFile = arg.slice('--json='.length);
    else throw new Error(`unknown argument: ${arg}\n${USAGE}`);
  }
  const options: BenchOptions = {
    calls: quick ? 200 : 2000,
    warmup: quick ? 100 : 500,
    concurrency: 16,
    leakCalls: quick ? 2000 : 20_000,
    quick,
  };
  return { options, ...(jsonFile === undefined ? {} : { jsonFile }), only, parts, profile };
}
