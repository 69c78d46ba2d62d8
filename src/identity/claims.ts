/**
 * Pure mapping from a verified token's claims to a Principal: which claim names the caller, where its groups and
 * scopes are, and which required scopes it lacks.
 */
import type { Principal } from './principal.ts';

/** The claims of a verified token (a JWT payload or an introspection answer). */
export type TokenClaims = { readonly [claim: string]: unknown };

/** How claims become a principal. */
export interface ClaimMapping {
  principalClaim: string;
  groupsClaim: string;
}

/** Most groups or scopes kept from one token; a longer list is cut, not refused. */
export const MAX_CLAIM_ENTRIES = 256;

/**
 * Reads a claim by its exact name, else as a dotted path into nested objects (`realm_access.roles`). The exact
 * name comes first because namespaced claims (`https://example.com/groups`) contain dots themselves.
 */
export function readClaim(claims: TokenClaims, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, part))
      return undefined;
    value = (value as TokenClaims)[part];
  }
  return value;
}

/** A claim as a list of strings: an array keeps its strings, a string is split on spaces, anything else is []. */
export function claimStrings(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(' ') : Array.isArray(value) ? value : [];
  const strings = items.filter((item): item is string => typeof item === 'string' && item !== '');
  return [...new Set(strings)].slice(0, MAX_CLAIM_ENTRIES);
}

/** The token's scopes: `scope` (space separated, RFC 8693/9068) and `scp` (array or string, Entra ID and Okta). */
export function scopesOf(claims: TokenClaims): string[] {
  return claimStrings([...claimStrings(claims.scope), ...claimStrings(claims.scp)]);
}

/** The required scopes the token does not carry, in the order required. */
export function missingScopes(have: readonly string[], required: readonly string[]): string[] {
  const held = new Set(have);
  return required.filter((scope) => !held.has(scope));
}

/** The principal of verified claims, or a reason when the principal claim is missing or not a string. */
export function principalFromClaims(
  claims: TokenClaims,
  mapping: ClaimMapping,
  issuer: string,
): { ok: true; principal: Principal } | { ok: false; reason: string } {
  const id = readClaim(claims, mapping.principalClaim);
  if (typeof id !== 'string' && typeof id !== 'number')
    return { ok: false, reason: `the token has no "${mapping.principalClaim}" claim to name the caller` };
  const text = String(id);
  if (text === '' || text.length > 256 || [...text].some((ch) => ch < ' ' || ch === '\u007f'))
    return { ok: false, reason: `the token's "${mapping.principalClaim}" claim is not a usable name` };
  return {
    ok: true,
    principal: Object.freeze({
      id: text,
      source: 'oauth',
      issuer,
      groups: Object.freeze(claimStrings(readClaim(claims, mapping.groupsClaim))),
      scopes: Object.freeze(scopesOf(claims)),
    }),
  };
}
