import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../store/index.ts';
import { createAuditLog, createAuditWriter, verifyAuditChain } from './index.ts';
import type { AuditInput, AuditLog } from './index.ts';
import { auditInput } from './test/fixtures.ts';

let dir: string;
let dbPath: string;
let store: Store;
let log: AuditLog;
let transactions: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-audit-writer-'));
  dbPath = join(dir, 'audit.db');
  store = openStore({ path: dbPath });
  const inner = createAuditLog(store, { clock: () => Date.parse('2026-01-01T00:00:00.000Z') });
  transactions = 0;
  log = {
    ...inner,
    appendMany(inputs) {
      transactions += 1;
      return inner.appendMany(inputs);
    },
  };
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (alias: string, over: Partial<AuditInput> = {}) => auditInput({ alias, ...over });

/** Rows as another connection sees them: what survives if this process dies now. */
function rowsOnDisk(): string[] {
  const other = new Database(dbPath, { readonly: true });
  try {
    return (other.prepare('SELECT alias FROM audit_log ORDER BY seq').all() as { alias: string }[]).map(
      (r) => r.alias,
    );
  } finally {
    other.close();
  }
}

describe('createAuditWriter', () => {
  it('writes the records of one turn in one transaction, in order, each durable when its promise settles', async () => {
    const writer = createAuditWriter(log);
    const seenOnDisk: string[][] = [];
    const writes = ['a', 'b', 'c'].map((alias) =>
      writer.write(call(alias)).then((entry) => {
        seenOnDisk.push(rowsOnDisk());
        return entry;
      }),
    );
    expect(rowsOnDisk()).toEqual([]);
    const entries = await Promise.all(writes);
    expect(transactions).toBe(1);
    expect(entries.map((e) => [e.seq, e.record.alias])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
    ]);
    for (const seen of seenOnDisk) expect(seen).toEqual(['a', 'b', 'c']);
    expect(verifyAuditChain(store).ok).toBe(true);
  });

  it('starts a new transaction per turn and caps a batch at maxBatch records', async () => {
    const writer = createAuditWriter(log, { maxBatch: 2 });
    await Promise.all([writer.write(call('a')), writer.write(call('b')), writer.write(call('c'))]);
    expect(transactions).toBe(2);
    await writer.write(call('d'));
    expect(transactions).toBe(3);
    expect(rowsOnDisk()).toEqual(['a', 'b', 'c', 'd']);
    expect(verifyAuditChain(store).ok).toBe(true);
  });

  it('fails only the record that cannot be written; the others of its batch are stored', async () => {
    const writer = createAuditWriter(log);
    const results = await Promise.allSettled([
      writer.write(call('good-1')),
      writer.write(call('bad', { time: 'yesterday' })),
      writer.write(call('good-2')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(rowsOnDisk()).toEqual(['good-1', 'good-2']);
    expect(verifyAuditChain(store).ok).toBe(true);
  });

  it('flush writes what is queued at once', async () => {
    const writer = createAuditWriter(log, { schedule: () => {} });
    const pending = writer.write(call('queued'));
    expect(rowsOnDisk()).toEqual([]);
    await writer.flush();
    expect(rowsOnDisk()).toEqual(['queued']);
    await expect(pending).resolves.toMatchObject({ seq: 1 });
  });
});
