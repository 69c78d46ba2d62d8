/**
 * The admin API's own door (after the Host check): admin credentials and roles, browser-page refusal, JSON-only
 * capped writes, and the audit record of every admin action with its actor, target and reason.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { adminActionInput, type AdminAction, type AuditLog } from '../audit/index.ts';
import { clientKeyOf, type SignInLimiter } from '../console/index.ts';
import type { AdminRole } from '../config/index.ts';
import { isPortcullisError, PortcullisError } from '../errors/index.ts';
import { roleAllows, type AdminAccess, type AdminGrant, type AdminRequestFacts } from './admin-access.ts';

/** The largest admin request body; admin writes are small JSON objects. */
export const ADMIN_MAX_BODY_BYTES = 64 * 1024;

/** Hono variables the guard sets for the admin routes. */
export interface AdminVariables {
  admin: AdminGrant;
}

/** An admin route's context. */
export type AdminContext = Context<{ Variables: AdminVariables }>;

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** The peer's socket address; undefined when unknown (the app was called without a server). */
export function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

function peerIsLoopback(c: Context): boolean {
  // Unknown counts as not loopback.
  const address = peerAddress(c);
  return address !== undefined && LOOPBACK.test(address);
}

function selfOrigin(request: Request): string {
  const url = new URL(request.url);
  return `${url.protocol}//${request.headers.get('host') ?? url.host}`;
}

/** The facts of a request that the admin access decision reads (the console decides with them too). */
export function adminRequestFacts(c: Context): AdminRequestFacts {
  const request = c.req.raw;
  return {
    method: request.method,
    authorization: request.headers.get('authorization'),
    origin: request.headers.get('origin'),
    secFetchSite: request.headers.get('sec-fetch-site'),
    selfOrigin: selfOrigin(request),
    contentType: request.headers.get('content-type'),
    fromLoopback: peerIsLoopback(c),
  };
}

/** The limit on failed admin credentials per client address, and where reaching it is logged. */
export interface CredentialFailureLimit {
  limiter: SignInLimiter;
  /** Told once per window when a client reaches the limit. */
  onLimited?(client: string): void;
}

/**
 * Admits a request to the admin routes or answers it with the refusal; sets `admin` for the routes. With
 * `failures`, a client address that presented too many refused credentials is answered 429 before its next
 * credential is read, like a console sign-in.
 */
export function adminGuard(
  access: AdminAccess,
  failures?: CredentialFailureLimit,
): MiddlewareHandler<{ Variables: AdminVariables }> {
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
    const authorization = c.req.raw.headers.get('authorization');
    const client = clientKeyOf(peerAddress(c));
    const wait = authorization === null || !failures ? 0 : failures.limiter.retryAfter(client);
    if (wait > 0) {
      const message =
        `too many refused admin credentials from your address; wait ${wait} s (Retry-After), then present a ` +
        'key from admin.keys again; other addresses are not affected';
      return c.json({ error: { code: 'SIGN_IN_RATE_LIMITED', message } }, 429, {
        'retry-after': String(wait),
      });
    }
    const principal = await access.identify(authorization);
    const decision = access.decide({
      ...adminRequestFacts(c),
      ...(principal === undefined ? {} : { principal }),
    });
    if (!decision.ok) {
      if (decision.status === 401 && authorization !== null && failures?.limiter.failed(client))
        failures.onLimited?.(client);
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

/** What an audited admin action does: its name, the role it needs, its target, and the work itself. */
export interface AuditedActionSpec {
  action: string;
  role: AdminRole;
  targetOf(input: Record<string, unknown>, c: AdminContext): string | null;
  /** Does the work and returns the JSON answer; throws a PortcullisError to refuse. */
  run(input: Record<string, unknown>, c: AdminContext): unknown;
}

/**
 * A route handler for an admin write: reads the JSON body (empty allowed), checks the role, runs the action and
 * writes its audit record whatever happens (a refusal for lack of role is recorded too), then answers or rethrows.
 */
export function auditedAction(
  deps: { audit: AuditLog; now(): number },
  spec: AuditedActionSpec,
): (c: AdminContext) => Promise<Response> {
  return async (c) => {
    const startedAt = deps.now();
    const input = await readJsonObject(c);
    const reason = typeof input.reason === 'string' && input.reason.trim() !== '' ? input.reason : null;
    const record = (outcome: 'OK' | 'ERROR', errorCode?: string) =>
      recordAdminAction(deps.audit, c, {
        action: spec.action,
        target: spec.targetOf(input, c),
        reason,
        body: input,
        outcome,
        durationMs: deps.now() - startedAt,
        ...(errorCode === undefined ? {} : { errorCode }),
      });
    try {
      requireRole(c, spec.role);
      const result = spec.run(input, c);
      record('OK');
      return c.json(result as object);
    } catch (error) {
      record('ERROR', isPortcullisError(error) ? error.code : 'INTERNAL');
      throw error;
    }
  };
}

/** The request body as a JSON object; an empty body is `{}`. */
async function readJsonObject(c: AdminContext): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PortcullisError('PARSE_ERROR', 'the body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PortcullisError('INVALID_INPUT', 'the body must be a JSON object');
  return value as Record<string, unknown>;
}
