/**
 * Sealed approval state for the modern era (docs/architecture.md, "Parked modern-era calls"): the `requestState`
 * the gateway hands the client while it asks for approval is AES-256-GCM encrypted and authenticated, bound to
 * the exact call (principal, alias, argument digest, policy version), expires, and can be opened once. The
 * client is treated as an attacker. The prefixes that tell the state kinds apart are `request-state.ts`.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { PortcullisError } from '../errors/index.ts';
import { canonicalJson, sha256Hex } from '../shared/index.ts';

/** What an approval is bound to. */
export interface ApprovalBinding {
  principal: string | null;
  alias: string;
  /** argsDigest(arguments) of the call. */
  argsDigest: string;
  /** ApprovalRules.version of the policy that asked. */
  policyVersion: string;
}

/** What goes into a sealed token. */
export interface SealInput extends ApprovalBinding {
  /** A unique id; random when absent. */
  nonce?: string;
  /** Any JSON the caller wants back when the token is opened (e.g. the elicitation id). */
  extra?: Record<string, unknown>;
}

/** The contents of an opened token. */
export interface SealedApproval extends ApprovalBinding {
  nonce: string;
  issuedAt: number;
  expiresAt: number;
  extra?: Record<string, unknown>;
}

/** Why a token was refused. */
export type OpenFailure = 'tampered' | 'expired' | 'replayed' | 'mismatch';

/** The result of opening a token (a closed union). */
export type OpenResult = { ok: true; payload: SealedApproval } | { ok: false; reason: OpenFailure };

/** Seals and opens approval state. */
export interface ApprovalSealer {
  /** An opaque base64url token carrying the binding; valid for ttlMs. */
  seal(input: SealInput): string;
  /** Checks the token against the call it comes back with; a successful open uses the token up. */
  open(token: string, expected: ApprovalBinding): OpenResult;
}

/** Options of the sealer. */
export interface ApprovalSealerOptions {
  /** The secret; at least 32 bytes. Keep it out of config files (use `${ENV}`). */
  key: string | Uint8Array;
  /** Ms since the epoch. */
  clock: () => number;
  /** How long a token stays valid. */
  ttlMs: number;
  /** How many used nonces are remembered until they expire (default 100 000). */
  maxNonces?: number;
}

const VERSION = 'v1';
const INFO = 'portcullis/approval-state/v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Tokens above this size are refused before any decoding work. */
export const MAX_TOKEN_CHARS = 16_384;

/** Builds a sealer; throws CONFIG_INVALID when the key is shorter than 32 bytes or the ttl is not positive. */
export function createApprovalSealer(options: ApprovalSealerOptions): ApprovalSealer {
  const secret =
    typeof options.key === 'string' ? Buffer.from(options.key, 'utf8') : Buffer.from(options.key);
  if (secret.length < 32) {
    throw new PortcullisError('CONFIG_INVALID', 'the approval state key must be at least 32 bytes long');
  }
  if (!Number.isFinite(options.ttlMs) || options.ttlMs <= 0) {
    throw new PortcullisError('CONFIG_INVALID', 'the approval state ttl must be a positive duration');
  }
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), INFO, 32));
  const aad = Buffer.from(INFO, 'utf8');
  const maxNonces = Math.max(1, Math.trunc(options.maxNonces ?? 100_000));
  // nonce → expiry. Insertion order is roughly expiry order (one ttl), so pruning starts at the front.
  const used = new Map<string, number>();

  const prune = (now: number): void => {
    for (const [nonce, expiresAt] of used) {
      if (expiresAt > now) break;
      used.delete(nonce);
    }
  };

  const seal = (input: SealInput): string => {
    const issuedAt = options.clock();
    const payload: SealedApproval = {
      principal: input.principal,
      alias: input.alias,
      argsDigest: input.argsDigest,
      policyVersion: input.policyVersion,
      nonce: input.nonce ?? randomBytes(16).toString('base64url'),
      issuedAt,
      expiresAt: issuedAt + options.ttlMs,
      ...(input.extra === undefined ? {} : { extra: input.extra }),
    };
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad);
    const body = Buffer.concat([cipher.update(canonicalJson(payload, 'stringify'), 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  };

  const decrypt = (token: string): SealedApproval | undefined => {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS || !token.startsWith(`${VERSION}.`))
      return;
    const encoded = token.slice(VERSION.length + 1);
    if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return;
    const raw = Buffer.from(encoded, 'base64url');
    // One spelling per token: the decoder ignores the last character's unused bits, so without this check a
    // respelled token would open (harmless to the seal, confusing to anyone comparing tokens).
    if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== encoded) return;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(aad);
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]);
      const payload = JSON.parse(plain.toString('utf8')) as unknown;
      return isSealedApproval(payload) ? payload : undefined;
    } catch {
      // A failed authentication tag and a malformed plaintext get one answer ('tampered'): telling them apart
      // would only help whoever forged the token.
      return undefined;
    }
  };

  const open = (token: string, expected: ApprovalBinding): OpenResult => {
    const payload = decrypt(token);
    if (!payload) return { ok: false, reason: 'tampered' };
    const now = options.clock();
    prune(now);
    if (now >= payload.expiresAt) return { ok: false, reason: 'expired' };
    if (used.has(payload.nonce)) return { ok: false, reason: 'replayed' };
    if (
      payload.principal !== expected.principal ||
      payload.alias !== expected.alias ||
      payload.argsDigest !== expected.argsDigest ||
      payload.policyVersion !== expected.policyVersion
    ) {
      return { ok: false, reason: 'mismatch' };
    }
    // Bounded memory: past maxNonces the nonce closest to expiry is forgotten first (documented trade-off).
    while (used.size >= maxNonces) {
      const oldest = used.keys().next();
      if (oldest.done) break;
      used.delete(oldest.value);
    }
    used.set(payload.nonce, payload.expiresAt);
    return { ok: true, payload };
  };

  return { seal, open };
}

/** The digest a sealed approval binds the arguments with: sha256 of their canonical JSON (`{}` when absent). */
export function argsDigest(args: unknown): string {
  return sha256Hex(canonicalJson(args ?? {}, 'stringify'));
}

function isSealedApproval(value: unknown): value is SealedApproval {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    (v['principal'] === null || typeof v['principal'] === 'string') &&
    typeof v['alias'] === 'string' &&
    typeof v['argsDigest'] === 'string' &&
    typeof v['policyVersion'] === 'string' &&
    typeof v['nonce'] === 'string' &&
    typeof v['issuedAt'] === 'number' &&
    typeof v['expiresAt'] === 'number' &&
    (v['extra'] === undefined || (v['extra'] !== null && typeof v['extra'] === 'object'))
  );
}
