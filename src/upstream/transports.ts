/**
 * Builds the client transport for one configured upstream, each the gateway's own: stdio (stdio-link.ts),
 * Streamable HTTP (http-link.ts) and the legacy HTTP+SSE transport (sse-link.ts).
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { StreamableHttpLink } from './http-link.ts';
import type { OrphanWatchdog } from './orphan-watchdog.ts';
import { SseLink } from './sse-link.ts';
import { StdioLink } from './stdio-link.ts';

/** Environment a stdio child always inherits besides its configured `env` (nothing else leaks to it). */
export const INHERITED_CHILD_ENV = ['PATH', 'HOME'] as const;

/** What a transport needs from the host besides the config. */
export interface TransportContext {
  /** Values of the inherited variables (PATH, HOME), passed in so that upstream/ never reads process.env. */
  inheritedEnv: Record<string, string | undefined>;
  /** Receives every stderr line of a stdio child (already a string). */
  onStderr?: (line: string) => void;
  /** Told the pid of each stdio child, so that it dies with the gateway. */
  watchdog?: OrphanWatchdog;
}

/** Creates a fresh transport (one per connection attempt) for the upstream. */
export function createTransport(upstream: UpstreamConfig, context: TransportContext): Transport {
  if (upstream.transport === 'stdio') {
    const env: Record<string, string> = {};
    for (const name of INHERITED_CHILD_ENV) {
      const value = context.inheritedEnv[name];
      if (value !== undefined) env[name] = value;
    }
    Object.assign(env, upstream.env);
    const transport = new StdioLink({
      command: upstream.command,
      args: upstream.args,
      env,
      ...(upstream.cwd === undefined ? {} : { cwd: upstream.cwd }),
      ...(context.watchdog ? { watchdog: context.watchdog } : {}),
    });
    const onStderr = context.onStderr;
    if (!onStderr) {
      // Nobody reads it: drained, so that a chatty child never blocks on a full stderr pipe.
      transport.stderr.resume();
      return transport;
    }
    let pending = '';
    transport.stderr.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        onStderr(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      if (pending.length > 8192) pending = pending.slice(-8192);
    });
    return transport;
  }
  const options = { url: new URL(upstream.url), headers: upstream.headers };
  return upstream.transport === 'sse' ? new SseLink(options) : new StreamableHttpLink(options);
}
