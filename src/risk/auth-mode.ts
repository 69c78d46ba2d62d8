// Auth mode classification for server risk (docs/rules/risk-model.md#r-srv-2-auth-mode).

/** How a server authenticates its clients, as the server-risk auth axis sees it. */
export type AuthMode = 'NONE' | 'API_KEY' | 'BEARER' | 'OAUTH_STANDARD' | 'OAUTH_CUSTOM';

const CUSTOM_ISSUER_MARKERS = ['oob', 'custom', 'manual-paste'];

/**
 * Classifies a catalog transport's raw auth string (trimmed, ASCII case ignored): blank/NONE → NONE;
 * API_KEY/APIKEY/API-KEY → API_KEY; BEARER → BEARER; OAUTH → OAUTH_STANDARD unless the issuer URI contains
 * `oob`, `custom` or `manual-paste` (then OAUTH_CUSTOM; a missing issuer is standard); OAUTH_OR_PAT →
 * OAUTH_STANDARD; OAUTH_CUSTOM/OAUTH-CUSTOM → OAUTH_CUSTOM; anything else → NONE.
 */
export function classifyAuthMode(raw: string | null | undefined, issuerUri?: string | null): AuthMode {
  const mode = (raw ?? '').trim().replace(/[a-z]/g, (c) => c.toUpperCase());
  switch (mode) {
    case 'API_KEY':
    case 'APIKEY':
    case 'API-KEY':
      return 'API_KEY';
    case 'BEARER':
      return 'BEARER';
    case 'OAUTH': {
      const issuer = (issuerUri ?? '').toLowerCase();
      return CUSTOM_ISSUER_MARKERS.some((marker) => issuer.includes(marker))
        ? 'OAUTH_CUSTOM'
        : 'OAUTH_STANDARD';
    }
    case 'OAUTH_OR_PAT':
      return 'OAUTH_STANDARD';
    case 'OAUTH_CUSTOM':
    case 'OAUTH-CUSTOM':
      return 'OAUTH_CUSTOM';
    default:
      return 'NONE';
  }
}

/** The parts of an upstream connection that the auth inference reads. */
export interface ConnectionAuthShape {
  /** OAuth settings of the connection; any non-null value means OAuth. */
  readonly oauth?: unknown;
  /** Request headers of the connection; the key being present at all means a bearer-style secret. */
  readonly headers?: unknown;
}

/**
 * Infers the auth mode of a connection with no catalog entry (R-SRV-2): a non-null `oauth`
 * → OAUTH_STANDARD, else any `headers` key → BEARER, else NONE.
 */
export function inferAuthMode(connection: ConnectionAuthShape): AuthMode {
  if (connection.oauth !== null && connection.oauth !== undefined) return 'OAUTH_STANDARD';
  if (Object.prototype.hasOwnProperty.call(connection, 'headers') && connection.headers !== undefined)
    return 'BEARER';
  return 'NONE';
}
