/**
 * Bearer JWTs checked with `jose` against the issuer's published keys: signature, `iss`, `aud`, `exp`/`nbf` with
 * the configured skew. The key set is found from `jwksUri` or the issuer's metadata, cached by jose, and fetched
 * again when a token names an unknown `kid` (at most once per cooldown), which is how key rotation is followed.
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthConfig } from '../config/index.ts';
import { boundedFetch, fetchJsonObject, type FetchLike } from './bounded-fetch.ts';

/** Asymmetric algorithms only: a key set never holds a shared secret, and `none` is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The outcome of checking one token. */
export type JwtCheck = { ok: true; claims: JWTPayload } | { ok: false; reason: string; unavailable?: true };

/** Checks bearer JWTs of one issuer for one audience. */
export interface JwtVerifier {
  verify(token: string): Promise<JwtCheck>;
}

/**
 * Where the issuer's metadata may be: OpenID Connect discovery (the well-known path appended to the issuer) and
 * RFC 8414 (the well-known path inserted before the issuer's path).
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  return [
    `${url.origin}${path}/.well-known/openid-configuration`,
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
  ];
}

/** Reads `jwks_uri` from the first metadata document that answers and names this issuer. */
async function discoverJwksUri(issuer: string, fetchImpl: FetchLike): Promise<string> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const metadata = await fetchJsonObject(fetchImpl, url);
      if (metadata.issuer !== issuer) {
        failures.push(`${url} names issuer ${JSON.stringify(metadata.issuer)}`);
        continue;
      }
      if (typeof metadata.jwks_uri === 'string' && /^https?:\/\//.test(metadata.jwks_uri))
        return metadata.jwks_uri;
      failures.push(`${url} has no jwks_uri`);
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  throw new Error(`no key set found for issuer ${issuer}: ${failures.join('; ')}`);
}

/** Why jose refused a token, in words a client may read (no key material, no token content). */
export function describeJoseError(error: unknown): { reason: string; unavailable?: true } {
  if (error instanceof errors.JWTExpired) return { reason: 'the token has expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return { reason: 'the token is not for this resource (aud)' };
    if (error.claim === 'iss') return { reason: 'the token is from another issuer (iss)' };
    if (error.claim === 'nbf') return { reason: 'the token is not valid yet (nbf)' };
    return { reason: `the token's ${error.claim} claim is not acceptable` };
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return { reason: 'the token is signed by a key the issuer does not publish' };
  if (error instanceof errors.JWKSMultipleMatchingKeys)
    return { reason: 'the token names no key the issuer publishes unambiguously' };
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return { reason: 'the token signature does not verify' };
  if (error instanceof errors.JOSEAlgNotAllowed)
    return { reason: 'the token is signed with a refused algorithm' };
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return { reason: "the issuer's keys could not be fetched", unavailable: true };
  if (error instanceof errors.JOSEError) return { reason: 'the token is not a valid JWT' };
  return { reason: "the issuer's keys could not be fetched", unavailable: true };
}

/** Creates the verifier; nothing is fetched until the first token arrives. */
export function createJwtVerifier(
  oauth: OAuthConfig,
  deps: { fetch: FetchLike; now(): number },
): JwtVerifier {
  let keySet: ReturnType<typeof createRemoteJWKSet> | undefined;
  let pending: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  let lastFailure = Number.NEGATIVE_INFINITY;

  const keys = async () => {
    if (keySet) return keySet;
    // A failed discovery is retried only after the cooldown, so a dead issuer is not asked on every request.
    if (deps.now() - lastFailure < oauth.jwksCooldownMs)
      throw new Error('issuer metadata recently unavailable');
    pending ??= (async () => {
      const uri = oauth.jwksUri ?? (await discoverJwksUri(oauth.issuer, deps.fetch));
      return createRemoteJWKSet(new URL(uri), {
        cooldownDuration: oauth.jwksCooldownMs,
        [customFetch]: (url: string, init: RequestInit) =>
          boundedFetch(deps.fetch, url, {
            headers: { accept: 'application/json' },
            method: init.method ?? 'GET',
          }),
      });
    })();
    try {
      keySet = await pending;
      return keySet;
    } catch (error) {
      lastFailure = deps.now();
      throw error;
    } finally {
      pending = undefined;
    }
  };

  return {
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await keys(), {
          issuer: oauth.issuer,
          audience: oauth.audience,
          clockTolerance: oauth.clockSkewSeconds,
          currentDate: new Date(deps.now()),
          algorithms: ALGORITHMS,
          requiredClaims: ['exp'],
        });
        return { ok: true, claims: payload };
      } catch (error) {
        return { ok: false, ...describeJoseError(error) };
      }
    },
  };
}
