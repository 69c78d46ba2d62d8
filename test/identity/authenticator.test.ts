/**
 * The authenticator on its own: bare and named API keys as principals, anonymous without auth, the challenge of
 * an API-key-only gateway, long tokens refused before any work, and opaque tokens introspected at a real
 * `oidc-provider` (RFC 7662), with a dead introspection endpoint answered as 503 rather than as a bad token.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthConfig } from '../../src/config/index.ts';
import { ANONYMOUS, createAuthenticator } from '../../src/identity/index.ts';
import { freePort } from '../helpers/gateway-harness.ts';
import { CLIENT, createTestKey, OPAQUE_CLIENT, startProvider, type RunningProvider } from './oidc-fixture.ts';

const bearer = (token: string) => new Headers({ authorization: `Bearer ${token}` });
const key = (k: string, more: { name?: string; groups?: string[]; scopes?: string[] } = {}) => ({
  key: k,
  groups: more.groups ?? [],
  scopes: more.scopes ?? [],
  ...(more.name === undefined ? {} : { name: more.name }),
});

describe('API keys', () => {
  const auth = createAuthenticator({
    apiKeys: [
      key('bare-key-0123456789'),
      key('named-key-0123456789', { name: 'ci-bot', groups: ['ci'], scopes: ['mcp'] }),
    ],
  });

  it.each([
    [
      'a bare key',
      'bare-key-0123456789',
      {
        id: `key:${createHash('sha256').update('bare-key-0123456789').digest('hex').slice(0, 12)}`,
        source: 'api-key',
        groups: [],
        scopes: [],
      },
    ],
    [
      'a named key',
      'named-key-0123456789',
      { id: 'key:ci-bot', source: 'api-key', issuer: 'ci-bot', groups: ['ci'], scopes: ['mcp'] },
    ],
  ])('%s is its principal', async (_name, token, principal) => {
    expect(await auth.authenticate(bearer(token))).toEqual({ ok: true, principal });
  });

  it.each([
    ['no header', new Headers(), 'Bearer realm="portcullis"'],
    ['a wrong key', bearer('wrong'), 'Bearer realm="portcullis", error="invalid_token"'],
    ['a Basic header', new Headers({ authorization: 'Basic abc' }), 'Bearer realm="portcullis"'],
    [
      'an overlong key',
      bearer('x'.repeat(16 * 1024 + 1)),
      'Bearer realm="portcullis", error="invalid_token"',
    ],
  ])('refuses %s with 401', async (_name, headers, challenge) => {
    const outcome = await auth.authenticate(headers);
    expect(outcome).toMatchObject({
      ok: false,
      status: 401,
      code: 'UNAUTHORIZED',
      wwwAuthenticate: challenge,
    });
  });

  it('is anonymous with neither keys nor OAuth', async () => {
    const open = createAuthenticator({ apiKeys: [] });
    expect(open.mode).toBe('none');
    expect(await open.authenticate(bearer('anything'))).toEqual({ ok: true, principal: ANONYMOUS });
  });
});

describe('opaque tokens by introspection', () => {
  let provider: RunningProvider;
  const audience = 'http://127.0.0.1:1/mcp';
  let oauth: OAuthConfig;
  beforeAll(async () => {
    provider = await startProvider(await createTestKey('k'), ['eng']);
    oauth = {
      issuer: provider.issuer,
      audience,
      requiredScopes: ['mcp'],
      principalClaim: 'sub',
      groupsClaim: 'groups',
      clockSkewSeconds: 30,
      jwksCooldownMs: 30_000,
      introspection: {
        endpoint: `${provider.issuer}/token/introspection`,
        clientId: CLIENT.id,
        clientSecret: CLIENT.secret,
      },
    };
  }, 60_000);
  afterAll(async () => provider?.close());

  async function opaqueToken(resource: string): Promise<string> {
    const response = await fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${OPAQUE_CLIENT.id}:${OPAQUE_CLIENT.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'mcp', resource }).toString(),
    });
    return ((await response.json()) as { access_token: string }).access_token;
  }

  it('accepts an active opaque token for this audience', async () => {
    const token = await opaqueToken(audience);
    expect(token.split('.')).toHaveLength(1);
    // Client-credentials tokens name no user: the client is the principal.
    const auth = createAuthenticator({ apiKeys: [], oauth: { ...oauth, principalClaim: 'client_id' } });
    const outcome = await auth.authenticate(bearer(token));
    expect(outcome).toEqual({
      ok: true,
      principal: {
        id: OPAQUE_CLIENT.id,
        source: 'oauth',
        issuer: provider.issuer,
        groups: ['eng'],
        scopes: ['mcp'],
      },
    });
  });

  it('refuses an opaque token for another audience', async () => {
    const token = await opaqueToken('https://other.example/mcp');
    const outcome = await createAuthenticator({ apiKeys: [], oauth }).authenticate(bearer(token));
    expect(outcome).toMatchObject({
      ok: false,
      status: 401,
      message: 'Unauthorized: the token is not for this resource (aud)',
    });
  });

  it('refuses an unknown opaque token as not active', async () => {
    const outcome = await createAuthenticator({ apiKeys: [], oauth }).authenticate(bearer('no-such-token'));
    expect(outcome).toMatchObject({
      ok: false,
      status: 401,
      message: 'Unauthorized: the token is not active',
    });
  });

  it('answers 503 AUTH_UNAVAILABLE when the introspection endpoint is down', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/introspect`;
    const auth = createAuthenticator({
      apiKeys: [],
      oauth: { ...oauth, introspection: { endpoint: dead, clientId: 'x', clientSecret: 'y' } },
    });
    const outcome = await auth.authenticate(bearer('opaque-token'));
    expect(outcome).toMatchObject({ ok: false, status: 503, code: 'AUTH_UNAVAILABLE' });
    expect(outcome.ok ? undefined : outcome.wwwAuthenticate).toBeUndefined();
  });

  it('answers 503 AUTH_UNAVAILABLE for a JWT when the issuer cannot be reached', async () => {
    const gone = `http://127.0.0.1:${await freePort()}`;
    const auth = createAuthenticator({ apiKeys: [], oauth: { ...oauth, issuer: gone } });
    const minted = await (
      await createTestKey('k2')
    ).sign({ iss: gone, aud: audience, sub: 'a', exp: 4_000_000_000 });
    expect(await auth.authenticate(bearer(minted))).toMatchObject({
      ok: false,
      status: 503,
      code: 'AUTH_UNAVAILABLE',
    });
  });
});

describe("the gateway's own admin keys on /mcp", () => {
  it('refuses an admin key without sending it to the introspection endpoint', async () => {
    const received: string[] = [];
    const endpoint = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"active":false}');
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = endpoint.address() as AddressInfo;
      const auth = createAuthenticator(
        {
          apiKeys: [],
          oauth: {
            issuer: 'http://127.0.0.1:1',
            audience: 'http://127.0.0.1:8080/mcp',
            jwksUri: 'http://127.0.0.1:1/jwks',
            requiredScopes: [],
            clockSkewSeconds: 60,
            jwksCooldownMs: 30_000,
            principalClaim: 'sub',
            groupsClaim: 'groups',
            introspection: {
              endpoint: `http://127.0.0.1:${port}/introspect`,
              clientId: 'x',
              clientSecret: 'y',
            },
          } satisfies OAuthConfig,
        },
        { ownCredentials: ['admin-key-0123456789'] },
      );
      const outcome = await auth.authenticate(bearer('admin-key-0123456789'));
      expect(outcome).toMatchObject({ ok: false, status: 401, code: 'UNAUTHORIZED' });
      expect(outcome.ok ? '' : outcome.message).toMatch(/admin API key/);
      expect(received).toEqual([]);
      // Any other opaque token still goes to the provider.
      await auth.authenticate(bearer('some-opaque-token'));
      expect(received).toHaveLength(1);
    } finally {
      endpoint.close();
    }
  });
});
