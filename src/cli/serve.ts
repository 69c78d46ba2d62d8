/** `portcullis serve`: runs the gateway on HTTP (listen address from config) until SIGINT/SIGTERM. */
import { listenGateway } from '../http/index.ts';
import type { CommandIo } from './args.ts';
import { parseCommandArgs } from './args.ts';
import { gatewayFromConfig } from './process-env.ts';

/** Runs the HTTP gateway; resolves with the exit code when the process is asked to stop. */
export async function runServe(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, { port: { type: 'string' } });
  if (values.help) {
    io.stdout('usage: portcullis serve [--config FILE] [--port N]\n');
    return 0;
  }
  const { config, gateway } = gatewayFromConfig(values.config, io.cwd);
  const port = values.port === undefined ? config.listen.port : Number(values.port);
  const listening = await listenGateway(gateway.app, config.listen.host, port);
  const bound = listening.port;
  gateway.logger.log('gateway.listening', {
    url: `http://${config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host}:${bound}/mcp`,
    config: config.source,
    upstreams: config.upstreams.map((u) => u.id),
    auth: config.auth.apiKeys.length > 0 ? 'api-keys' : 'none',
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
