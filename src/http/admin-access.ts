/**
 * Who may use the admin API, decided per request from plain facts: the admin keys and their roles, the roles
 * granted to OAuth principals by group or scope, the /mcp keys (admin access from loopback only while no admin
 * credential is configured), and whether the request comes from a browser page.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminKeyConfig, AdminOAuthConfig, AdminRole } from '../config/index.ts';
import { PortcullisError, type ErrorCode } from '../errors/index.ts';
import type { Principal } from '../identity/index.ts';

/** The facts of one admin request that the decision reads. */
export interface AdminRequestFacts {
  method: string;
  authorization: string | null;
  /** The Origin header, if any (browsers send it on every write). */
  origin: string | null;
  /** The Sec-Fetch-Site header, if any (browsers send it; other clients do not). */
  secFetchSite: string | null;
  /** The request's own origin, `scheme://host[:port]` from its URL and Host header. */
  selfOrigin: string;
  contentType: string | null;
  /** True when the peer address is a loopback address; false when unknown. */
  fromLoopback: boolean;
  /** The OAuth principal of the bearer token, when it is a valid access token (see AdminAccess.identify). */
  principal?: Principal;
}

/** Admitted: the actor written to the audit log and its role. */
export interface AdminGrant {
  ok: true;
  actor: string;
  role: AdminRole;
}

/** Refused, with what the caller is told. */
export interface AdminRefusal {
  ok: false;
  status: 401 | 403 | 415;
  code: ErrorCode;
  message: string;
}

/**
 * How admin access is granted: named admin keys (and OAuth roles, if any), OAuth roles alone, the /mcp keys from
 * loopback, or loopback alone.
 */
export type AdminAccessMode = 'admin-keys' | 'admin-oauth' | 'api-keys' | 'loopback';

/** The compiled admin access policy. */
export interface AdminAccess {
  readonly mode: AdminAccessMode;
  /**
   * The OAuth principal of a bearer token, for `facts.principal`; never asks for an admin key (which is not
   * an OAuth token and must not reach the authorization server), nor when no OAuth role is configured.
   */
  identify(authorization: string | null): Promise<Principal | undefined>;
  decide(facts: AdminRequestFacts): AdminGrant | AdminRefusal;
}

const ROLE_RANK: Record<AdminRole, number> = { viewer: 0, operator: 1, admin: 2 };

/** The highest role the configured grants give this principal, if any: one matching group or scope suffices. */
export function oauthRole(principal: Principal, grants: AdminOAuthConfig): AdminRole | undefined {
  if (principal.source !== 'oauth') return undefined;
  const groups = new Set(principal.groups);
  const scopes = new Set(principal.scopes);
  const roles: AdminRole[] = ['admin', 'operator', 'viewer'];
  return roles.find((role) => {
    const grant = grants.roles[role];
    return (
      grant !== undefined &&
      (grant.groups.some((g) => groups.has(g)) || grant.scopes.some((s) => scopes.has(s)))
    );
  });
}

/** True when `role` includes what `needed` may do. */
export function roleAllows(role: AdminRole, needed: AdminRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[needed];
}

const digest = (text: string) => createHash('sha256').update(text).digest();
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const refuse = (status: AdminRefusal['status'], code: ErrorCode, message: string): AdminRefusal => ({
  ok: false,
  status,
  code,
  message,
});

/**
 * Compiles the policy. An admin key equal to a /mcp key is a configuration error: holding the one would grant
 * the other. `apiKeyPrincipal` maps a /mcp key to its principal (used as the actor in `api-keys` mode).
 */
export function createAdminAccess(options: {
  adminKeys: readonly AdminKeyConfig[];
  apiKeys: readonly string[];
  allowedOrigins: readonly string[];
  apiKeyPrincipal(authorization: string | null): string | undefined;
  /** Roles for OAuth principals, and how to read the OAuth principal of a bearer token. */
  oauth?: {
    roles: AdminOAuthConfig;
    principal(authorization: string | null): Promise<Principal | undefined>;
  };
}): AdminAccess {
  const adminKeys = options.adminKeys.map((k) => ({ digest: digest(k.key), name: k.name, role: k.role }));
  const apiDigests = options.apiKeys.map(digest);
  if (adminKeys.some((k) => apiDigests.some((d) => timingSafeEqual(d, k.digest)))) {
    throw new PortcullisError(
      'CONFIG_INVALID',
      'invalid configuration: an admin.keys key is also listed in auth.apiKeys; give the admin API keys of its own',
    );
  }
  const oauth = options.oauth;
  const mode: AdminAccessMode =
    adminKeys.length > 0
      ? 'admin-keys'
      : oauth
        ? 'admin-oauth'
        : options.apiKeys.length > 0
          ? 'api-keys'
          : 'loopback';
  const adminKeyGrant = (authorization: string | null): AdminGrant | undefined => {
    const match = /^Bearer[ ]+(.+)$/i.exec(authorization ?? '');
    const presented = match ? digest((match[1] as string).trim()) : undefined;
    let grant: AdminGrant | undefined;
    // Compare against every key whatever matches, so the time taken does not tell which key is close.
    for (const key of adminKeys) {
      if (presented && timingSafeEqual(key.digest, presented))
        grant = { ok: true, actor: `admin:${key.name}`, role: key.role };
    }
    return grant;
  };
  const allowedOrigins = new Set(options.allowedOrigins.map((o) => o.toLowerCase()));

  const browserRefusal = (facts: AdminRequestFacts): AdminRefusal | undefined => {
    const origin = facts.origin?.toLowerCase();
    const site = facts.secFetchSite?.toLowerCase();
    const sameOrigin = origin === facts.selfOrigin.toLowerCase() || site === 'same-origin';
    const crossSite = (origin !== undefined && !sameOrigin) || site === 'cross-site' || site === 'same-site';
    if (!crossSite) return undefined;
    if (mode !== 'loopback' && origin !== undefined && allowedOrigins.has(origin)) return undefined;
    return refuse(
      403,
      'FORBIDDEN_ORIGIN',
      mode === 'loopback'
        ? 'Forbidden: with no admin keys the admin API answers only non-browser clients on loopback'
        : 'Forbidden: the admin API refuses browser pages of other origins; list the origin in admin.allowedOrigins',
    );
  };

  return {
    mode,
    async identify(authorization) {
      if (!oauth || adminKeyGrant(authorization)) return undefined;
      return oauth.principal(authorization);
    },
    decide(facts) {
      const browser = browserRefusal(facts);
      if (browser) return browser;
      if (!READS.has(facts.method.toUpperCase()) && !/^application\/json\b/i.test(facts.contentType ?? '')) {
        return refuse(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Unsupported Media Type: admin writes take application/json',
        );
      }
      if (mode === 'admin-keys' || mode === 'admin-oauth') {
        const grant = adminKeyGrant(facts.authorization);
        if (grant) return grant;
        if (oauth && facts.principal) {
          const role = oauthRole(facts.principal, oauth.roles);
          return role === undefined
            ? refuse(
                403,
                'FORBIDDEN',
                `Forbidden: ${facts.principal.id} holds no admin role (admin.oauth.roles)`,
              )
            : { ok: true, actor: facts.principal.id, role };
        }
        const credential = mode === 'admin-keys' ? 'admin key' : 'OAuth access token';
        return refuse(401, 'UNAUTHORIZED', `Unauthorized: send Authorization: Bearer <${credential}>`);
      }
      if (!facts.fromLoopback) {
        return refuse(
          403,
          'FORBIDDEN',
          'Forbidden: without admin.keys the admin API answers only on loopback; configure admin.keys to use it remotely',
        );
      }
      if (mode === 'loopback') return { ok: true, actor: 'local', role: 'admin' };
      const principal = options.apiKeyPrincipal(facts.authorization);
      return principal === undefined
        ? refuse(401, 'UNAUTHORIZED', 'Unauthorized: send Authorization: Bearer <api key>')
        : { ok: true, actor: principal, role: 'admin' };
    },
  };
}
