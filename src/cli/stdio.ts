/** `portcullis stdio`: serves the same governed tool set over stdio, for desktop clients that launch processes. */
import type { CommandIo } from './args.ts';
import { parseCommandArgs } from './args.ts';
import { StdioWire } from './stdio-wire.ts';
import { serveStdioEras } from './stdio-eras.ts';
import { buildCore } from '../app/index.ts';
import { STDIO_PRINCIPAL } from '../downstream/index.ts';
import { appFromProcess } from './process-env.ts';
import { FIRST_LIST_WAIT_MS, gateListsUntil } from './first-list-gate.ts';

/** Serves MCP on this process's stdin/stdout until stdin closes; logs go to stderr. */
export async function runStdio(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, { profile: { type: 'string' } });
  if (values.help) {
    io.stdout('usage: portcullis stdio [--config FILE] [--profile NAME]\n');
    return 0;
  }
  const { config, deps } = appFromProcess(values.config, io.cwd);
  const named = values.profile;
  if (named !== undefined && !Object.hasOwn(config.profiles, named)) {
    const known = Object.keys(config.profiles).join(', ') || 'none';
    io.stderr(`unknown profile "${named}" (configured: ${known})\n`);
    return 2;
  }
  const gateway = buildCore(config, deps);
  // The local user who starts the process chooses the profile: its tool set applies, its principals do not.
  const profile = (named === undefined ? undefined : gateway.profiles.get(named)) ?? gateway.profiles.default;
  gateway.start();
  const transport = new StdioWire();
  gateListsUntil(transport, gateway.ready(FIRST_LIST_WAIT_MS));
  const handle = serveStdioEras(transport, {
    legacy: () => gateway.legacyServerFor({ principal: STDIO_PRINCIPAL, profile, era: 'legacy' }),
    modern: gateway.modern,
    identity: { principal: STDIO_PRINCIPAL, profile, era: 'modern' },
  });
  gateway.onListChanged((kind) => handle.listChanged(kind));
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await handle.close();
  await gateway.close();
  return 0;
}
