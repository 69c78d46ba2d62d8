/**
 * The host side of `safety.crypto.hmac` and `safety.http.basicAuth`: what tool code legitimately does with a
 * secret, done where the value lives. Inputs may be handles, plain text or both; a result that would show a
 * secret (a Basic credential) goes back as a new handle, a result that cannot (an HMAC) as plain data.
 */
import { createHmac } from 'node:crypto';
import { PortcullisError } from '../../errors/index.ts';
import type { SecretVault } from '../egress/secret-vault.ts';
import { exactBytes, toHelperError } from './host-ops.ts';
import type { SyncReply } from './host-ops.ts';

/** True for the operations this file answers. */
export function isSecretOperation(op: unknown): op is string {
  return op === 'secret.hmac' || op === 'secret.basicAuth';
}

const HMAC_HASHES: Readonly<Record<string, string>> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

/** Largest HMAC message, in bytes or characters: the operation runs on the main thread. */
export const MAX_HMAC_INPUT = 1024 * 1024;

function invalid(message: string): PortcullisError {
  return new PortcullisError('INVALID_INPUT', message, { reason: 'invalid-argument' });
}

function list(args: unknown): unknown[] {
  return Array.isArray(args) ? (args as unknown[]) : [];
}

function text(value: unknown, label: string): string {
  if (typeof value !== 'string') throw invalid(`${label}: expected a string or a secret handle`);
  return value;
}

function hmac(vault: SecretVault, args: unknown[]): unknown {
  const [key, data, algorithm, encoding] = args;
  const hash = HMAC_HASHES[String(algorithm ?? 'SHA-256').toUpperCase()];
  if (hash === undefined) throw invalid(`safety.crypto.hmac: unsupported algorithm ${String(algorithm)}`);
  if (typeof data !== 'string' && !(data instanceof Uint8Array))
    throw invalid('safety.crypto.hmac: data must be a string or bytes');
  const size = typeof data === 'string' ? data.length : data.byteLength;
  if (size > MAX_HMAC_INPUT) throw invalid(`safety.crypto.hmac: data larger than ${MAX_HMAC_INPUT}`);
  const digest = createHmac(hash, vault.reveal(text(key, 'safety.crypto.hmac key')))
    .update(data)
    .digest();
  switch (encoding ?? 'hex') {
    case 'hex':
      return digest.toString('hex');
    case 'base64':
      return digest.toString('base64');
    case 'base64url':
      return digest.toString('base64url');
    case 'bytes':
      return exactBytes(digest);
    default:
      throw invalid(
        `safety.crypto.hmac: unknown encoding ${String(encoding)} (hex, base64, base64url, bytes)`,
      );
  }
}

function basicAuth(vault: SecretVault, args: unknown[]): string {
  const shownUser = text(args[0], 'safety.http.basicAuth user');
  // Checked before revealing: an answer that depended on the value would tell code something about it.
  if (shownUser.includes(':')) throw invalid('safety.http.basicAuth: the user name may not contain ":"');
  const user = vault.reveal(shownUser);
  const password = vault.reveal(text(args[1], 'safety.http.basicAuth password'));
  return vault.handleFor(`Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`);
}

/** Runs one secret operation against the run's vault; never throws. */
export function runSecretOperation(vault: SecretVault, op: string, args: unknown): SyncReply {
  try {
    const value = op === 'secret.hmac' ? hmac(vault, list(args)) : basicAuth(vault, list(args));
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error: toHelperError(error) };
  }
}

function concealJson(value: object, vault: SecretVault): unknown {
  try {
    return JSON.parse(JSON.stringify(value), (_key, inner: unknown) =>
      typeof inner === 'string' ? vault.conceal(inner) : inner,
    );
  } catch (cause) {
    throw new PortcullisError('INVALID_INPUT', 'tool arguments are not JSON-serializable', {
      reason: 'invalid-arguments',
      cause,
    });
  }
}

/**
 * The arguments with every known value in a string (a static variable, or a client argument that repeats one)
 * replaced by its handle; keys stay as they are.
 */
export function concealArguments(args: Record<string, unknown>, vault: SecretVault): Record<string, unknown> {
  if (vault.empty) return args;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    Object.defineProperty(out, name, {
      value:
        typeof value === 'string'
          ? vault.conceal(value)
          : value !== null && typeof value === 'object'
            ? concealJson(value, vault)
            : value,
      enumerable: true,
    });
  }
  return out;
}
