/**
 * Exposed tool names (docs/configuration.md, `upstreams`): `<upstreamId>_<toolName>`, sanitized to
 * `[A-Za-z0-9_-]`, at most 64 characters, deterministic, and never colliding. Pure.
 */
import { createHash } from 'node:crypto';

/** The grammar every exposed name matches. */
export const EXPOSED_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const MAX_LENGTH = 64;
const SUFFIX_LENGTH = 8;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, SUFFIX_LENGTH);
}

/** Replaces every character outside `[A-Za-z0-9_-]` with `_` (an empty result becomes `_`). */
export function sanitizeName(text: string): string {
  const clean = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return clean.length > 0 ? clean : '_';
}

/** Cuts a sanitized name to 64 characters, keeping it unique by a hash of the full original. */
function fitName(clean: string, original: string): string {
  if (clean.length <= MAX_LENGTH && clean === original) return clean;
  if (clean.length <= MAX_LENGTH) return clean;
  return `${clean.slice(0, MAX_LENGTH - SUFFIX_LENGTH - 1)}_${shortHash(original)}`;
}

/** The default alias of an upstream tool. */
export function defaultAlias(upstreamId: string, toolName: string): string {
  const original = `${upstreamId}_${toolName}`;
  return fitName(sanitizeName(original), original);
}

/** One name request: `key` identifies the tool uniquely (e.g. `upstream::tool`); `wanted` is its alias. */
export interface AliasRequest {
  key: string;
  wanted: string;
  /** True when the operator chose the alias explicitly (config override or composition alias). */
  explicit: boolean;
}

/** Result of assigning aliases: key → alias, and the explicit aliases that collided (a config error). */
export interface AliasAssignment {
  aliases: Map<string, string>;
  conflicts: { alias: string; keys: string[] }[];
}

/**
 * Assigns final aliases. Explicit aliases are kept as they are; two explicit aliases that collide are
 * reported as conflicts. A default alias that collides with another name gets a hash suffix derived from its
 * key, so the outcome depends only on the set of requests, never on their order.
 */
export function assignAliases(requests: readonly AliasRequest[]): AliasAssignment {
  const sorted = [...requests].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const byWanted = new Map<string, AliasRequest[]>();
  for (const request of sorted) {
    const list = byWanted.get(request.wanted) ?? [];
    list.push(request);
    byWanted.set(request.wanted, list);
  }
  const aliases = new Map<string, string>();
  const conflicts: AliasAssignment['conflicts'] = [];
  const taken = new Set<string>();
  for (const [wanted, list] of byWanted) {
    const explicit = list.filter((r) => r.explicit);
    if (explicit.length > 1) conflicts.push({ alias: wanted, keys: explicit.map((r) => r.key) });
    if (list.length === 1 || explicit.length >= 1) {
      const owner = explicit[0] ?? (list[0] as AliasRequest);
      aliases.set(owner.key, wanted);
      taken.add(wanted);
    }
  }
  for (const [wanted, list] of byWanted) {
    for (const request of list) {
      if (aliases.has(request.key)) continue;
      let candidate = `${wanted.slice(0, MAX_LENGTH - SUFFIX_LENGTH - 1)}_${shortHash(request.key)}`;
      for (let salt = 1; taken.has(candidate); salt += 1) {
        candidate = `${wanted.slice(0, MAX_LENGTH - SUFFIX_LENGTH - 1)}_${shortHash(`${request.key}#${salt}`)}`;
      }
      aliases.set(request.key, candidate);
      taken.add(candidate);
    }
  }
  return { aliases, conflicts };
}
