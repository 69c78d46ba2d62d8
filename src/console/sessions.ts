/**
 * Console sign-in sessions, held in this process only: a random id (the cookie) maps to the signed-in actor, role,
 * the credential the console presents to the admin API on their behalf, and the CSRF token bound to the session.
 * A session ends on sign-out, after `idleMs` without a request, or `absoluteMs` after sign-in, whichever is first.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AdminRole } from '../config/index.ts';

/** One signed-in browser. */
export interface ConsoleSession {
  readonly actor: string;
  readonly role: AdminRole;
  /** The `Authorization` header the admin API is called with; null in loopback mode (no key exists). */
  readonly authorization: string | null;
  /** The synchronizer token every form of this session carries. */
  readonly csrf: string;
  readonly createdAt: number;
  lastSeenAt: number;
}

/** The sessions of one console. */
export interface ConsoleSessions {
  /** Starts a session; returns its id (the cookie value). */
  open(grant: { actor: string; role: AdminRole; authorization: string | null }): {
    id: string;
    session: ConsoleSession;
  };
  /** The live session of an id (its idle clock restarts), or undefined (unknown, expired, or ended). */
  touch(id: string | undefined): ConsoleSession | undefined;
  /** Ends a session. */
  close(id: string | undefined): void;
  /** True when `token` is the session's CSRF token (constant time). */
  csrfMatches(session: ConsoleSession, token: unknown): boolean;
}

/** Options of the session store. */
export interface SessionOptions {
  now(): number;
  idleMs: number;
  absoluteMs: number;
  /** Oldest sessions are dropped beyond this many. */
  max: number;
}

/** Defaults: 30 minutes idle, 12 hours at most, 1000 sessions. */
export const SESSION_DEFAULTS = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, max: 1000 } as const;

const token = () => randomBytes(32).toString('base64url');
const digest = (text: string) => createHash('sha256').update(text).digest();

/** Creates an empty session store. */
export function createSessions(options: SessionOptions): ConsoleSessions {
  // Keyed by the id's digest, so the map never holds the cookie value itself.
  const sessions = new Map<string, ConsoleSession>();
  const keyOf = (id: string) => digest(id).toString('hex');
  const expired = (s: ConsoleSession, now: number) =>
    now - s.lastSeenAt >= options.idleMs || now - s.createdAt >= options.absoluteMs;

  return {
    open(grant) {
      const now = options.now();
      for (const [key, s] of sessions) if (expired(s, now)) sessions.delete(key);
      while (sessions.size >= options.max) {
        const oldest = sessions.keys().next();
        if (oldest.done === true) break;
        sessions.delete(oldest.value);
      }
      const id = token();
      const session: ConsoleSession = { ...grant, csrf: token(), createdAt: now, lastSeenAt: now };
      sessions.set(keyOf(id), session);
      return { id, session };
    },
    touch(id) {
      if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
      const key = keyOf(id);
      const session = sessions.get(key);
      if (session === undefined) return undefined;
      const now = options.now();
      if (expired(session, now)) {
        sessions.delete(key);
        return undefined;
      }
      session.lastSeenAt = now;
      return session;
    },
    close(id) {
      if (id !== undefined) sessions.delete(keyOf(id));
    },
    csrfMatches(session, presented) {
      return typeof presented === 'string' && timingSafeEqual(digest(presented), digest(session.csrf));
    },
  };
}
