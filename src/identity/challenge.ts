/**
 * The `WWW-Authenticate: Bearer` challenge of a refusal (RFC 6750 §3, RFC 9728 §5.1): where the protected
 * resource metadata is, the scopes to ask for, and what was wrong with the token.
 */

/** The parts of one Bearer challenge. */
export interface BearerChallenge {
  realm?: string;
  resourceMetadata?: string;
  scope?: readonly string[];
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  description?: string;
}

// RFC 6750 allows only %x20-21 / %x23-5B / %x5D-7E in error_description and scope: no quote, no backslash.
const unquotable = (text: string) => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '').slice(0, 300);

/** The header value; attributes appear in a fixed order and every value is a quoted string. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const attributes: string[] = [];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) attributes.push(`${name}="${unquotable(value)}"`);
  };
  add('realm', challenge.realm);
  add('resource_metadata', challenge.resourceMetadata);
  add('scope', challenge.scope && challenge.scope.length > 0 ? challenge.scope.join(' ') : undefined);
  add('error', challenge.error);
  add('error_description', challenge.description);
  return attributes.length === 0 ? 'Bearer' : `Bearer ${attributes.join(', ')}`;
}
