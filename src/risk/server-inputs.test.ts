import { describe, expect, it } from 'vitest';
import type { CatalogEntry } from './catalog-types.ts';
import {
  RECENT_USE_WINDOW_MS,
  catalogOAuthScopes,
  isRecentlyUsed,
  isTrustedServer,
  resolveServerRiskInput,
  serverRiskFactors,
} from './server-inputs.ts';
import { scoreServerRisk } from './server-risk.ts';

const NOW = 1_800_000_000_000;
const DAY = 24 * 60 * 60 * 1000;

const ENTRY: CatalogEntry = {
  id: 'acme',
  name: 'Acme',
  match: { hosts: ['mcp.acme.example'] },
  trustSignals: ['vendor-official', 'made-up'],
  docsUrl: 'https://acme.example/docs',
  docsAdequate: true,
  transports: [
    { type: 'streamable-http', auth: 'OAUTH', oauthDefaults: { scopes: ['read', 'write'] } },
    { type: 'sse', auth: 'API_KEY', oauthDefaults: { scopes: ['write', 'tenant.admin'] } },
  ],
  tools: {
    list: {},
    edit: { riskFactors: { write: true } },
    run: { riskFactors: { exec: true, sendsUserData: true } },
  },
};

describe('isRecentlyUsed (90 days, R-SRV-4)', () => {
  it.each<[string, number | null | undefined, boolean]>([
    ['never used (null)', null, true],
    ['never used (undefined)', undefined, true],
    ['just now', NOW, true],
    ['89 days ago', NOW - 89 * DAY, true],
    ['one ms inside the window', NOW - RECENT_USE_WINDOW_MS + 1, true],
    ['exactly 90 days ago is a gap', NOW - 90 * DAY, false],
    ['91 days ago', NOW - 91 * DAY, false],
  ])('%s → %s', (_name, lastUsedAt, recent) => {
    expect(isRecentlyUsed(lastUsedAt, NOW)).toBe(recent);
  });
});

describe('resolveServerRiskInput (R-SRV-6)', () => {
  it('reads the catalog entry: first transport auth, parsed signals, scope union, write capability', () => {
    const input = resolveServerRiskInput(
      { transport: 'streamable-http', url: 'https://mcp.acme.example/mcp', lastUsedAt: NOW - 100 * DAY },
      ENTRY,
      NOW,
    );
    expect(input).toEqual({
      hostClass: 'PUBLIC',
      authMode: 'OAUTH_STANDARD',
      trustSignals: ['VENDOR_OFFICIAL'],
      userTyped: false,
      matchesCatalogHost: false,
      docs: { docsUrl: 'https://acme.example/docs', docsAdequate: true, recentlyUsed: false },
      writeCapability: true,
      oauthScopes: ['read', 'write', 'tenant.admin'],
    });
    // The union includes a privileged scope of the second transport.
    expect(scoreServerRisk(input).floorTrigger).toBe('privileged_oauth_scope');
  });

  it('takes endpoint when url is absent', () => {
    const input = resolveServerRiskInput({ transport: 'sse', endpoint: 'http://192.168.1.5/sse' }, null, NOW);
    expect(input.hostClass).toBe('PRIVATE_LAN');
  });

  it('infers auth from the connection without an entry', () => {
    expect(
      resolveServerRiskInput({ transport: 'sse', url: 'https://x.example', headers: {} }, null, NOW).authMode,
    ).toBe('BEARER');
    expect(
      resolveServerRiskInput({ transport: 'sse', url: 'https://x.example', oauth: {} }, null, NOW).authMode,
    ).toBe('OAUTH_STANDARD');
  });

  it('ignores connection headers when a catalog entry exists (the entry decides)', () => {
    const entry: CatalogEntry = { ...ENTRY, transports: [{ type: 'sse', auth: 'NONE' }] };
    expect(
      resolveServerRiskInput({ transport: 'sse', url: 'https://x', headers: { a: 'b' } }, entry, NOW)
        .authMode,
    ).toBe('NONE');
  });

  it('scores a user-typed loopback server with no auth L5 from the sum alone (0+0+2+2)', () => {
    const risk = scoreServerRisk(
      resolveServerRiskInput({ transport: 'streamable-http', url: 'http://localhost:3000/mcp' }, null, NOW),
    );
    expect(risk).toMatchObject({
      level: 'L5',
      totalScore: 4,
      floorTrigger: null,
      axisScores: { transport: 0, auth: 0, trust: 2, doc: 2 },
    });
  });

  it('fires the trust-unknown floor for a user-typed public URL with no auth', () => {
    const risk = scoreServerRisk(
      resolveServerRiskInput({ transport: 'streamable-http', url: 'https://random.example/mcp' }, null, NOW),
    );
    expect(risk.floorTrigger).toBe('non_loopback_no_auth_trust_unknown');
  });

  it('scores a vendor-official catalog server over HTTPS with OAuth L1', () => {
    const entry: CatalogEntry = { ...ENTRY, transports: [{ type: 'streamable-http', auth: 'OAUTH' }] };
    const risk = scoreServerRisk(
      resolveServerRiskInput({ transport: 'streamable-http', url: 'https://mcp.acme.example' }, entry, NOW),
    );
    expect(risk).toMatchObject({ level: 'L1', totalScore: 0, floorTrigger: null });
  });
});

describe('catalog-derived inputs', () => {
  it('ORs the tools risk factors', () => {
    expect(serverRiskFactors(ENTRY)).toEqual({
      write: true,
      exec: true,
      irreversible: false,
      sendsUserData: true,
    });
    expect(serverRiskFactors({ ...ENTRY, tools: {} })).toEqual({
      write: false,
      exec: false,
      irreversible: false,
      sendsUserData: false,
    });
  });

  it('unions the OAuth scopes in first-seen order', () => {
    expect(catalogOAuthScopes(ENTRY)).toEqual(['read', 'write', 'tenant.admin']);
  });

  it.each<[string, CatalogEntry | null, boolean]>([
    ['no entry', null, false],
    ['entry without signals', { ...ENTRY, trustSignals: [] }, false],
    ['entry with only an unknown signal', { ...ENTRY, trustSignals: ['archived'] }, true],
    ['entry with a known signal', ENTRY, true],
  ])('trusted server: %s → %s', (_name, entry, trusted) => {
    expect(isTrustedServer(entry)).toBe(trusted);
  });
});
