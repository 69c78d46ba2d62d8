/**
 * /mcp API keys as principals, compared in constant time and never logged: a bare key is `key:<12 hex of its
 * SHA-256>`, a named key is `key:<name>` with the groups and scopes it was given.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeyConfig } from '../config/index.ts';
import type { Principal } from './principal.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Finds the principal of a presented bearer credential among the configured keys. */
export interface ApiKeyVerifier {
  readonly enabled: boolean;
  /** The principal holding this key, or undefined. */
  verify(presented: string): Principal | undefined;
}

/** The principal a configured key stands for. */
export function apiKeyPrincipal(key: ApiKeyConfig): Principal {
  const id = key.name ?? digest(key.key).toString('hex').slice(0, 12);
  return Object.freeze({
    id: `key:${id}`,
    source: 'api-key',
    ...(key.name === undefined ? {} : { issuer: key.name }),
    groups: Object.freeze([...key.groups]),
    scopes: Object.freeze([...key.scopes]),
  });
}

/** Creates a verifier over the configured keys. */
export function createApiKeyVerifier(keys: readonly ApiKeyConfig[]): ApiKeyVerifier {
  // Comparing fixed-length digests keeps the comparison constant-time whatever the presented length.
  const known = keys.map((key) => ({ digest: digest(key.key), principal: apiKeyPrincipal(key) }));
  return {
    enabled: known.length > 0,
    verify(presented) {
      const candidate = digest(presented);
      let principal: Principal | undefined;
      // Every key is compared whatever matches, so the time taken does not tell which key is close.
      for (const key of known) if (timingSafeEqual(key.digest, candidate)) principal = key.principal;
      return principal;
    },
  };
}

/** The credential of an `Authorization: Bearer <token>` header, or undefined for any other form. */
export function bearerToken(authorization: string | null): string | undefined {
  const match = /^Bearer[ ]+([^ ].*)$/i.exec(authorization ?? '');
  const token = match?.[1]?.trim();
  return token === undefined || token === '' ? undefined : token;
}
