/**
 * Who is calling /mcp: an API key's principal, an OAuth principal from a bearer JWT (or an introspected opaque
 * token), or `anonymous` when neither is configured. A refusal carries its HTTP status, stable code and the
 * `WWW-Authenticate` challenge that tells a client where to get a token (docs/identity.md).
 */
import type { OAuthConfig, PortcullisConfig } from '../config/index.ts';
import type { ErrorCode } from '../errors/index.ts';
import { bearerToken, createApiKeyVerifier } from './api-keys.ts';
import type { FetchLike } from './bounded-fetch.ts';
import { bearerChallenge } from './challenge.ts';
import { missingScopes, principalFromClaims, type TokenClaims } from './claims.ts';
import { createIntrospector, type Introspector } from './introspection.ts';
import { createJwtVerifier } from './jwt-verifier.ts';
import { ANONYMOUS, type Principal } from './principal.ts';
import { protectedResourceMetadataUrl } from './protected-resource.ts';

/** Longest bearer credential read; longer ones are refused before any parsing or network call. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

/** A refused request: what the door answers. */
export interface AuthRefusal {
  ok: false;
  status: 401 | 403 | 503;
  code: ErrorCode;
  message: string;
  /** Absent on 503 (the token was not judged). */
  wwwAuthenticate?: string;
}

/** The outcome of authenticating one request. */
export type AuthOutcome = { ok: true; principal: Principal } | AuthRefusal;

/** Which credentials the gateway accepts. */
export type AuthMode = 'none' | 'api-keys' | 'oauth' | 'api-keys+oauth';

/** Authenticates requests from their headers. */
export interface Authenticator {
  readonly mode: AuthMode;
  /** `profile` names the /mcp/<profile> endpoint asked, so the challenge points at its metadata. */
  authenticate(headers: Headers, options?: { profile?: string }): Promise<AuthOutcome>;
}

/** What the authenticator needs besides the config. */
export interface AuthenticatorDeps {
  fetch?: FetchLike;
  now?: () => number;
  /**
   * The gateway's own credentials that are not /mcp credentials (the admin API keys): refused on /mcp and never
   * sent to the OAuth provider's introspection endpoint, where a key pasted into a client by mistake would leak.
   */
  ownCredentials?: readonly string[];
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Builds the authenticator of `config.auth`. */
export function createAuthenticator(
  auth: PortcullisConfig['auth'],
  deps: AuthenticatorDeps = {},
): Authenticator {
  const keys = createApiKeyVerifier(auth.apiKeys);
  // Own credentials are compared like API keys (constant time over digests); groups and scopes do not matter.
  const own = createApiKeyVerifier(
    (deps.ownCredentials ?? []).map((key) => ({ key, groups: [], scopes: [] })),
  );
  const oauth = auth.oauth;
  const mode: AuthMode = oauth
    ? keys.enabled
      ? 'api-keys+oauth'
      : 'oauth'
    : keys.enabled
      ? 'api-keys'
      : 'none';
  const io = { fetch: deps.fetch ?? ((input, init) => fetch(input, init)), now: deps.now ?? Date.now };
  const jwt = oauth ? createJwtVerifier(oauth, io) : undefined;
  const introspector: Introspector | undefined =
    oauth?.introspection !== undefined
      ? createIntrospector({ ...oauth, introspection: oauth.introspection }, io)
      : undefined;

  const refuse = (
    status: 401 | 403,
    code: ErrorCode,
    message: string,
    error: 'invalid_token' | 'insufficient_scope' | undefined,
    profile: string | undefined,
  ): AuthRefusal => ({
    ok: false,
    status,
    code,
    message,
    wwwAuthenticate: oauth
      ? bearerChallenge({
          resourceMetadata: protectedResourceMetadataUrl(oauth, profile),
          scope: oauth.requiredScopes,
          ...(error === undefined ? {} : { error, description: message }),
        })
      : bearerChallenge({ realm: 'portcullis', ...(error === undefined ? {} : { error }) }),
  });

  const fromClaims = (
    claims: TokenClaims,
    settings: OAuthConfig,
    profile: string | undefined,
  ): AuthOutcome => {
    const mapped = principalFromClaims(claims, settings, settings.issuer);
    if (!mapped.ok)
      return refuse(401, 'UNAUTHORIZED', `Unauthorized: ${mapped.reason}`, 'invalid_token', profile);
    const missing = missingScopes(mapped.principal.scopes, settings.requiredScopes);
    if (missing.length > 0) {
      return refuse(
        403,
        'INSUFFICIENT_SCOPE',
        `Forbidden: the token lacks the scope ${missing.join(' ')}`,
        'insufficient_scope',
        profile,
      );
    }
    return { ok: true, principal: mapped.principal };
  };

  return {
    mode,
    async authenticate(headers, options = {}) {
      if (mode === 'none') return { ok: true, principal: ANONYMOUS };
      const { profile } = options;
      const token = bearerToken(headers.get('authorization'));
      const what = oauth ? 'an OAuth access token' : 'an API key';
      if (token === undefined)
        return refuse(
          401,
          'UNAUTHORIZED',
          `Unauthorized: send Authorization: Bearer <${what}>`,
          undefined,
          profile,
        );
      if (token.length > MAX_TOKEN_LENGTH)
        return refuse(
          401,
          'UNAUTHORIZED',
          'Unauthorized: the bearer token is too long',
          'invalid_token',
          profile,
        );
      const keyPrincipal = keys.verify(token);
      if (keyPrincipal) return { ok: true, principal: keyPrincipal };
      if (own.verify(token) !== undefined)
        return refuse(
          401,
          'UNAUTHORIZED',
          'Unauthorized: this is an admin API key, which opens /admin and /console only; /mcp needs ' + what,
          'invalid_token',
          profile,
        );
      if (!oauth || !jwt)
        return refuse(401, 'UNAUTHORIZED', 'Unauthorized: unknown API key', 'invalid_token', profile);
      const check = JWT_SHAPE.test(token)
        ? await jwt.verify(token)
        : introspector
          ? await introspector.introspect(token)
          : { ok: false as const, reason: 'the token is not a JWT and no introspection is configured' };
      if (check.ok) return fromClaims(check.claims, oauth, profile);
      if ('unavailable' in check && check.unavailable) {
        return {
          ok: false,
          status: 503,
          code: 'AUTH_UNAVAILABLE',
          message: `Service Unavailable: ${check.reason}; try again later`,
        };
      }
      return refuse(401, 'UNAUTHORIZED', `Unauthorized: ${check.reason}`, 'invalid_token', profile);
    },
  };
}
