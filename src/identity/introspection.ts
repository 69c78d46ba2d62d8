/**
 * Opaque bearer tokens checked by RFC 7662 introspection at the issuer: the token must be active, from the
 * configured issuer when the answer names one, for this audience, and not expired (with the configured skew).
 */
import type { OAuthConfig } from '../config/index.ts';
import { fetchJsonObject, type FetchLike } from './bounded-fetch.ts';
import type { TokenClaims } from './claims.ts';

/** The outcome of introspecting one token. */
export type IntrospectionCheck =
  { ok: true; claims: TokenClaims } | { ok: false; reason: string; unavailable?: true };

/** Introspects opaque tokens. */
export interface Introspector {
  introspect(token: string): Promise<IntrospectionCheck>;
}

// client_secret_basic (RFC 6749 §2.3.1): id and secret are form-encoded before base64.
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** Checks an introspection answer against the configuration; pure. */
export function checkIntrospected(
  answer: TokenClaims,
  oauth: Pick<OAuthConfig, 'issuer' | 'audience' | 'clockSkewSeconds'>,
  nowMs: number,
): IntrospectionCheck {
  if (answer.active !== true) return { ok: false, reason: 'the token is not active' };
  if (answer.iss !== undefined && answer.iss !== oauth.issuer)
    return { ok: false, reason: 'the token is from another issuer (iss)' };
  const audiences =
    typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : [];
  if (!audiences.includes(oauth.audience))
    return { ok: false, reason: 'the token is not for this resource (aud)' };
  const now = nowMs / 1000;
  if (typeof answer.exp === 'number' && answer.exp + oauth.clockSkewSeconds <= now)
    return { ok: false, reason: 'the token has expired' };
  if (typeof answer.nbf === 'number' && answer.nbf - oauth.clockSkewSeconds > now)
    return { ok: false, reason: 'the token is not valid yet (nbf)' };
  return { ok: true, claims: answer };
}

/** Creates the introspector of `oauth.introspection`. */
export function createIntrospector(
  oauth: OAuthConfig & { introspection: NonNullable<OAuthConfig['introspection']> },
  deps: { fetch: FetchLike; now(): number },
): Introspector {
  const { endpoint, clientId, clientSecret } = oauth.introspection;
  return {
    async introspect(token) {
      let answer: TokenClaims;
      try {
        answer = await fetchJsonObject(deps.fetch, endpoint, {
          method: 'POST',
          headers: {
            authorization: basic(clientId, clientSecret),
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        });
      } catch {
        return { ok: false, reason: 'the token could not be introspected', unavailable: true };
      }
      return checkIntrospected(answer, oauth, deps.now());
    },
  };
}
