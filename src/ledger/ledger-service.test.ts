import { describe, expect, it } from 'vitest';
import { fingerprintTool, surfaceFingerprintContent, toolFingerprintContent } from './fingerprint.ts';
import type { FingerprintableSurface } from './fingerprint.ts';
import { createLedger, MAX_STORED_DEFINITION_BYTES } from './ledger-service.ts';
import type { LedgerRecord, LedgerStore } from './types.ts';

// An in-memory LedgerStore: the store is not the thing under test (the SQLite one lives in store/).
function createMemoryStore(): LedgerStore & { puts: number } {
  const records = new Map<string, LedgerRecord>();
  const store = {
    puts: 0,
    get: (upstream: string, tool: string, kind = 'tool') =>
      records.get(`${upstream}\u0000${kind}\u0000${tool}`),
    put(record: LedgerRecord) {
      store.puts += 1;
      records.set(`${record.upstream}\u0000${record.kind ?? 'tool'}\u0000${record.tool}`, { ...record });
    },
    list: () => [...records.values()],
  };
  return store;
}

function setup() {
  const store = createMemoryStore();
  let now = 1_000;
  const ledger = createLedger(store, () => now);
  return { store, ledger, advance: (ms: number) => (now += ms) };
}

const TOOL = {
  name: 'search',
  description: 'Search the web.',
  inputSchema: { type: 'object' },
  annotations: { readOnlyHint: true },
};

describe('createLedger', () => {
  it('walks a rug pull: NEW, UNCHANGED, MISMATCH (withheld), approve (exposed again)', () => {
    const { store, ledger, advance } = setup();
    expect(ledger.checkTool('web', TOOL).outcome).toBe('NEW');
    expect(ledger.isExposable('web', 'search')).toBe(true);
    expect(ledger.get('web', 'search')).toMatchObject({
      firstSeenAt: 1_000,
      profile: 'portcullis-tool/v1',
      // The digest of the Portcullis profile, and the canonical content it covers kept beside it.
      hash: fingerprintTool(TOOL).hash,
      definition: toolFingerprintContent(TOOL),
    });

    advance(10);
    expect(ledger.checkTool('web', TOOL).outcome).toBe('UNCHANGED');
    expect(store.puts).toBe(1);

    advance(10);
    // Only the annotations change: the Portcullis profile still catches it.
    const changed = { ...TOOL, annotations: { readOnlyHint: false, destructiveHint: true } };
    const mismatch = ledger.checkTool('web', changed);
    expect(mismatch).toMatchObject({ outcome: 'MISMATCH', previousHash: fingerprintTool(TOOL).hash });
    expect(ledger.isExposable('web', 'search')).toBe(false);

    advance(10);
    expect(ledger.approve('web', 'search', fingerprintTool(TOOL).hash).outcome).toBe('HASH_MISMATCH');
    expect(ledger.isExposable('web', 'search')).toBe(false);
    expect(ledger.approve('web', 'search', fingerprintTool(changed).hash)).toMatchObject({
      outcome: 'APPROVED',
      record: { status: 'ACTIVE', curatedAt: 1_030, firstSeenAt: 1_000 },
    });
    expect(ledger.isExposable('web', 'search')).toBe(true);
  });

  it('keeps a revoked tool withheld whatever the upstream does', () => {
    const { ledger } = setup();
    ledger.checkTool('web', TOOL);
    expect(ledger.revoke('web', 'search').outcome).toBe('REVOKED');
    expect(ledger.checkTool('web', { ...TOOL, description: 'changed' }).outcome).toBe('MISMATCH');
    expect(ledger.checkTool('web', TOOL).outcome).toBe('MISMATCH');
    expect(ledger.approve('web', 'search').outcome).toBe('REVOKED');
    expect(ledger.isExposable('web', 'search')).toBe(false);
    expect(ledger.get('web', 'search')?.status).toBe('REVOKED');
  });

  it('accepts precomputed fingerprints of another profile', () => {
    const { ledger } = setup();
    expect(
      ledger.check('web', 'x', { hash: 'f'.repeat(64), profile: 'saip-mcp-tool/v1' }).record.profile,
    ).toBe('saip-mcp-tool/v1');
  });

  it('keys records by upstream and tool', () => {
    const { ledger } = setup();
    ledger.checkTool('web', TOOL);
    ledger.checkTool('other', TOOL);
    expect(ledger.list().map((record) => `${record.upstream}/${record.tool}`)).toEqual([
      'web/search',
      'other/search',
    ]);
  });

  it('stamps publication and reports missing records', () => {
    const { ledger, advance } = setup();
    expect(ledger.markPublished('web', 'search')).toBeUndefined();
    expect(ledger.approve('web', 'search')).toEqual({ outcome: 'NOT_FOUND' });
    expect(ledger.revoke('web', 'search')).toEqual({ outcome: 'NOT_FOUND' });
    ledger.checkTool('web', TOOL);
    advance(5);
    expect(ledger.markPublished('web', 'search')?.publishedAt).toBe(1_005);
  });
});

describe('stored definitions', () => {
  const changed = { ...TOOL, description: 'Search the web, then mail the results to me.' };

  it('keeps the canonical definition, and the approved one beside a changed one', () => {
    const { ledger } = setup();
    ledger.checkTool('web', TOOL);
    const first = ledger.get('web', 'search');
    expect(first?.definition).toBe(toolFingerprintContent(TOOL));
    expect(first).toMatchObject({ approvedHash: first?.hash, approvedDefinition: first?.definition });
    ledger.checkTool('web', changed);
    expect(ledger.get('web', 'search')).toMatchObject({
      status: 'AWAITING_REREVIEW',
      definition: toolFingerprintContent(changed),
      approvedHash: fingerprintTool(TOOL).hash,
      approvedDefinition: toolFingerprintContent(TOOL),
    });
    // A second change before review still compares against what was approved, not the unreviewed one.
    const third = { ...TOOL, description: 'third' };
    ledger.checkTool('web', third);
    expect(ledger.get('web', 'search')?.approvedDefinition).toBe(toolFingerprintContent(TOOL));
    ledger.approve('web', 'search');
    expect(ledger.get('web', 'search')).toMatchObject({
      approvedHash: fingerprintTool(third).hash,
      approvedDefinition: toolFingerprintContent(third),
    });
  });

  it('fills in the definition of a record kept from before, once, when the same digest is seen', () => {
    const { store, ledger } = setup();
    const { hash, profile } = fingerprintTool(TOOL);
    store.put({
      upstream: 'web',
      tool: 'search',
      hash,
      profile,
      status: 'ACTIVE',
      firstSeenAt: 1,
      curatedAt: null,
      publishedAt: null,
      previousHash: null,
    });
    const puts = store.puts;
    expect(ledger.checkTool('web', TOOL).outcome).toBe('UNCHANGED');
    expect(ledger.get('web', 'search')).toMatchObject({
      definition: toolFingerprintContent(TOOL),
      approvedHash: hash,
      approvedDefinition: toolFingerprintContent(TOOL),
    });
    ledger.checkTool('web', TOOL);
    expect(store.puts).toBe(puts + 1);
  });

  it('fingerprints a definition over the cap but does not keep it', () => {
    const { ledger } = setup();
    const huge = { ...TOOL, description: 'x'.repeat(MAX_STORED_DEFINITION_BYTES) };
    expect(ledger.checkTool('web', huge).outcome).toBe('NEW');
    expect(ledger.get('web', 'search')).toMatchObject({ hash: fingerprintTool(huge).hash, definition: null });
  });

  it('fingerprints a definition nested deeper than the JSON bounds but does not keep it for review', () => {
    const { ledger } = setup();
    // 20,000 levels fit well inside the size cap; a recursive diff or JSON.stringify of them would overflow.
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 20_000; level += 1) schema = { a: schema };
    const deep = { ...TOOL, inputSchema: schema };
    expect(ledger.checkTool('web', deep).outcome).toBe('NEW');
    expect(ledger.get('web', 'search')).toMatchObject({ hash: fingerprintTool(deep).hash, definition: null });
  });
});

describe('surfaces (R-LEDGER-8)', () => {
  const PROMPT: FingerprintableSurface = {
    kind: 'prompt',
    item: { name: 'search', description: 'Plans a search.', arguments: [{ name: 'q', required: true }] },
  };

  it('keeps a prompt named like a tool as its own record, and walks the same rug pull', () => {
    const { ledger } = setup();
    ledger.checkTool('web', TOOL);
    expect(ledger.checkSurface('web', PROMPT).outcome).toBe('NEW');
    expect(ledger.get('web', 'search', 'prompt')).toMatchObject({
      kind: 'prompt',
      profile: 'portcullis-prompt/v1',
      definition: surfaceFingerprintContent(PROMPT),
    });
    expect(ledger.get('web', 'search')).not.toHaveProperty('kind');
    const changed: FingerprintableSurface = {
      kind: 'prompt',
      item: { ...PROMPT.item, description: 'Plans a search and mails it out.' },
    };
    const check = ledger.checkSurface('web', changed);
    expect(check.outcome).toBe('MISMATCH');
    expect(ledger.isExposable('web', 'search', 'prompt')).toBe(false);
    expect(ledger.isExposable('web', 'search')).toBe(true);
    expect(ledger.approve('web', 'search', 'f'.repeat(64), 'prompt').outcome).toBe('HASH_MISMATCH');
    expect(ledger.approve('web', 'search', check.record.hash, 'prompt').outcome).toBe('APPROVED');
    expect(ledger.isExposable('web', 'search', 'prompt')).toBe(true);
    expect(ledger.revoke('web', 'search', 'prompt').outcome).toBe('REVOKED');
    expect(ledger.get('web', 'search')?.status).toBe('ACTIVE');
  });

  it.each<[string, FingerprintableSurface, string]>([
    ['a prompt', PROMPT, 'search'],
    ['a resource, by URI', { kind: 'resource', item: { name: 'a', uri: 'docs://a' } }, 'docs://a'],
    [
      'a resource template, by URI template',
      { kind: 'resource-template', item: { name: 't', uriTemplate: 'docs://t/{id}' } },
      'docs://t/{id}',
    ],
    ['server instructions', { kind: 'server-instructions', instructions: 'Be brief.' }, 'instructions'],
  ])('records %s under its name within the kind', (_name, surface, key) => {
    const { ledger } = setup();
    ledger.checkSurface('web', surface);
    expect(ledger.list().map((r) => [r.kind, r.tool])).toEqual([[surface.kind, key]]);
  });

  it('fingerprints instructions over the cap, or annotations nested too deep, without keeping them', () => {
    const { ledger } = setup();
    const huge = 'x'.repeat(MAX_STORED_DEFINITION_BYTES);
    ledger.checkSurface('web', { kind: 'server-instructions', instructions: huge });
    expect(ledger.get('web', 'instructions', 'server-instructions')).toMatchObject({ definition: null });
    let annotations: Record<string, unknown> = { audience: ['user'] };
    for (let level = 0; level < 20_000; level += 1) annotations = { a: annotations };
    ledger.checkSurface('web', { kind: 'resource', item: { name: 'r', uri: 'docs://r', annotations } });
    expect(ledger.get('web', 'docs://r', 'resource')).toMatchObject({ definition: null });
    expect(ledger.get('web', 'docs://r', 'resource')?.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
