import { describe, expect, it } from 'vitest';
import { buildConfig } from './load-config.ts';

const build = (document: Record<string, unknown>, env: Record<string, string> = {}) =>
  buildConfig(document, 'test', '/srv', (name) => env[name]);

describe('auth configuration', () => {
  it('accepts bare and named API keys', () => {
    const config = build(
      { auth: { apiKeys: ['${BARE}', { key: '${NAMED}', name: 'ci-bot', groups: ['ci'] }] } },
      { BARE: 'bare-0123456789', NAMED: 'named-0123456789' },
    );
    expect(config.auth.apiKeys).toEqual([
      { key: 'bare-0123456789', groups: [], scopes: [] },
      { key: 'named-0123456789', name: 'ci-bot', groups: ['ci'], scopes: [] },
    ]);
    expect(config.secrets).toEqual(expect.arrayContaining(['bare-0123456789', 'named-0123456789']));
  });

  it('fills the OAuth defaults', () => {
    const config = build({
      auth: {
        oauth: { issuer: 'https://idp.example.com/realms/team', audience: 'https://gw.example.com/mcp' },
      },
    });
    expect(config.auth.oauth).toEqual({
      issuer: 'https://idp.example.com/realms/team',
      audience: 'https://gw.example.com/mcp',
      requiredScopes: [],
      principalClaim: 'sub',
      groupsClaim: 'groups',
      clockSkewSeconds: 30,
      jwksCooldownMs: 30_000,
    });
  });

  it('reads every OAuth key', () => {
    const config = build(
      {
        auth: {
          oauth: {
            issuer: 'https://login.example.com/tenant/v2.0',
            audience: 'https://portcullis.example.com/mcp',
            jwksUri: 'https://login.example.com/tenant/discovery/v2.0/keys',
            requiredScopes: ['mcp'],
            principalClaim: 'preferred_username',
            groupsClaim: 'roles',
            clockSkew: '90s',
            jwksCooldown: '1m',
            introspection: {
              endpoint: 'https://login.example.com/introspect',
              clientId: 'gw',
              clientSecret: '${S}',
            },
          },
        },
      },
      { S: 'introspection-secret' },
    );
    expect(config.auth.oauth).toMatchObject({ clockSkewSeconds: 90, jwksCooldownMs: 60_000 });
    expect(config.auth.oauth?.introspection?.clientSecret).toBe('introspection-secret');
  });

  it('reads admin roles for OAuth principals', () => {
    const config = build({
      auth: { oauth: { issuer: 'https://idp', audience: 'https://gw/mcp' } },
      admin: {
        oauth: { roles: { viewer: { groups: ['auditors'] }, admin: { scopes: ['portcullis.admin'] } } },
      },
    });
    expect(config.admin.oauth).toEqual({
      roles: {
        viewer: { groups: ['auditors'], scopes: [] },
        admin: { groups: [], scopes: ['portcullis.admin'] },
      },
    });
  });

  it.each([
    [
      'admin roles without an issuer',
      { admin: { oauth: { roles: { viewer: { groups: ['a'] } } } } },
      'admin.oauth: grants roles to OAuth principals, but auth.oauth is not configured',
    ],
    [
      'two keys with one name',
      {
        auth: {
          apiKeys: [
            { key: 'a-0123456789', name: 'x' },
            { key: 'b-0123456789', name: 'x' },
          ],
        },
      },
      'auth.apiKeys[1].name: "x" names another key too',
    ],
    [
      'an issuer that is not a URL',
      { auth: { oauth: { issuer: 'idp', audience: 'https://gw/mcp' } } },
      'issuer',
    ],
    ['a named key without a name', { auth: { apiKeys: [{ key: 'a-0123456789' }] } }, 'apiKeys'],
    [
      'a scope with a quote',
      { auth: { oauth: { issuer: 'https://idp', audience: 'https://gw/mcp', requiredScopes: ['a"b'] } } },
      'requiredScopes',
    ],
    ['an unknown admin role', { admin: { oauth: { roles: { root: { groups: ['a'] } } } } }, 'roles'],
  ])('refuses %s', (_name, document, problem) => {
    expect(() => build(document)).toThrow(problem);
  });
});
