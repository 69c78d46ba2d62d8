/**
 * RFC 9728 protected resource metadata: the document a client reads after a 401 to find the authorization
 * server, and the URL the 401 points to. Every /mcp path shares one resource identifier, the audience.
 */
import type { OAuthConfig } from '../config/index.ts';

/** The path prefix of the metadata (RFC 9728 §3). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The RFC 9728 metadata document. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  resource_name: string;
}

/** The metadata of this gateway as a resource server. */
export function protectedResourceMetadata(oauth: OAuthConfig): ProtectedResourceMetadata {
  return {
    resource: oauth.audience,
    authorization_servers: [oauth.issuer],
    scopes_supported: [...oauth.requiredScopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Portcullis MCP gateway',
  };
}

/**
 * The metadata URL for an endpoint (RFC 9728 §3.1: the well-known path inserted before the resource's path),
 * built on the audience's origin so it is right behind a reverse proxy. `profile` names a /mcp/<profile> endpoint.
 */
export function protectedResourceMetadataUrl(oauth: OAuthConfig, profile?: string): string {
  const audience = new URL(oauth.audience);
  const base = audience.pathname.replace(/\/+$/, '');
  const suffix = profile === undefined ? base : `${base}/${encodeURIComponent(profile)}`;
  return `${audience.origin}${PROTECTED_RESOURCE_PATH}${suffix}`;
}
