/**
 * A real OpenID Provider (`oidc-provider`) on 127.0.0.1 for the OAuth tests: a client-credentials client whose
 * access tokens are JWTs for the requested resource, an introspection endpoint, and key rotation (a new provider
 * with a new signing key served on the same issuer, the old key still published).
 */
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** A signing key with its private and public JWKs. */
export interface TestKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
  sign(claims: Record<string, unknown>, options?: { kid?: string }): Promise<string>;
}

/** Creates an RS256 key; `sign` mints a JWT with it (for tokens the provider would not issue: expired, etc.). */
export async function createTestKey(kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return {
    kid,
    privateJwk,
    publicJwk,
    sign: (claims, options = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? kid, typ: 'at+jwt' })
        .sign(privateKey),
  };
}

/** The test client's credentials. */
export const CLIENT = { id: 'portcullis-test', secret: 'portcullis-test-secret-0123456789abcdef' };
/** A client whose tokens carry no scope the gateway requires. */
export const NO_SCOPE_CLIENT = { id: 'no-scope', secret: 'no-scope-secret-0123456789abcdef' };

/** A client whose access tokens are opaque (checked by introspection). */
export const OPAQUE_CLIENT = { id: 'opaque', secret: 'opaque-secret-0123456789abcdef' };

/** A public client for authorization code with PKCE, redirecting to a callback nobody listens on. */
export const PKCE_CLIENT = { id: 'pkce-client', redirectUri: 'http://127.0.0.1:9/callback' };

/** A running provider. */
export interface RunningProvider {
  issuer: string;
  /** Serves a new provider signing with `key` (older keys still published). */
  rotate(key: TestKey): void;
  close(): Promise<void>;
}

function buildProvider(issuer: string, keys: TestKey[], groups: readonly string[]): Provider {
  return new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'mcp admin',
      },
      {
        client_id: NO_SCOPE_CLIENT.id,
        client_secret: NO_SCOPE_CLIENT.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'other',
      },
      {
        client_id: PKCE_CLIENT.id,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [PKCE_CLIENT.redirectUri],
        scope: 'mcp',
      },
      {
        client_id: OPAQUE_CLIENT.id,
        client_secret: OPAQUE_CLIENT.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        scope: 'mcp',
      },
    ],
    jwks: { keys: keys.map((k) => k.privateJwk) },
    scopes: ['mcp', 'admin', 'other'],
    features: {
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      // The built-in login and consent pages; the scripted user of the tests fills them in.
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string, client: { clientId: string }) => ({
          scope: 'mcp admin other',
          audience: resourceIndicator,
          accessTokenTTL: 300,
          ...(client.clientId === OPAQUE_CLIENT.id
            ? { accessTokenFormat: 'opaque' }
            : { accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
        }),
      },
    },
    extraTokenClaims: () => ({ groups: [...groups] }),
  });
}

/** Starts the provider on a free 127.0.0.1 port; its tokens carry `groups`. */
export async function startProvider(key: TestKey, groups: readonly string[] = []): Promise<RunningProvider> {
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const keys = [key];
  let handler = buildProvider(issuer, keys, groups).callback();
  return {
    issuer,
    rotate(next) {
      keys.unshift(next);
      handler = buildProvider(issuer, keys, groups).callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
