/** What every gateway-running command shares: the config (from --config or ./portcullis.yaml) and the process env. */
import type { AppDeps } from '../app/index.ts';
import { loadConfig, processEnvLookup, type PortcullisConfig } from '../config/index.ts';
import { createMasker } from '../secrets/index.ts';
import { INHERITED_CHILD_ENV } from '../upstream/index.ts';
import { maskFaultsWith } from './process-faults.ts';

/** PATH and HOME of this process, read through the config domain's lookup. */
export function inheritedEnv(): Record<string, string | undefined> {
  const lookup = processEnvLookup();
  return Object.fromEntries(INHERITED_CHILD_ENV.map((name) => [name, lookup(name)]));
}

/** Loads the configuration and the app's dependencies on this process's environment. */
export function appFromProcess(
  configPath: string | undefined,
  cwd: string,
): { config: PortcullisConfig; deps: AppDeps } {
  const lookup = processEnvLookup();
  const config = loadConfig({ ...(configPath ? { path: configPath } : {}), cwd, lookup });
  maskFaultsWith(createMasker(config.secrets));
  return { config, deps: { inheritedEnv: inheritedEnv(), lookup } };
}
