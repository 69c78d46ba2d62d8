/**
 * The upstream supervisor: connects every enabled upstream in parallel, never lets a slow or dead one block the
 * others, reconnects with backoff, re-fetches lists on list_changed, and reports every change to the gateway.
 * Longer than most files on purpose: it is one state machine per upstream (connecting, connected, down, backoff)
 * over one table, and its transitions read best in one place.
 */
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { reconnectDelayMs } from './backoff.ts';
import { connectUpstream, type EraMemo, type UpstreamConnection } from './connection.ts';
import { describeError } from './link-support.ts';
import type { DeclineReason } from './client-request-router.ts';
import { createOrphanWatchdog } from './orphan-watchdog.ts';
import { createStderrTail } from './stderr-tail.ts';
import type { TransportContext } from './transports.ts';
import type {
  DeclinedRequest,
  UpstreamCallOptions,
  UpstreamPromptOptions,
  UpstreamSnapshot,
} from './types.ts';

/**
 * A connection must stay up this long before its drop restarts the backoff from the shortest delay; an upstream
 * that exits right after its handshake otherwise restarts about once a second forever.
 */
export const STABLE_CONNECTION_MS = 30_000;

/** List re-fetches after list_changed notifications start at least this far apart, per upstream. */
export const REFRESH_SPACING_MS = 1_000;

/** Stderr lines of one upstream logged per second; the rest are counted in upstream.stderr_dropped. */
export const STDERR_LOG_LINES_PER_SECOND = 50;

/** What changed about an upstream. */
export type UpstreamChange = 'state' | 'tools' | 'prompts' | 'resources';

/** Options of the supervisor. */
export interface SupervisorOptions {
  upstreams: readonly UpstreamConfig[];
  transport: TransportContext;
  /** Called after every change of an upstream's state or lists (lists are already updated). */
  onChange(id: string, change: UpstreamChange): void;
  /** Called when an upstream connected (the store records "last connected"). */
  onConnected?(id: string, at: number): void;
  /** Called when an upstream request to its client (elicitation, sampling) could not be routed to a caller. */
  onClientRequestDeclined?(id: string, reason: DeclineReason, request: DeclinedRequest): void;
  /** Called when an upstream reports a change of a subscribed resource. */
  onResourceUpdated?(id: string, uri: string): void;
  /** Structured log sink (level `info` when absent). */
  log?(event: string, fields: Record<string, unknown>, level?: 'debug' | 'info' | 'warn' | 'error'): void;
  now?: () => number;
  connectTimeoutMs?: number;
  /** Test hook: override the reconnect delay. */
  reconnectDelay?: (attempt: number) => number;
  /** How often HTTP and SSE upstreams are checked for liveness (0 disables; default 15 s). */
  heartbeatMs?: number;
}

/** Manages every upstream connection. */
export interface Supervisor {
  /** Starts connecting every enabled upstream; returns at once. */
  start(): void;
  /** Resolves when every enabled upstream has connected or failed at least once (or the timeout passes). */
  settled(timeoutMs?: number): Promise<void>;
  snapshot(id: string): UpstreamSnapshot | undefined;
  snapshots(): UpstreamSnapshot[];
  callTool(
    id: string,
    tool: string,
    args: Record<string, unknown>,
    options: UpstreamCallOptions,
  ): Promise<CallToolResult>;
  getPrompt(
    id: string,
    name: string,
    args: Record<string, string> | undefined,
    options?: UpstreamPromptOptions,
  ): Promise<GetPromptResult>;
  readResource(id: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  complete(id: string, params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult>;
  subscribeResource(id: string, uri: string): Promise<void>;
  unsubscribeResource(id: string, uri: string): Promise<void>;
  /** Drops the connection and reconnects now (operator action, tests). */
  reconnect(id: string): void;
  close(): Promise<void>;
}

interface Entry {
  config: UpstreamConfig;
  snapshot: UpstreamSnapshot;
  connection: UpstreamConnection | undefined;
  timer: NodeJS.Timeout | undefined;
  firstAttempt: Promise<void>;
  resolveFirstAttempt: () => void;
  generation: number;
  /** List kinds changed since the last fetch started (see refresh). */
  pendingKinds: Set<UpstreamChange>;
  refreshing: boolean;
  lastRefreshAt: number;
  /** The era probe's verdict kept across reconnects (connection.ts). */
  eraMemo: EraMemo;
}

/** Creates the supervisor over the configured upstreams. */
export function createSupervisor(options: SupervisorOptions): Supervisor {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const entries = new Map<string, Entry>();
  let closed = false;
  // Closing ends the connects in flight too; close() waits for them, so no process they started outlives it.
  const closing = new AbortController();
  const connecting = new Set<Promise<unknown>>();
  const watchdog = createOrphanWatchdog();

  for (const config of options.upstreams) {
    let resolveFirstAttempt = () => {};
    const firstAttempt = new Promise<void>((resolve) => (resolveFirstAttempt = resolve));
    entries.set(config.id, {
      config,
      snapshot: {
        id: config.id,
        transport: config.transport,
        state: config.enabled ? 'connecting' : 'disabled',
        tools: [],
        prompts: [],
        resources: [],
        resourceTemplates: [],
        attempts: 0,
      },
      connection: undefined,
      timer: undefined,
      firstAttempt,
      resolveFirstAttempt,
      generation: 0,
      pendingKinds: new Set(),
      refreshing: false,
      lastRefreshAt: Number.NEGATIVE_INFINITY,
      eraMemo: { legacy: false },
    });
    if (!config.enabled) resolveFirstAttempt();
  }

  const setSnapshot = (entry: Entry, patch: Partial<UpstreamSnapshot>, change: UpstreamChange) => {
    entry.snapshot = { ...entry.snapshot, ...patch };
    options.onChange(entry.config.id, change);
  };

  const scheduleReconnect = (entry: Entry) => {
    if (closed || entry.timer) return;
    const delay = (options.reconnectDelay ?? reconnectDelayMs)(entry.snapshot.attempts);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void attempt(entry);
    }, delay);
    entry.timer.unref();
  };

  const markDown = (entry: Entry, reason: string) => {
    if (closed) return;
    const wasUp = entry.connection !== undefined;
    entry.connection = undefined;
    const connectedAt = entry.snapshot.connectedAt;
    const stable = wasUp && connectedAt !== undefined && now() - connectedAt >= STABLE_CONNECTION_MS;
    setSnapshot(
      entry,
      {
        state: 'down',
        lastError: reason,
        tools: [],
        rejectedTools: [],
        prompts: [],
        resources: [],
        resourceTemplates: [],
        ...(stable ? { attempts: 0 } : {}),
      },
      'state',
    );
    // warn: an upstream the operator configured is not serving; its stderr usually says why.
    log(
      'upstream.down',
      {
        upstream: entry.config.id,
        reason,
        attempts: entry.snapshot.attempts,
        ...(entry.snapshot.lastStderr?.length ? { stderr: entry.snapshot.lastStderr } : {}),
      },
      'warn',
    );
    scheduleReconnect(entry);
  };

  /**
   * Re-fetches the lists after a list_changed. Per upstream at most one fetch is in flight and one pending (the
   * kinds of every notification that arrived meanwhile), and fetches start at least REFRESH_SPACING_MS apart, so
   * an upstream flooding notifications costs about one fetch a second, whatever it sends.
   */
  const refresh = (entry: Entry, change: UpstreamChange) => {
    entry.pendingKinds.add(change);
    if (entry.refreshing) return;
    entry.refreshing = true;
    void (async () => {
      try {
        while (entry.pendingKinds.size > 0 && !closed) {
          const wait = entry.lastRefreshAt + REFRESH_SPACING_MS - now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
          const connection = entry.connection;
          if (!connection) break;
          const kinds = [...entry.pendingKinds];
          entry.pendingKinds.clear();
          entry.lastRefreshAt = now();
          try {
            const lists = await connection.fetchLists();
            if (entry.connection !== connection) break;
            reportRejected(entry, lists.rejectedTools);
            entry.snapshot = { ...entry.snapshot, ...lists };
            for (const kind of kinds) options.onChange(entry.config.id, kind);
          } catch (error) {
            log('upstream.list_failed', { upstream: entry.config.id, error: describeError(error) });
          }
        }
      } finally {
        entry.pendingKinds.clear();
        entry.refreshing = false;
      }
    })();
  };

  /** Logs each newly held-back tool once (warn: the operator's server lost a tool). */
  const reportRejected = (entry: Entry, rejected: UpstreamSnapshot['rejectedTools']) => {
    const before = new Set((entry.snapshot.rejectedTools ?? []).map((r) => `${r.name}\n${r.reason}`));
    for (const { name, reason } of rejected ?? []) {
      if (before.has(`${name}\n${reason}`)) continue;
      log('upstream.tool_rejected', { upstream: entry.config.id, tool: name, reason }, 'warn');
    }
  };

  /** The transport context of one attempt: the child's stderr goes to this attempt's tail and the log. */
  const transportFor = (entry: Entry, generation: number): TransportContext => {
    const tail = createStderrTail();
    let windowStart = now();
    let inWindow = 0;
    let dropped = 0;
    return {
      ...options.transport,
      watchdog,
      onStderr: (line) => {
        tail.push(line);
        if (entry.generation === generation) entry.snapshot.lastStderr = tail.lines();
        options.transport.onStderr?.(line);
        const at = now();
        if (at - windowStart >= 1_000) {
          if (dropped > 0) {
            log('upstream.stderr_dropped', { upstream: entry.config.id, dropped }, 'warn');
          }
          windowStart = at;
          inWindow = 0;
          dropped = 0;
        }
        inWindow += 1;
        if (inWindow > STDERR_LOG_LINES_PER_SECOND) dropped += 1;
        else log('upstream.stderr', { upstream: entry.config.id, line }, 'debug');
      },
    };
  };

  async function attempt(entry: Entry): Promise<void> {
    if (closed) return;
    const generation = ++entry.generation;
    entry.snapshot = {
      ...entry.snapshot,
      state: 'connecting',
      attempts: entry.snapshot.attempts + 1,
      ...(entry.config.transport === 'stdio' ? { lastStderr: [] } : {}),
    };
    // Assigned only once connectUpstream resolves: the child can exit, or the connect timeout close the client,
    // before that, and onClose must then leave the failure to the rejected connect (reported once, below).
    let connection: UpstreamConnection | undefined;
    try {
      const connect = connectUpstream(
        entry.config,
        transportFor(entry, generation),
        {
          onClose: (error) => {
            if (
              connection !== undefined &&
              entry.generation === generation &&
              entry.connection === connection
            ) {
              markDown(entry, error ? `upstream "${entry.config.id}" ${error.message}` : 'connection closed');
            }
          },
          onListChanged: (kind) => refresh(entry, kind),
          onClientRequestDeclined: (reason, request) =>
            options.onClientRequestDeclined?.(entry.config.id, reason, request),
          onResourceUpdated: (uri) => options.onResourceUpdated?.(entry.config.id, uri),
          onSubscriptionLost: (uri, error) =>
            options.log?.('upstream.subscription_lost', {
              upstream: entry.config.id,
              uri,
              error: error.message,
            }),
          onSubscriptionRestored: (uri) =>
            options.log?.('upstream.subscription_restored', { upstream: entry.config.id, uri }),
          onBackgroundFailure: (request, message) =>
            options.log?.(
              'upstream.background_request_failed',
              { upstream: entry.config.id, request, error: message },
              'warn',
            ),
        },
        entry.config.connectTimeoutMs ?? options.connectTimeoutMs,
        entry.eraMemo,
        closing.signal,
      );
      connecting.add(connect);
      try {
        connection = await connect;
      } finally {
        connecting.delete(connect);
      }
      if (closed || generation !== entry.generation) {
        await connection.close();
        return;
      }
      const lists = await connection.fetchLists();
      reportRejected(entry, lists.rejectedTools);
      entry.connection = connection;
      const at = now();
      if (connection.instructions === undefined) {
        // A reconnected server that no longer sends instructions must not keep the old ones.
        const { instructions: _previous, ...rest } = entry.snapshot;
        entry.snapshot = rest;
      }
      setSnapshot(
        entry,
        {
          state: 'connected',
          era: connection.era,
          ...(connection.protocolVersion === undefined
            ? {}
            : { protocolVersion: connection.protocolVersion }),
          ...(connection.serverInfo === undefined ? {} : { serverInfo: connection.serverInfo }),
          ...(connection.instructions === undefined ? {} : { instructions: connection.instructions }),
          connectedAt: at,
          ...lists,
        },
        'state',
      );
      delete entry.snapshot.lastError;
      options.onConnected?.(entry.config.id, at);
      log('upstream.connected', {
        upstream: entry.config.id,
        era: connection.era,
        protocolVersion: connection.protocolVersion,
        tools: lists.tools.length,
      });
    } catch (error) {
      // A link that connected but failed later (its lists refused) is closed here, or its child would live on.
      if (connection !== undefined && entry.connection !== connection) void connection.close();
      if (generation === entry.generation) markDown(entry, describeError(error));
    } finally {
      entry.resolveFirstAttempt();
    }
  }

  /** A call or probe found the connection unusable: drop it and reconnect (once per connection). */
  const connectionFailed = (entry: Entry, connection: UpstreamConnection, error: unknown) => {
    if (entry.connection !== connection) return;
    void connection.close();
    markDown(entry, describeError(error));
  };

  const guarded = async <T>(id: string, run: (connection: UpstreamConnection) => Promise<T>): Promise<T> => {
    const { entry, connection } = connected(id);
    try {
      return await run(connection);
    } catch (error) {
      if (error instanceof PortcullisError && error.code === 'UPSTREAM_UNAVAILABLE')
        connectionFailed(entry, connection, error);
      throw error;
    }
  };

  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => {
          for (const entry of entries.values()) {
            const connection = entry.connection;
            if (!connection || entry.config.transport === 'stdio') continue;
            connection
              .probe(Math.min(10_000, heartbeatMs))
              .catch((error: unknown) => connectionFailed(entry, connection, error));
          }
        }, heartbeatMs)
      : undefined;
  heartbeat?.unref();

  const connected = (id: string): { entry: Entry; connection: UpstreamConnection } => {
    const entry = entries.get(id);
    if (!entry) throw new PortcullisError('UPSTREAM_UNAVAILABLE', `upstream "${id}" is not configured`);
    if (!entry.connection) {
      const why = entry.snapshot.state === 'disabled' ? 'is disabled' : `is ${entry.snapshot.state}`;
      const last = entry.snapshot.lastError ? ` (last error: ${entry.snapshot.lastError})` : '';
      throw new PortcullisError(
        'UPSTREAM_UNAVAILABLE',
        `upstream "${id}" ${why}${last}; its tools are unavailable until it reconnects`,
        { details: { upstream: id, state: entry.snapshot.state } },
      );
    }
    return { entry, connection: entry.connection };
  };

  return {
    start() {
      for (const entry of entries.values()) if (entry.config.enabled) void attempt(entry);
    },
    async settled(timeoutMs = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([...entries.values()].map((e) => e.firstAttempt)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
    snapshot: (id) => entries.get(id)?.snapshot,
    snapshots: () => [...entries.values()].map((e) => e.snapshot),
    callTool: (id, tool, args, callOptions) => guarded(id, (c) => c.callTool(tool, args, callOptions)),
    getPrompt: (id, name, args, options) => guarded(id, (c) => c.getPrompt(name, args, options)),
    readResource: (id, uri, signal) => guarded(id, (c) => c.readResource(uri, signal)),
    complete: (id, params, signal) => guarded(id, (c) => c.complete(params, signal)),
    subscribeResource: (id, uri) => guarded(id, (c) => c.subscribeResource(uri)),
    unsubscribeResource: (id, uri) => guarded(id, (c) => c.unsubscribeResource(uri)),
    reconnect(id) {
      const entry = entries.get(id);
      if (!entry || !entry.config.enabled) return;
      const connection = entry.connection;
      entry.connection = undefined;
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = undefined;
      void connection?.close();
      void attempt(entry);
    },
    async close() {
      closed = true;
      closing.abort();
      if (heartbeat) clearInterval(heartbeat);
      await Promise.allSettled([...connecting]);
      await Promise.all(
        [...entries.values()].map(async (entry) => {
          if (entry.timer) clearTimeout(entry.timer);
          await entry.connection?.close();
          entry.connection = undefined;
        }),
      );
      watchdog.close();
    },
  };
}
