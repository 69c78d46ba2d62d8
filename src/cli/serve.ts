/** `portcullis serve`: runs the gateway on HTTP (listen address from config) until SIGINT/SIGTERM. */
import { buildGateway } from '../app/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { listenGateway, type Listening } from '../http/index.ts';
import type { CommandIo } from './args.ts';
import { parseCommandArgs, parsePort } from './args.ts';
import { appFromProcess } from './process-env.ts';

/** Runs the HTTP gateway; resolves with the exit code when the process is asked to stop. */
export async function runServe(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, { port: { type: 'string' } });
  if (values.help) {
    io.stdout('usage: portcullis serve [--config FILE] [--port N]\n');
    return 0;
  }
  const portFlag = values.port === undefined ? undefined : parsePort('--port', values.port);
  const { config, deps } = appFromProcess(values.config, io.cwd);
  const gateway = buildGateway(config, deps);
  gateway.start();
  const port = portFlag ?? config.listen.port;
  let listening: Listening;
  try {
    listening = await listenGateway(gateway.app, config.listen.host, port);
  } catch (error) {
    await gateway.close();
    throw listenFailure(error, config.listen.host, port);
  }
  const bound = listening.port;
  gateway.logger.log('gateway.listening', {
    url: `http://${config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host}:${bound}/mcp`,
    config: config.source,
    upstreams: config.upstreams.map((u) => u.id),
    auth:
      [config.auth.apiKeys.length > 0 ? 'api-keys' : '', config.auth.oauth ? 'oauth' : '']
        .filter(Boolean)
        .join('+') || 'none',
  });
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      gateway.logger.log('gateway.stopping', { signal });
      void listening.close();
      void gateway.close().then(() => resolve(0));
      setTimeout(() => resolve(0), 5_000).unref();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

const LISTEN_HINTS: Record<string, string> = {
  EADDRINUSE: 'is already in use; stop the other process or set listen.port / --port',
  EACCES: 'needs privileges this process lacks; use a port above 1023 (listen.port / --port)',
  EADDRNOTAVAIL: 'is not an address of this machine; set listen.host to one of its addresses',
};

/** The listen error as one line a person can act on (LISTEN_FAILED). */
function listenFailure(error: unknown, host: string, port: number): PortcullisError {
  const code = (error as { code?: unknown } | null)?.code;
  const hint = typeof code === 'string' ? LISTEN_HINTS[code] : undefined;
  const detail = hint ?? `could not be opened (${error instanceof Error ? error.message : String(error)})`;
  return new PortcullisError('LISTEN_FAILED', `port ${port} on ${host} ${detail}`, {
    ...(typeof code === 'string' ? { reason: code } : {}),
    cause: error,
  });
}
