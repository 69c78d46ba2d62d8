import { describe, expect, it } from 'vitest';
import type { AdminKeyConfig } from '../config/index.ts';
import type { Principal } from '../identity/index.ts';
import { createAdminAccess, oauthRole, roleAllows, type AdminRequestFacts } from './admin-access.ts';

const base: AdminRequestFacts = {
  method: 'GET',
  authorization: null,
  origin: null,
  secFetchSite: null,
  selfOrigin: 'http://127.0.0.1:8848',
  contentType: null,
  fromLoopback: true,
};
const withKeys = createAdminAccess({
  adminKeys: [
    { name: 'watch', key: 'viewer-secret', role: 'viewer' },
    { name: 'ops', key: 'operator-secret', role: 'operator' },
  ],
  apiKeys: ['mcp-secret'],
  allowedOrigins: ['https://console.example.com'],
  apiKeyPrincipal: (a) => (a === 'Bearer mcp-secret' ? 'key:mcp' : undefined),
});
const apiKeysOnly = createAdminAccess({
  adminKeys: [],
  apiKeys: ['mcp-secret'],
  allowedOrigins: [],
  apiKeyPrincipal: (a) => (a === 'Bearer mcp-secret' ? 'key:mcp' : undefined),
});
const none = createAdminAccess({
  adminKeys: [],
  apiKeys: [],
  allowedOrigins: [],
  apiKeyPrincipal: () => undefined,
});
const post = { method: 'POST', contentType: 'application/json' };

describe('createAdminAccess', () => {
  it('names its mode', () => {
    expect([withKeys.mode, apiKeysOnly.mode, none.mode]).toEqual(['admin-keys', 'api-keys', 'loopback']);
  });

  it.each<[string, ReturnType<typeof createAdminAccess>, Partial<AdminRequestFacts>, string]>([
    ['admin key → its role', withKeys, { authorization: 'Bearer operator-secret' }, 'admin:ops/operator'],
    ['viewer key', withKeys, { authorization: 'bearer viewer-secret ' }, 'admin:watch/viewer'],
    ['an /mcp key is no admin key', withKeys, { authorization: 'Bearer mcp-secret' }, '401 UNAUTHORIZED'],
    ['no key', withKeys, {}, '401 UNAUTHORIZED'],
    [
      'admin key from afar',
      withKeys,
      { authorization: 'Bearer ops', fromLoopback: false },
      '401 UNAUTHORIZED',
    ],
    [
      'admin key from afar is fine',
      withKeys,
      { authorization: 'Bearer operator-secret', fromLoopback: false },
      'admin:ops/operator',
    ],
    [
      'allowed browser origin',
      withKeys,
      { ...post, authorization: 'Bearer operator-secret', origin: 'https://console.example.com' },
      'admin:ops/operator',
    ],
    [
      'other browser origin',
      withKeys,
      { ...post, authorization: 'Bearer operator-secret', origin: 'http://localhost:3000' },
      '403 FORBIDDEN_ORIGIN',
    ],
    [
      'same origin',
      withKeys,
      { ...post, authorization: 'Bearer operator-secret', origin: 'http://127.0.0.1:8848' },
      'admin:ops/operator',
    ],
    [
      'write that is not JSON',
      withKeys,
      { method: 'POST', contentType: 'text/plain', authorization: 'Bearer operator-secret' },
      '415 UNSUPPORTED_MEDIA_TYPE',
    ],
    ['api key on loopback → admin', apiKeysOnly, { authorization: 'Bearer mcp-secret' }, 'key:mcp/admin'],
    [
      'api key from afar',
      apiKeysOnly,
      { authorization: 'Bearer mcp-secret', fromLoopback: false },
      '403 FORBIDDEN',
    ],
    ['wrong api key', apiKeysOnly, { authorization: 'Bearer nope' }, '401 UNAUTHORIZED'],
    ['no keys, loopback CLI', none, {}, 'local/admin'],
    ['no keys, from afar', none, { fromLoopback: false }, '403 FORBIDDEN'],
    ['no keys, cross-site page', none, { secFetchSite: 'cross-site' }, '403 FORBIDDEN_ORIGIN'],
    ['no keys, same-site page', none, { ...post, origin: 'http://localhost:3000' }, '403 FORBIDDEN_ORIGIN'],
  ])('%s', (_name, access, facts, expected) => {
    const decision = access.decide({ ...base, ...facts });
    expect(decision.ok ? `${decision.actor}/${decision.role}` : `${decision.status} ${decision.code}`).toBe(
      expected,
    );
  });

  it('refuses an admin key that is also an /mcp key', () => {
    expect(() =>
      createAdminAccess({
        adminKeys: [{ name: 'x', key: 'same', role: 'admin' }],
        apiKeys: ['same'],
        allowedOrigins: [],
        apiKeyPrincipal: () => undefined,
      }),
    ).toThrow(/admin.keys key is also listed in auth.apiKeys/);
  });

  it.each([
    ['viewer', 'viewer', true],
    ['viewer', 'operator', false],
    ['operator', 'operator', true],
    ['operator', 'admin', false],
    ['admin', 'operator', true],
  ] as const)('%s may act as %s: %s', (role, needed, allowed) => {
    expect(roleAllows(role, needed)).toBe(allowed);
  });
});

describe('admin roles for OAuth principals', () => {
  const person = (
    groups: string[],
    scopes: string[] = [],
    source: Principal['source'] = 'oauth',
  ): Principal => ({
    id: 'alice@example.com',
    source,
    issuer: 'https://idp.example.com',
    groups,
    scopes,
  });
  const roles = {
    roles: {
      viewer: { groups: ['auditors'], scopes: [] },
      operator: { groups: ['sre'], scopes: ['portcullis.operate'] },
      admin: { groups: ['platform-admins'], scopes: [] },
    },
  };
  const seen: (string | null)[] = [];
  const make = (adminKeys: AdminKeyConfig[]) =>
    createAdminAccess({
      adminKeys,
      apiKeys: [],
      allowedOrigins: [],
      apiKeyPrincipal: () => undefined,
      oauth: {
        roles,
        principal: async (authorization) => {
          seen.push(authorization);
          return undefined;
        },
      },
    });
  const oauthOnly = make([]);
  const keysAndOauth = make([{ name: 'ops', key: 'operator-secret', role: 'operator' }]);

  it('names its mode', () => {
    expect([oauthOnly.mode, keysAndOauth.mode]).toEqual(['admin-oauth', 'admin-keys']);
  });

  it.each([
    ['a group that holds viewer', person(['auditors']), 'viewer'],
    ['a scope that holds operator', person([], ['portcullis.operate']), 'operator'],
    ['the highest of several roles', person(['auditors', 'platform-admins', 'sre']), 'admin'],
    ['no matching group or scope', person(['contractors'], ['mcp']), undefined],
    ['an API-key principal with a matching group', person(['platform-admins'], [], 'api-key'), undefined],
  ] as const)('%s → %s', (_name, principal, role) => {
    expect(oauthRole(principal, roles)).toBe(role);
  });

  it.each([
    [
      'a group member, from afar',
      oauthOnly,
      { principal: person(['sre']), fromLoopback: false },
      'alice@example.com/operator',
    ],
    ['a person with no role', oauthOnly, { principal: person(['contractors']) }, '403 FORBIDDEN'],
    ['no valid token', oauthOnly, { authorization: 'Bearer nope' }, '401 UNAUTHORIZED'],
    [
      'an admin key beside OAuth roles',
      keysAndOauth,
      { authorization: 'Bearer operator-secret' },
      'admin:ops/operator',
    ],
    [
      'a person beside admin keys',
      keysAndOauth,
      { principal: person(['auditors']) },
      'alice@example.com/viewer',
    ],
    [
      'a person from another origin',
      oauthOnly,
      { ...post, principal: person(['sre']), origin: 'https://evil.example' },
      '403 FORBIDDEN_ORIGIN',
    ],
  ] as const)('%s', (_name, access, facts, expected) => {
    const decision = access.decide({ ...base, ...facts });
    expect(decision.ok ? `${decision.actor}/${decision.role}` : `${decision.status} ${decision.code}`).toBe(
      expected,
    );
  });

  it('never sends an admin key to the token check', async () => {
    seen.length = 0;
    expect(await keysAndOauth.identify('Bearer operator-secret')).toBeUndefined();
    await keysAndOauth.identify('Bearer some.jwt.token');
    expect(seen).toEqual(['Bearer some.jwt.token']);
  });
});
