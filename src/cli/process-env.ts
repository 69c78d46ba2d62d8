/** The parts of the process environment a stdio upstream child inherits (PATH and HOME only). */
import { processEnvLookup } from '../config/index.ts';
import { INHERITED_CHILD_ENV } from '../upstream/index.ts';

/** PATH and HOME of this process, read through the config domain's lookup. */
export function inheritedEnv(): Record<string, string | undefined> {
  const lookup = processEnvLookup();
  return Object.fromEntries(INHERITED_CHILD_ENV.map((name) => [name, lookup(name)]));
}
