import { describe, expect, it } from 'vitest';
import { isPrivilegedScope, scoreServerRisk } from './server-risk.ts';
import type { ServerRiskInput } from './server-risk.ts';

// A vendor-official catalog server over stdio with complete docs: every axis 0.
const BASE: ServerRiskInput = {
  hostClass: 'STDIO',
  authMode: 'NONE',
  trustSignals: ['VENDOR_OFFICIAL'],
  userTyped: false,
  matchesCatalogHost: false,
  docs: { docsUrl: 'https://docs.example.com', docsAdequate: true, recentlyUsed: true },
  writeCapability: false,
  oauthScopes: [],
};

function score(patch: Partial<ServerRiskInput>) {
  return scoreServerRisk({ ...BASE, ...patch });
}

describe('server transport axis', () => {
  it.each([
    ['STDIO', 0],
    ['LOOPBACK', 0],
    ['PRIVATE_LAN', 1],
    ['PUBLIC', 0],
  ] as const)('%s → %i', (hostClass, points) => {
    expect(score({ hostClass, authMode: 'OAUTH_STANDARD' }).axisScores.transport).toBe(points);
  });
});

describe('server auth axis', () => {
  it.each([
    ['STDIO', 'OAUTH_CUSTOM', 0],
    ['LOOPBACK', 'BEARER', 0],
    ['PUBLIC', null, 0],
    ['PUBLIC', 'NONE', 0],
    ['PUBLIC', 'OAUTH_STANDARD', 0],
    ['PUBLIC', 'API_KEY', 1],
    ['PUBLIC', 'BEARER', 1],
    ['PRIVATE_LAN', 'OAUTH_CUSTOM', 2],
  ] as const)('%s with %s → %i', (hostClass, authMode, points) => {
    expect(score({ hostClass, authMode }).axisScores.auth).toBe(points);
  });
});

describe('server trust axis', () => {
  it.each<[string, Partial<ServerRiskInput>, number]>([
    ['vendor official', {}, 0],
    ['community curated', { trustSignals: ['COMMUNITY_CURATED'] }, 1],
    ['vendor beats community', { trustSignals: ['COMMUNITY_CURATED', 'VENDOR_OFFICIAL'] }, 0],
    [
      'other signals do not lower it',
      { trustSignals: ['AUDITED', 'WIDELY_USED', 'AGED_6MO', 'LAST_REVIEWED_RECENT'] },
      2,
    ],
    ['no signals', { trustSignals: [] }, 2],
    ['user-typed, host matches catalog', { userTyped: true, matchesCatalogHost: true }, 1],
    ['user-typed, unknown host (signals ignored)', { userTyped: true }, 2],
  ])('%s → %i', (_name, patch, points) => {
    expect(score(patch).axisScores.trust).toBe(points);
  });
});

describe('server doc axis', () => {
  it.each<[string, ServerRiskInput['docs'], number, string[]]>([
    ['complete', BASE.docs, 0, []],
    ['null record counts as complete', null, 0, []],
    ['blank url', { docsUrl: '  ', docsAdequate: true, recentlyUsed: true }, 1, ['docs_url_missing']],
    ['inadequate', { docsUrl: 'x', docsAdequate: false, recentlyUsed: true }, 1, ['docs_inadequate']],
    ['stale', { docsUrl: 'x', docsAdequate: true, recentlyUsed: false }, 1, ['not_used_recently']],
    [
      'two gaps',
      { docsUrl: null, docsAdequate: false, recentlyUsed: true },
      2,
      ['docs_url_missing', 'docs_inadequate'],
    ],
    [
      'three gaps cap at 2',
      { docsUrl: null, docsAdequate: false, recentlyUsed: false },
      2,
      ['docs_url_missing', 'docs_inadequate', 'not_used_recently'],
    ],
  ])('%s → %i', (_name, docs, points, gaps) => {
    const result = score({ docs });
    expect(result.axisScores.doc).toBe(points);
    expect(result.docGaps).toEqual(gaps);
  });
});

describe('server bucketing of the sum', () => {
  it.each<[string, Partial<ServerRiskInput>, number, string]>([
    ['all zero', {}, 0, 'L1'],
    ['private LAN only', { hostClass: 'PRIVATE_LAN', authMode: 'OAUTH_STANDARD' }, 1, 'L2'],
    [
      'community + one doc gap',
      {
        trustSignals: ['COMMUNITY_CURATED'],
        docs: { docsUrl: null, docsAdequate: true, recentlyUsed: true },
      },
      2,
      'L3',
    ],
    [
      'LAN + API key + community',
      { hostClass: 'PRIVATE_LAN', authMode: 'API_KEY', trustSignals: ['COMMUNITY_CURATED'] },
      3,
      'L4',
    ],
    // R-SRV-6: a user-typed loopback server with no auth reaches L5 from the sum alone.
    [
      'user-typed loopback, no docs',
      {
        hostClass: 'LOOPBACK',
        userTyped: true,
        trustSignals: [],
        docs: { docsUrl: null, docsAdequate: false, recentlyUsed: true },
      },
      4,
      'L5',
    ],
  ])('%s → total %i, %s, no floor', (_name, patch, total, level) => {
    const result = score(patch);
    expect(result.totalScore).toBe(total);
    expect(result.level).toBe(level);
    expect(result.floorTrigger).toBeNull();
  });
});

describe('server floors (first hit wins, L5, axes still reported)', () => {
  it.each<[string, Partial<ServerRiskInput>, string | null]>([
    [
      'public, no auth, write',
      { hostClass: 'PUBLIC', writeCapability: true },
      'non_loopback_no_auth_write_capability',
    ],
    [
      'LAN, null auth, write',
      { hostClass: 'PRIVATE_LAN', authMode: null, writeCapability: true },
      'non_loopback_no_auth_write_capability',
    ],
    ['near miss: loopback, no auth, write', { hostClass: 'LOOPBACK', writeCapability: true }, null],
    ['near miss: stdio, no auth, write', { writeCapability: true }, null],
    [
      'near miss: public, bearer, write',
      { hostClass: 'PUBLIC', authMode: 'BEARER', writeCapability: true },
      null,
    ],
    [
      'public, no auth, user-typed unknown',
      { hostClass: 'PUBLIC', userTyped: true, trustSignals: [] },
      'non_loopback_no_auth_trust_unknown',
    ],
    [
      'near miss: user-typed but host matches catalog',
      { hostClass: 'PUBLIC', userTyped: true, matchesCatalogHost: true, trustSignals: [] },
      null,
    ],
    ['near miss: catalog entry, not user-typed', { hostClass: 'PUBLIC', trustSignals: [] }, null],
    [
      'near miss: community signal',
      { hostClass: 'PUBLIC', userTyped: true, trustSignals: ['COMMUNITY_CURATED'] },
      null,
    ],
    ['near miss: loopback user-typed', { hostClass: 'LOOPBACK', userTyped: true, trustSignals: [] }, null],
    [
      'write floor checked before trust floor',
      { hostClass: 'PUBLIC', userTyped: true, trustSignals: [], writeCapability: true },
      'non_loopback_no_auth_write_capability',
    ],
    ['privileged scope on stdio', { oauthScopes: ['repo', 'admin:org'] }, 'privileged_oauth_scope'],
    [
      'privileged scope on loopback',
      { hostClass: 'LOOPBACK', oauthScopes: ['Files.ReadWrite.All'] },
      'privileged_oauth_scope',
    ],
    ['near miss: ordinary scopes', { oauthScopes: ['repo', 'read:user', 'files.read'] }, null],
  ])('%s → %s', (_name, patch, trigger) => {
    const result = score(patch);
    expect(result.floorTrigger).toBe(trigger);
    if (trigger !== null) expect(result.level).toBe('L5');
    expect(
      result.axisScores.transport + result.axisScores.auth + result.axisScores.trust + result.axisScores.doc,
    ).toBe(result.totalScore);
  });

  it('reports the low sum beside the L5 floor', () => {
    const result = score({ oauthScopes: ['admin'] });
    expect(result).toMatchObject({ level: 'L5', totalScore: 0, floorTrigger: 'privileged_oauth_scope' });
  });
});

describe('isPrivilegedScope (plain substring tests)', () => {
  it.each([
    ['admin', true],
    ['Admin', true],
    ['admin:org', true],
    ['write_all', true],
    ['Delete_Items', true],
    ['Files.ReadWrite.All', true],
    ['read.allowlist', true],
    ['tenant.admin', true],
    ['repo', false],
    ['files.read', false],
    ['delete', false],
    ['write', false],
  ] as const)('%s → %s', (scope, privileged) => {
    expect(isPrivilegedScope(scope)).toBe(privileged);
  });
});
