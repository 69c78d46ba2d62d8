/**
 * The admin API's own door (after the Host check): admin credentials and roles, browser-page refusal, JSON-only
 * capped writes, and the audit record of every admin action with its actor, target and reason.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { adminActionInput, type AdminAction, type AuditLog } from '../audit/index.ts';
import type { AdminRole } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { roleAllows, type AdminAccess, type AdminGrant } from './admin-access.ts';

/** The largest admin request body; admin writes are small JSON objects. */
export const ADMIN_MAX_BODY_BYTES = 64 * 1024;

/** Hono variables the guard sets for the admin routes. */
export interface AdminVariables {
  admin: AdminGrant;
}

/** An admin route's context. */
export type AdminContext = Context<{ Variables: AdminVariables }>;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

function peerIsLoopback(c: Context): boolean {
  try {
    const address = getConnInfo(c).remote.address;
    return address !== undefined && LOOPBACK.test(address);
  } catch {
    // No socket to read (the app was called without a server): unknown counts as not loopback.
    return false;
  }
}

function selfOrigin(request: Request): string {
  const url = new URL(request.url);
  return `${url.protocol}//${request.headers.get('host') ?? url.host}`;
}

/** Admits a request to the admin routes or answers it with the refusal; sets `admin` for the routes. */
export function adminGuard(access: AdminAccess): MiddlewareHandler<{ Variables: AdminVariables }> {
  const limit = bodyLimit({
    maxSize: ADMIN_MAX_BODY_BYTES,
    onError: (c) =>
      c.json(
        {
          error: {
            code: 'BODY_TOO_LARGE',
            message: `admin request bodies are capped at ${ADMIN_MAX_BODY_BYTES} bytes`,
          },
        },
        413,
      ),
  });
  return async (c, next) => {
    const request = c.req.raw;
    const decision = access.decide({
      method: request.method,
      authorization: request.headers.get('authorization'),
      origin: request.headers.get('origin'),
      secFetchSite: request.headers.get('sec-fetch-site'),
      selfOrigin: selfOrigin(request),
      contentType: request.headers.get('content-type'),
      fromLoopback: peerIsLoopback(c),
    });
    if (!decision.ok) {
      const headers: Record<string, string> =
        decision.status === 401 ? { 'www-authenticate': 'Bearer realm="portcullis-admin"' } : {};
      return c.json({ error: { code: decision.code, message: decision.message } }, decision.status, headers);
    }
    c.set('admin', decision);
    return limit(c, next);
  };
}

/** Refuses the request (FORBIDDEN) unless the caller's role includes `needed`. */
export function requireRole(c: AdminContext, needed: AdminRole): void {
  const grant = c.get('admin');
  if (!roleAllows(grant.role, needed)) {
    throw new PortcullisError(
      'FORBIDDEN',
      `Forbidden: this needs the ${needed} role; ${grant.actor} has the ${grant.role} role`,
    );
  }
}

/** Appends the audit record of an admin action (durable on return); the actor comes from the guard. */
export function recordAdminAction(
  audit: AuditLog,
  c: AdminContext,
  action: Omit<AdminAction, 'actor'>,
): void {
  audit.append(adminActionInput({ ...action, actor: c.get('admin').actor }));
}
