import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './index.ts';
import type { LedgerRecord, Store } from './index.ts';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-repos-'));
  store = openStore({ path: join(dir, 'p.db') });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('upstreams', () => {
  it('is undefined before anything is recorded', () => {
    expect(store.upstreams.get('files')).toBeUndefined();
  });

  it('records connection and use independently, never moving backwards', () => {
    store.upstreams.recordConnected('files', 100);
    expect(store.upstreams.get('files')).toEqual({ id: 'files', lastConnectedAt: 100, lastUsedAt: null });
    store.upstreams.recordUsed('files', 200);
    store.upstreams.recordUsed('files', 150);
    store.upstreams.recordConnected('files', 300);
    expect(store.upstreams.get('files')).toEqual({ id: 'files', lastConnectedAt: 300, lastUsedAt: 200 });
    expect(store.upstreams.get('other')).toBeUndefined();
  });

  it('survives reopening', () => {
    store.upstreams.recordUsed('files', 7);
    store.close();
    store = openStore({ path: join(dir, 'p.db') });
    expect(store.upstreams.get('files')?.lastUsedAt).toBe(7);
  });
});

describe('ledger', () => {
  const record = (over: Partial<LedgerRecord> = {}): LedgerRecord => ({
    upstream: 'files',
    tool: 'read_file',
    hash: 'a'.repeat(64),
    profile: 'portcullis-tool/v1',
    status: 'ACTIVE',
    firstSeenAt: 1000,
    curatedAt: null,
    publishedAt: null,
    previousHash: null,
    definition: null,
    approvedHash: null,
    approvedDefinition: null,
    ...over,
  });

  it('puts, gets and replaces one record per (upstream, tool)', () => {
    store.ledger.put(record());
    expect(store.ledger.get('files', 'read_file')).toEqual(record());
    const changed = record({
      hash: 'b'.repeat(64),
      status: 'AWAITING_REREVIEW',
      previousHash: 'a'.repeat(64),
      definition: '{"name":"read_file"}',
      approvedHash: 'a'.repeat(64),
      approvedDefinition: '{"name":"read"}',
    });
    store.ledger.put(changed);
    expect(store.ledger.get('files', 'read_file')).toEqual(changed);
    expect(store.ledger.list()).toEqual([changed]);
    expect(store.ledger.get('files', 'write_file')).toBeUndefined();
  });

  it('lists records ordered by upstream then tool', () => {
    store.ledger.put(record({ upstream: 'z', tool: 'a' }));
    store.ledger.put(record({ upstream: 'a', tool: 'b', curatedAt: 5, publishedAt: 6 }));
    store.ledger.put(record({ upstream: 'a', tool: 'a', status: 'REVOKED' }));
    expect(store.ledger.list().map((r) => `${r.upstream}/${r.tool}`)).toEqual(['a/a', 'a/b', 'z/a']);
    expect(store.ledger.get('a', 'b')).toMatchObject({ curatedAt: 5, publishedAt: 6 });
  });

  it('rejects an unknown status', () => {
    expect(() => store.ledger.put(record({ status: 'MAYBE' as LedgerRecord['status'] }))).toThrow();
  });
});

describe('events', () => {
  it('appends and returns ids, and queries newest first with filters', () => {
    const a = store.events.append({
      type: 'ServerRiskComputed',
      at: 10,
      subject: 'files',
      payload: { level: 'L2' },
    });
    const b = store.events.append({
      type: 'PoisoningHit',
      at: 20,
      subject: 'files',
      payload: { pattern: 'X' },
    });
    const c = store.events.append({
      type: 'ServerRiskComputed',
      at: 30,
      subject: 'web',
      payload: { level: 'L4' },
    });
    expect(new Set([a, b, c]).size).toBe(3);

    expect(store.events.query().map((e) => e.id)).toEqual([c, b, a]);
    expect(store.events.query({ type: 'ServerRiskComputed' }).map((e) => e.id)).toEqual([c, a]);
    expect(store.events.query({ subject: 'files' }).map((e) => e.id)).toEqual([b, a]);
    expect(store.events.query({ since: 20 }).map((e) => e.id)).toEqual([c, b]);
    expect(store.events.query({ limit: 1 }).map((e) => e.id)).toEqual([c]);
    expect(store.events.query({ type: 'ServerRiskComputed', subject: 'files' })).toEqual([
      { id: a, type: 'ServerRiskComputed', at: 10, subject: 'files', payload: { level: 'L2' } },
    ]);
  });

  it('stores events without a subject', () => {
    const id = store.events.append({ type: 'ApprovalDecided', at: 1, payload: null });
    expect(store.events.query()).toEqual([
      { id, type: 'ApprovalDecided', at: 1, subject: null, payload: null },
    ]);
  });

  it('refuses an unknown event type', () => {
    expect(() => store.events.append({ type: 'Whatever' as 'PoisoningHit', at: 1, payload: {} })).toThrow(
      /unknown event type/,
    );
  });
});

describe('audit rows', () => {
  const row = (id: string) => ({
    id,
    time: '2026-11-28T20:00:00.000Z',
    timeMs: 1_795_896_000_000,
    principal: null,
    alias: 'echo',
    outcome: 'OK',
    decision: 'allow',
    record: `{"id":"${id}"}`,
  });
  // A stand-in chain: the digest names the row (from its record text) and the digest it follows.
  const link = (head: { digest: string } | undefined, record: string) => {
    const prevDigest = head?.digest ?? 'genesis';
    return { prevDigest, digest: `${prevDigest}>${(JSON.parse(record) as { id: string }).id}` };
  };

  it('with skipExisting leaves out ids already stored and chains the rest without a gap', () => {
    store.audit.append([row('a'), row('b')], link);
    const stored = store.audit.append([row('b'), row('c'), row('a'), row('d')], link, { skipExisting: true });
    expect(stored.map((r) => [r.seq, r.id, r.prevDigest])).toEqual([
      [3, 'c', 'genesis>a>b'],
      [4, 'd', 'genesis>a>b>c'],
    ]);
    expect(store.audit.head()).toEqual({ seq: 4, digest: 'genesis>a>b>c>d' });
    expect(store.audit.scan(0, 10).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('with skipExisting stores nothing and keeps the head when every id is stored already', () => {
    store.audit.append([row('a')], link);
    expect(store.audit.append([row('a')], link, { skipExisting: true })).toEqual([]);
    expect(store.audit.head()).toEqual({ seq: 1, digest: 'genesis>a' });
  });

  it('without skipExisting refuses a stored id and stores none of the batch', () => {
    store.audit.append([row('a')], link);
    expect(() => store.audit.append([row('b'), row('a')], link)).toThrow(/UNIQUE/);
    expect(store.audit.scan(0, 10).map((r) => r.id)).toEqual(['a']);
    expect(store.audit.head()).toEqual({ seq: 1, digest: 'genesis>a' });
  });
});
