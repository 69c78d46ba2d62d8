/**
 * Who is asking, for every console route: an admin credential in `Authorization` (scripted checks), else the
 * session cookie, else (loopback mode, no admin key exists) whatever the admin access decision grants this peer.
 * The decision itself is the admin API's (http/admin-access.ts): the console asks it as for a read, because its
 * own writes are guarded by the same-origin check and the session's CSRF token instead of the JSON-only rule.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AdminRole } from '../config/index.ts';
import type { AdminAccess, AdminRequestFacts } from '../http/index.ts';
import type { ConsoleSession, ConsoleSessions } from './sessions.ts';

/** The session cookie's name. */
export const SESSION_COOKIE = 'portcullis_console';

/** Who a console request acts as. */
export interface ConsoleUser {
  actor: string;
  role: AdminRole;
  /** What the admin API is called with on this user's behalf (null in loopback mode). */
  authorization: string | null;
  /** The session, when the request came with one (Bearer requests have none and cannot write). */
  session: ConsoleSession | null;
}

/** The outcome of resolving a request: a user, or the refusal to answer with. */
export type DoorResult =
  { ok: true; user: ConsoleUser } | { ok: false; status: 401 | 403 | 415; message: string };

/** What the door needs from the gateway. */
export interface DoorDeps {
  access: Pick<AdminAccess, 'mode' | 'decide'>;
  factsOf(c: Context): AdminRequestFacts;
  sessions: ConsoleSessions;
}

/** The admin decision for `authorization`, asked as a read from this request's peer and page. */
export function decideAsRead(deps: DoorDeps, c: Context, authorization: string | null) {
  return deps.access.decide({ ...deps.factsOf(c), method: 'GET', contentType: null, authorization });
}

/** Sets the session cookie: HttpOnly, SameSite=Strict, scoped to /console, Secure over https. */
export function setSessionCookie(c: Context, id: string, maxAgeSeconds: number): void {
  setCookie(c, SESSION_COOKIE, id, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/console',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: maxAgeSeconds,
  });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/console' });
}

/** The session id the request carries, if any. */
export function sessionIdOf(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/** Resolves who is asking; in loopback mode a first visit that the decision admits opens a session. */
export function resolveUser(deps: DoorDeps, c: Context, maxAgeSeconds: number): DoorResult {
  const authorization = c.req.header('authorization') ?? null;
  if (authorization !== null) {
    const decision = decideAsRead(deps, c, authorization);
    return decision.ok
      ? { ok: true, user: { actor: decision.actor, role: decision.role, authorization, session: null } }
      : { ok: false, status: decision.status, message: decision.message };
  }
  const session = deps.sessions.touch(sessionIdOf(c));
  if (session !== undefined) {
    return {
      ok: true,
      user: { actor: session.actor, role: session.role, authorization: session.authorization, session },
    };
  }
  if (deps.access.mode === 'loopback') {
    const decision = decideAsRead(deps, c, null);
    if (!decision.ok) return { ok: false, status: decision.status, message: decision.message };
    const opened = deps.sessions.open({ actor: decision.actor, role: decision.role, authorization: null });
    setSessionCookie(c, opened.id, maxAgeSeconds);
    return {
      ok: true,
      user: { actor: decision.actor, role: decision.role, authorization: null, session: opened.session },
    };
  }
  return { ok: false, status: 401, message: 'Sign in with an admin key to use the console.' };
}
