/** What every gateway-running command shares: the config (from --config or ./portcullis.yaml) and the process env. */
import { loadConfig, processEnvLookup, type PortcullisConfig } from '../config/index.ts';
import { createGateway, type Gateway, type GatewayDeps } from '../app/index.ts';
import { createMasker } from '../secrets/index.ts';
import { INHERITED_CHILD_ENV } from '../upstream/index.ts';
import { maskFaultsWith } from './process-faults.ts';

/** PATH and HOME of this process, read through the config domain's lookup. */
export function inheritedEnv(): Record<string, string | undefined> {
  const lookup = processEnvLookup();
  return Object.fromEntries(INHERITED_CHILD_ENV.map((name) => [name, lookup(name)]));
}

/** Loads the configuration and builds a gateway over this process's environment. */
export function gatewayFromConfig(
  configPath: string | undefined,
  cwd: string,
  deps: Partial<GatewayDeps> = {},
): { config: PortcullisConfig; gateway: Gateway } {
  const lookup = processEnvLookup();
  const config = loadConfig({ ...(configPath ? { path: configPath } : {}), cwd, lookup });
  maskFaultsWith(createMasker(config.secrets));
  return { config, gateway: createGateway(config, { inheritedEnv: inheritedEnv(), lookup, ...deps }) };
}
