/**
 * Where a secret handle may become its value (docs/security.md, "Secrets"): only in the URL path and query,
 * the headers and the body of a request whose destination the tool lists by name in its allowlist. A handle in
 * the host (or userinfo) would let the secret choose the destination, so it is refused before anything resolves.
 */
import { validateHeaderValue } from 'node:http';
import { PortcullisError } from '../../errors/index.ts';
import { matchesHostPattern } from '../../shared/index.ts';
import type { RevealEncoding, SecretVault } from './secret-vault.ts';
import type { EgressPolicy } from './types.ts';

function refused(reason: string, message: string): PortcullisError {
  return new PortcullisError('SECURITY', message, { reason });
}

const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/*([^/?#]*)/;

/** The URL as it goes on the wire: handles in the path, query and fragment become their URL-encoded values. */
export function revealUrl(url: string | URL, vault: SecretVault): string | URL {
  const text = typeof url === 'string' ? url : url.href;
  if (!vault.holdsHandle(text)) return url;
  const authority = AUTHORITY.exec(text)?.[1] ?? text;
  if (vault.holdsHandle(authority)) {
    throw refused(
      'secret-in-host',
      'fetch refused: a secret handle is in the host part of the URL; secrets may only go in the path, ' +
        'query, headers or body of a request to a listed host',
    );
  }
  // Percent-encoded, a value cannot add a "/", "?", "#" or "@" and so cannot move the host.
  return vault.reveal(text, 'url');
}

/**
 * The hop's URL in handle form, as tool code may see it and as the base of a relative redirect: never the
 * wire URL, whose percent-encoding the URL parser may have changed so that concealing it would miss the value.
 */
export function shownUrl(url: string | URL, wire: URL): URL {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return wire;
  }
}

/** True when the request (handle form) carries a handle anywhere. */
export function carriesHandles(
  url: string | URL,
  headers: ReadonlyArray<readonly [string, string]>,
  body: Buffer | null,
  vault: SecretVault,
): boolean {
  if (vault.holdsHandle(typeof url === 'string' ? url : url.href)) return true;
  if (headers.some(([, value]) => vault.holdsHandle(value))) return true;
  return body !== null && vault.holdsHandle(body.toString('latin1'));
}

/**
 * Throws SECURITY `secret-host-not-allowed` unless `hostname` matches an allowlist entry other than `*`:
 * `strict`, `open` and a bare `*` let a request reach any host, so secrets never leave under them.
 */
export function assertSecretDestination(hostname: string, policy: EgressPolicy): void {
  const named =
    policy.networkMode === 'allowlist' &&
    policy.hostsAllow.some((pattern) => pattern.trim() !== '*' && matchesHostPattern(hostname, pattern));
  if (!named) {
    throw refused(
      'secret-host-not-allowed',
      `fetch refused: the request carries a secret and ${hostname} is not named in the tool's allowlist ` +
        '(secrets only go to hosts listed by name)',
    );
  }
}

/** The header pairs as they go on the wire, each value revealed and checked again. */
export function revealHeaders(
  headers: ReadonlyArray<readonly [string, string]>,
  vault: SecretVault,
): Array<[string, string]> {
  return headers.map(([name, value]) => {
    const wire = vault.reveal(value);
    try {
      validateHeaderValue(name, wire);
    } catch {
      throw new PortcullisError(
        'INVALID_INPUT',
        `fetch: the secret in header ${JSON.stringify(name)} is not a valid header value`,
        { reason: 'invalid-header' },
      );
    }
    return [name, wire];
  });
}

/** The body as it goes on the wire; values are escaped for a JSON or form body, written raw otherwise. */
export function revealBody(
  body: Buffer | null,
  headers: ReadonlyArray<readonly [string, string]>,
  vault: SecretVault,
): Buffer | null {
  if (body === null) return null;
  const text = body.toString('utf8');
  // Only valid UTF-8 text can hold a handle that survives decoding; binary bodies go as they are.
  if (!vault.holdsHandle(text) || !Buffer.from(text, 'utf8').equals(body)) return body;
  const type = headers.find(([name]) => name === 'content-type')?.[1].toLowerCase() ?? '';
  const encoding: RevealEncoding = type.includes('json')
    ? 'json'
    : type.includes('application/x-www-form-urlencoded')
      ? 'url'
      : 'raw';
  return Buffer.from(vault.reveal(text, encoding), 'utf8');
}

/** An error whose message may quote a revealed URL or location, with every value concealed again. */
export function concealError(error: unknown, vault: SecretVault): unknown {
  if (!(error instanceof PortcullisError)) {
    if (error instanceof Error && error.message !== vault.conceal(error.message)) {
      return new PortcullisError('HELPER_RUNTIME', vault.conceal(error.message), { reason: 'fetch-failed' });
    }
    return error;
  }
  const message = vault.conceal(error.message);
  if (message === error.message) return error;
  return new PortcullisError(error.code, message, {
    ...(error.reason === undefined ? {} : { reason: error.reason }),
  });
}
