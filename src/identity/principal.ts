/**
 * Who made a request. Every /mcp and admin request has exactly one principal: a person or service proven by an
 * API key or an OAuth bearer token, or `anonymous` when the gateway runs without auth.
 */

/** How a principal proved who it is. */
export type PrincipalSource = 'api-key' | 'oauth' | 'anonymous';

/** A caller, as approval rules, profiles, sessions, the audit log and telemetry see it. */
export interface Principal {
  /** Stable, non-secret id written to the audit log: `key:<name>` for API keys, the mapped claim for OAuth. */
  readonly id: string;
  readonly source: PrincipalSource;
  /** The token's issuer (OAuth) or the key's name (API key). */
  readonly issuer?: string;
  readonly groups: readonly string[];
  readonly scopes: readonly string[];
}

/** The principal of every request while no API key and no OAuth issuer is configured. */
export const ANONYMOUS: Principal = Object.freeze({
  id: 'anonymous',
  source: 'anonymous',
  groups: Object.freeze([]),
  scopes: Object.freeze([]),
});
