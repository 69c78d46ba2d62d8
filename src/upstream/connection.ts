/**
 * One live connection to one upstream MCP server, by era, each on the gateway's own JSON-RPC session (wire.ts):
 * a 2025-era upstream gets legacy-connection.ts, a 2026-era one modern-connection.ts; `protocol: auto` decides
 * first (era-probe.ts). Here: the connect deadline around all of it, and the shapes both eras' links share.
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  ReadResourceResult,
  Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { Era } from '../shared/index.ts';
import type { DeclineReason } from './client-request-router.ts';
import { probeEra } from './era-probe.ts';
import { connectLegacy } from './legacy-connection.ts';
import { describeError } from './link-support.ts';
import { connectModern } from './modern-connection.ts';
import { createTransport, type TransportContext } from './transports.ts';
import type {
  DeclinedRequest,
  UpstreamCallOptions,
  UpstreamPromptOptions,
  UpstreamSnapshot,
} from './types.ts';

/** Callbacks from a live connection. */
export interface ConnectionEvents {
  /** The connection closed (process exit, network drop, or close()). */
  onClose(error?: Error): void;
  /** The upstream said one of its lists changed. */
  onListChanged(kind: 'tools' | 'prompts' | 'resources'): void;
  /** An upstream elicitation or sampling request could not be routed to a caller and was declined. */
  onClientRequestDeclined?(reason: DeclineReason, request: DeclinedRequest): void;
  /** The upstream said a resource someone subscribed to changed. */
  onResourceUpdated?(uri: string): void;
  /** A 2026-era subscription stream the upstream dropped could not be re-opened at once (it is retried). */
  onSubscriptionLost?(uri: string, error: Error): void;
  /** A subscription stream reported lost is open again. */
  onSubscriptionRestored?(uri: string): void;
  /**
   * A request the connection makes on its own, with no caller to report to, failed: the 2026-era `listen` stream
   * that carries list changes (without it, changes arrive only on the next refresh), or the legacy log level.
   */
  onBackgroundFailure?(request: 'listen' | 'set_logging_level', message: string): void;
}

/** A connected upstream. */
export interface UpstreamConnection {
  readonly era: Era;
  readonly protocolVersion: string | undefined;
  readonly serverInfo: { name: string; version: string } | undefined;
  /** The `instructions` of the initialize result. */
  readonly instructions: string | undefined;
  /** Fetches tools, prompts and resources (empty lists where the capability is absent). */
  fetchLists(): Promise<
    Pick<UpstreamSnapshot, 'tools' | 'rejectedTools' | 'prompts' | 'resources' | 'resourceTemplates'>
  >;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamCallOptions,
  ): Promise<CallToolResult>;
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options?: UpstreamPromptOptions,
  ): Promise<GetPromptResult>;
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  /** Asks for argument completions; no suggestions when the upstream does not offer completions. */
  complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult>;
  /** Subscribes to changes of a resource; UPSTREAM_ERROR when the upstream offers no subscriptions. */
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  /** Checks the upstream still answers (ping on legacy, server/discover on modern); rejects when it does not. */
  probe(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * What the era probe of a `protocol: auto` upstream found, kept across its reconnects. Only a 2025-era verdict
 * whose probe could not keep its connection is kept (a server that stayed silent or exited on the probe: its probe
 * cost a wait and a process of its own); the next connect goes straight to the 2025-era handshake, and a connect
 * that then fails forgets the verdict, so a server whose era changed is probed again.
 */
export interface EraMemo {
  legacy: boolean;
}

/**
 * Connects to the upstream; rejects with UPSTREAM_UNAVAILABLE naming the upstream and the cause. `stop` (the
 * gateway closing) ends a connect in flight like its deadline: every process it started is closed.
 */
export async function connectUpstream(
  config: UpstreamConfig,
  context: TransportContext,
  events: ConnectionEvents,
  connectTimeoutMs = 30_000,
  memo: EraMemo = { legacy: false },
  stop?: AbortSignal,
): Promise<UpstreamConnection> {
  // The deadline ends the whole connect, the era probe included; a connect it ends is reported once, by the
  // rejection below, never through onClose.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error('connect timeout')), connectTimeoutMs);
  const onStop = () => deadline.abort(new Error('the gateway closed'));
  if (stop?.aborted) onStop();
  else stop?.addEventListener('abort', onStop, { once: true });
  try {
    let discover: DiscoverResult | undefined;
    let open: Transport | undefined;
    let probedAlone = false;
    if (config.protocol === 'auto' && !memo.legacy) {
      // The era probe must end well inside the connect deadline, leaving time for the handshake after it.
      const verdict = await probeEra(
        config,
        context,
        Math.min(5_000, Math.floor(connectTimeoutMs / 2)),
        deadline.signal,
      );
      if (verdict.era === 'modern') discover = verdict.discover;
      open = verdict.open;
      probedAlone = verdict.era === 'legacy' && open === undefined;
    }
    const transport = open ?? createTransport(config, context);
    const started = open !== undefined;
    if (config.protocol === 'legacy' || (config.protocol === 'auto' && discover === undefined)) {
      try {
        const connection = await connectLegacy(config, transport, events, deadline.signal, started);
        if (probedAlone) memo.legacy = true;
        return connection;
      } catch (error) {
        memo.legacy = false;
        throw error;
      }
    }
    return await connectModern(config, transport, events, deadline.signal, discover, started);
  } catch (error) {
    const why = stop?.aborted
      ? 'the gateway closed while it connected'
      : deadline.signal.aborted
        ? `it did not complete the MCP handshake within ${connectTimeoutMs} ms`
        : describeError(error);
    throw new PortcullisError(
      'UPSTREAM_UNAVAILABLE',
      `upstream "${config.id}" could not be connected: ${why}`,
      {
        cause: error,
      },
    );
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener('abort', onStop);
  }
}
