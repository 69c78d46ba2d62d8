/** The pure parts of identity: claim mapping, scope parsing, the Bearer challenge and the metadata URL. */
import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../src/identity/challenge.ts';
import {
  claimStrings,
  MAX_CLAIM_ENTRIES,
  missingScopes,
  principalFromClaims,
  readClaim,
  scopesOf,
} from '../../src/identity/claims.ts';
import { protectedResourceMetadataUrl } from '../../src/identity/protected-resource.ts';
import { checkIntrospected } from '../../src/identity/introspection.ts';
import { metadataUrls } from '../../src/identity/jwt-verifier.ts';

describe('scopes', () => {
  it.each([
    ['space-separated scope', { scope: 'mcp  files.read' }, ['mcp', 'files.read']],
    ['Entra/Okta scp array', { scp: ['mcp', 'files.read'] }, ['mcp', 'files.read']],
    ['scp as a string', { scp: 'mcp files.read' }, ['mcp', 'files.read']],
    ['both, without duplicates', { scope: 'mcp a', scp: ['mcp', 'b'] }, ['mcp', 'a', 'b']],
    ['non-strings dropped', { scp: ['mcp', 7, null] }, ['mcp']],
    ['none', {}, []],
  ])('%s', (_name, claims, expected) => {
    expect(scopesOf(claims)).toEqual(expected);
  });

  it.each([
    [['mcp', 'a'], ['mcp'], []],
    [['a'], ['mcp', 'a', 'b'], ['mcp', 'b']],
    [[], [], []],
  ])('holding %j of %j lacks %j', (have, required, missing) => {
    expect(missingScopes(have, required)).toEqual(missing);
  });

  it('keeps at most MAX_CLAIM_ENTRIES entries', () => {
    const many = Array.from({ length: MAX_CLAIM_ENTRIES + 10 }, (_, i) => `g${i}`);
    expect(claimStrings(many)).toHaveLength(MAX_CLAIM_ENTRIES);
  });
});

describe('claims', () => {
  it.each([
    ['exact name', { sub: 'a' }, 'sub', 'a'],
    [
      'namespaced claim with dots',
      { 'https://example.com/groups': ['x'] },
      'https://example.com/groups',
      ['x'],
    ],
    ['dotted path (Keycloak realm roles)', { realm_access: { roles: ['r'] } }, 'realm_access.roles', ['r']],
    ['missing path', { realm_access: {} }, 'realm_access.roles', undefined],
    ['no walking into arrays', { a: [{ b: 1 }] }, 'a.0.b', undefined],
    ['no prototype lookups', {}, 'constructor', undefined],
  ])('%s', (_name, claims, name, expected) => {
    expect(readClaim(claims, name)).toEqual(expected);
  });

  const mapping = { principalClaim: 'sub', groupsClaim: 'groups' };
  it.each([
    [
      'sub and groups',
      { sub: 'u-1', groups: ['eng', 'eng', 'ops'], scope: 'mcp' },
      mapping,
      { id: 'u-1', source: 'oauth', issuer: 'https://idp', groups: ['eng', 'ops'], scopes: ['mcp'] },
    ],
    [
      'Entra: preferred_username and roles',
      { oid: 'o-1', preferred_username: 'alice@contoso.com', roles: ['Portcullis.Admin'], scp: 'mcp' },
      { principalClaim: 'preferred_username', groupsClaim: 'roles' },
      {
        id: 'alice@contoso.com',
        source: 'oauth',
        issuer: 'https://idp',
        groups: ['Portcullis.Admin'],
        scopes: ['mcp'],
      },
    ],
    [
      'Google: email, no groups claim',
      { email: 'bob@example.com', sub: '1234' },
      { principalClaim: 'email', groupsClaim: 'groups' },
      { id: 'bob@example.com', source: 'oauth', issuer: 'https://idp', groups: [], scopes: [] },
    ],
    [
      'a numeric id',
      { sub: 42 },
      mapping,
      { id: '42', source: 'oauth', issuer: 'https://idp', groups: [], scopes: [] },
    ],
  ])('%s', (_name, claims, map, expected) => {
    const mapped = principalFromClaims(claims, map, 'https://idp');
    expect(mapped).toEqual({ ok: true, principal: expected });
  });

  it.each([
    ['missing', {}],
    ['an object', { sub: { a: 1 } }],
    ['empty', { sub: '' }],
    ['with a control character', { sub: 'a\nb' }],
    ['too long', { sub: 'x'.repeat(257) }],
  ])('refuses a principal claim that is %s', (_name, claims) => {
    expect(principalFromClaims(claims, mapping, 'https://idp').ok).toBe(false);
  });
});

describe('Bearer challenge', () => {
  it.each([
    [{}, 'Bearer'],
    [{ realm: 'portcullis' }, 'Bearer realm="portcullis"'],
    [
      { resourceMetadata: 'https://gw/.well-known/oauth-protected-resource/mcp', scope: ['mcp', 'files'] },
      'Bearer resource_metadata="https://gw/.well-known/oauth-protected-resource/mcp", scope="mcp files"',
    ],
    [
      { scope: [], error: 'invalid_token', description: 'the "token" has \\ expired\r\n' },
      'Bearer error="invalid_token", error_description="the token has  expired"',
    ],
    [
      {
        resourceMetadata: 'https://gw/x',
        scope: ['mcp'],
        error: 'insufficient_scope',
        description: 'needs mcp',
      },
      'Bearer resource_metadata="https://gw/x", scope="mcp", error="insufficient_scope", error_description="needs mcp"',
    ],
  ] as const)('%j → %s', (challenge, header) => {
    expect(bearerChallenge(challenge)).toBe(header);
  });
});

describe('metadata locations', () => {
  const oauth = (audience: string) => ({
    issuer: 'https://idp',
    audience,
    requiredScopes: [],
    principalClaim: 'sub',
    groupsClaim: 'groups',
    clockSkewSeconds: 30,
    jwksCooldownMs: 30_000,
  });
  it.each([
    [
      'https://gw.example.com/mcp',
      undefined,
      'https://gw.example.com/.well-known/oauth-protected-resource/mcp',
    ],
    [
      'https://gw.example.com/mcp',
      'readonly',
      'https://gw.example.com/.well-known/oauth-protected-resource/mcp/readonly',
    ],
    ['https://gw.example.com/', undefined, 'https://gw.example.com/.well-known/oauth-protected-resource'],
    [
      'https://gw.example.com:8443/tools/mcp/',
      undefined,
      'https://gw.example.com:8443/.well-known/oauth-protected-resource/tools/mcp',
    ],
  ])('resource %s, profile %s → %s', (audience, profile, url) => {
    expect(protectedResourceMetadataUrl(oauth(audience), profile)).toBe(url);
  });

  it.each([
    [
      'https://idp.example.com',
      [
        'https://idp.example.com/.well-known/openid-configuration',
        'https://idp.example.com/.well-known/oauth-authorization-server',
      ],
    ],
    [
      'https://kc.example.com/realms/team',
      [
        'https://kc.example.com/realms/team/.well-known/openid-configuration',
        'https://kc.example.com/.well-known/oauth-authorization-server/realms/team',
      ],
    ],
  ])('issuer %s metadata at %j', (issuer, urls) => {
    expect(metadataUrls(issuer)).toEqual(urls);
  });
});

describe('introspection answers', () => {
  const oauth = { issuer: 'https://idp', audience: 'https://gw/mcp', clockSkewSeconds: 30 };
  const now = 1_800_000_000_000;
  const active = { active: true, iss: 'https://idp', aud: 'https://gw/mcp', exp: now / 1000 + 60, sub: 'a' };
  it.each([
    ['active, for this audience', active, 'ok'],
    ['aud as a list', { ...active, aud: ['x', 'https://gw/mcp'] }, 'ok'],
    ['inactive', { active: false }, 'the token is not active'],
    ['active as a string', { ...active, active: 'true' }, 'the token is not active'],
    ['another issuer', { ...active, iss: 'https://evil' }, 'the token is from another issuer (iss)'],
    ['no audience', { ...active, aud: undefined }, 'the token is not for this resource (aud)'],
    ['expired beyond the skew', { ...active, exp: now / 1000 - 31 }, 'the token has expired'],
    ['expired within the skew', { ...active, exp: now / 1000 - 29 }, 'ok'],
    ['not yet valid', { ...active, nbf: now / 1000 + 31 }, 'the token is not valid yet (nbf)'],
  ])('%s', (_name, answer, expected) => {
    const check = checkIntrospected(answer, oauth, now);
    expect(check.ok ? 'ok' : check.reason).toBe(expected);
  });
});
