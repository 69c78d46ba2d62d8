/**
 * Sessionful Streamable HTTP for 2025-era ("legacy") clients: one gateway transport (legacy-transport.ts) and one
 * downstream server per session, bound to the principal and the profile that opened it, closed after an idle timeout; an unknown session
 * id gets 404.
 */
import { randomUUID } from 'node:crypto';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { LegacyServer } from '../downstream/index.ts';
import type { Profile } from '../exposure/index.ts';
import type { Principal } from '../identity/index.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import { LEGACY_KEEP_ALIVE_MS, LegacySessionTransport } from './legacy-transport.ts';

/** Who opens or uses a session, and through which profile. */
export interface SessionCaller {
  principal: Principal;
  profile: Pick<Profile, 'name'>;
}

interface Session {
  id: string;
  principal: string;
  profile: string;
  transport: LegacySessionTransport;
  server: LegacyServer;
  lastSeen: number;
  active: number;
}

/** Options of the session table. */
export interface LegacySessionOptions<C extends SessionCaller = SessionCaller> {
  createServer(caller: C, sessionId: string): LegacyServer;
  idleTimeoutMs: number;
  maxSessions: number;
  /** Open sessions one principal may hold; keeps one client from taking every slot of `maxSessions`. */
  maxSessionsPerPrincipal: number;
  now?: () => number;
  /**
   * Runs a sweep (idle sessions; answers pending past a keep-alive interval) every `ms` until the returned stop is
   * called; a repeating, unref'd timer by default.
   */
  every?(run: () => void, ms: number): () => void;
  log?(event: string, fields: Record<string, unknown>): void;
}

/** The legacy session table. */
export interface LegacySessions<C extends SessionCaller = SessionCaller> {
  handle(request: Request, parsedBody: unknown, caller: C): Promise<Response>;
  /** Tells every open session that a list changed. */
  notify(kind: 'tools' | 'prompts' | 'resources'): void;
  readonly size: number;
  close(): Promise<void>;
}

const everyUnref = (run: () => void, ms: number): (() => void) => {
  const timer = setInterval(run, ms);
  timer.unref();
  return () => clearInterval(timer);
};

const hasInitialize = (body: unknown) =>
  Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);

/** Creates the table, its idle sweeper and the keep-alive sweep of its sessions. */
export function createLegacySessions<C extends SessionCaller>(
  options: LegacySessionOptions<C>,
): LegacySessions<C> {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  const perPrincipal = new Map<string, number>();

  const closeSession = async (session: Session, reason: string) => {
    if (!sessions.delete(session.id)) return;
    const held = (perPrincipal.get(session.principal) ?? 1) - 1;
    if (held > 0) perPrincipal.set(session.principal, held);
    else perPrincipal.delete(session.principal);
    options.log?.('session.closed', { session: session.id, reason });
    const failed = (part: string) => (error: unknown) =>
      options.log?.('session.close_failed', {
        session: session.id,
        part,
        error: error instanceof Error ? error.message : String(error),
      });
    await session.transport.close().catch(failed('transport'));
    await session.server.close().catch(failed('server'));
  };

  const stopSweeper = (options.every ?? everyUnref)(
    () => {
      const cutoff = now() - options.idleTimeoutMs;
      for (const session of sessions.values()) {
        if (session.active === 0 && session.lastSeen < cutoff) void closeSession(session, 'idle');
      }
    },
    Math.max(250, Math.min(60_000, Math.floor(options.idleTimeoutMs / 4))),
  );

  // One keep-alive sweep for every session instead of a timer in each (an idle session holds no timer).
  const stopKeepAlive = (options.every ?? everyUnref)(() => {
    for (const session of sessions.values()) session.transport.sweepPending();
  }, LEGACY_KEEP_ALIVE_MS);

  const run = async (session: Session, request: Request, parsedBody: unknown) => {
    session.active += 1;
    session.lastSeen = now();
    try {
      return await session.transport.handleRequest(request, parsedBody);
    } finally {
      session.active -= 1;
      session.lastSeen = now();
    }
  };

  return {
    async handle(request, parsedBody, caller) {
      const principal = caller.principal.id;
      const profile = caller.profile.name;
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId) {
        const session = sessions.get(sessionId);
        // A session presented by another principal, or on another profile's endpoint, is reported as unknown: it
        // does not exist for that caller there.
        if (!session || session.principal !== principal || session.profile !== profile) {
          return jsonRpcError(
            404,
            JSON_RPC.INVALID_REQUEST,
            'SESSION_NOT_FOUND',
            'Session not found: it expired or never existed; send initialize to start a new session',
          );
        }
        if (request.method === 'DELETE') {
          const response = await run(session, request, parsedBody);
          void closeSession(session, 'deleted');
          return response;
        }
        return run(session, request, parsedBody);
      }
      if (request.method !== 'POST' || !hasInitialize(parsedBody)) {
        return jsonRpcError(
          400,
          JSON_RPC.INVALID_REQUEST,
          'INVALID_REQUEST',
          'Bad Request: no Mcp-Session-Id header; a 2025-era session starts with initialize',
        );
      }
      if (sessions.size >= options.maxSessions) {
        return jsonRpcError(
          503,
          JSON_RPC.INTERNAL_ERROR,
          'TOO_MANY_SESSIONS',
          'too many open sessions on this gateway; retry later',
          { 'retry-after': '5' },
        );
      }
      if ((perPrincipal.get(principal) ?? 0) >= options.maxSessionsPerPrincipal) {
        options.log?.('session.quota_reached', { principal, limit: options.maxSessionsPerPrincipal });
        return jsonRpcError(
          429,
          JSON_RPC.INTERNAL_ERROR,
          'TOO_MANY_SESSIONS',
          `this caller already holds ${options.maxSessionsPerPrincipal} open sessions (http.maxSessionsPerPrincipal); ` +
            'close unused ones with DELETE or wait for them to go idle',
          { 'retry-after': '5' },
        );
      }
      const id = randomUUID();
      const transport = new LegacySessionTransport(id, LEGACY_KEEP_ALIVE_MS, false);
      const server = options.createServer(caller, id);
      const session: Session = { id, principal, profile, transport, server, lastSeen: now(), active: 0 };
      transport.onclose = () => void closeSession(session, 'transport closed');
      await server.connect(transport);
      sessions.set(id, session);
      perPrincipal.set(principal, (perPrincipal.get(principal) ?? 0) + 1);
      options.log?.('session.opened', { session: id, principal, profile });
      const response = await run(session, request, parsedBody);
      if (response.status >= 400) void closeSession(session, 'initialize failed');
      return response;
    },
    notify(kind) {
      for (const session of sessions.values()) {
        const send =
          kind === 'tools'
            ? session.server.sendToolListChanged()
            : kind === 'prompts'
              ? session.server.sendPromptListChanged()
              : session.server.sendResourceListChanged();
        // A session whose client went away cannot hear of the change; its transport closes it on its own.
        void Promise.resolve(send).catch(() => {});
      }
    },
    get size() {
      return sessions.size;
    },
    async close() {
      stopSweeper();
      stopKeepAlive();
      await Promise.all([...sessions.values()].map((s) => closeSession(s, 'shutdown')));
    },
  };
}
