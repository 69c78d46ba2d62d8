/**
 * Door checks for /mcp and /admin: Host and Origin validation against DNS rebinding, and optional API keys
 * (`Authorization: Bearer`) compared in constant time and never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { ANONYMOUS_PRINCIPAL } from '../approval/index.ts';

/** The principal of a request: `anonymous` without auth, else a stable non-secret id of the key used. */
export type Principal = string;

/** Host names always accepted for a loopback bind. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** Computes the allowed Host and Origin host names for a bind address and the configured extras. */
export function allowedHostnames(bindHost: string, extra: readonly string[]): string[] {
  const names = new Set([...LOOPBACK_HOSTS, ...extra]);
  if (bindHost !== '0.0.0.0' && bindHost !== '::') names.add(bindHost);
  return [...names];
}

/** Returns a reason string when the Host header is not allowed (DNS rebinding), else undefined. */
export function checkHost(request: Request, hosts: readonly string[]): string | undefined {
  const host = validateHostHeader(request.headers.get('host'), [...hosts]);
  return host.ok ? undefined : host.message;
}

/** Returns a reason string when Host or Origin is not allowed, else undefined. */
export function checkHostAndOrigin(
  request: Request,
  hosts: readonly string[],
  origins: readonly string[],
): string | undefined {
  const host = checkHost(request, hosts);
  if (host) return host;
  const origin = validateOriginHeader(request.headers.get('origin'), [...origins]);
  if (!origin.ok) return origin.message;
  return undefined;
}

/** Verifies bearer API keys in constant time. */
export interface ApiKeyVerifier {
  readonly enabled: boolean;
  /** The principal for a valid Authorization header, or undefined. */
  verify(authorization: string | null): Principal | undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Creates a verifier over the configured keys; with no keys every request is `anonymous`. */
export function createApiKeyVerifier(keys: readonly string[]): ApiKeyVerifier {
  // Comparing fixed-length digests keeps the comparison constant-time whatever the presented length.
  const known = keys.map((key) => ({
    digest: digest(key),
    principal: `key:${digest(key).toString('hex').slice(0, 12)}`,
  }));
  return {
    enabled: known.length > 0,
    verify(authorization) {
      if (known.length === 0) return ANONYMOUS_PRINCIPAL;
      const match = /^Bearer[ ]+(.+)$/i.exec(authorization ?? '');
      if (!match) return undefined;
      const presented = digest((match[1] ?? '').trim());
      let principal: Principal | undefined;
      for (const key of known) if (timingSafeEqual(key.digest, presented)) principal = key.principal;
      return principal;
    },
  };
}
