import { readdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditJournal } from '../store/index.ts';
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
    appendPrepared(prepared, options) {
      transactions += 1;
      inner.appendPrepared(prepared, options);
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

/** The journal files beside the database, with their contents. */
function journals(): Record<string, string> {
  const files = readdirSync(dir).filter((name) => name.includes('-audit-journal-'));
  return Object.fromEntries(files.map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

const journalAliases = () =>
  Object.values(journals())
    .flatMap((text) => text.split('\n').filter(Boolean))
    // A journal line is the row's fields as JSON, a tab, then the record text.
    .map((line) => (JSON.parse(line.slice(0, line.indexOf('\t'))) as { alias: string }).alias);

describe('createAuditWriter without a journal (an in-memory store)', () => {
  it('writes the records of one turn in one transaction, in order, each durable when its promise settles', async () => {
    const writer = createAuditWriter(log);
    const seenOnDisk: string[][] = [];
    const writes = ['a', 'b', 'c'].map((alias) =>
      writer.write(call(alias)).then(() => {
        seenOnDisk.push(rowsOnDisk());
      }),
    );
    expect(rowsOnDisk()).toEqual([]);
    await Promise.all(writes);
    expect(transactions).toBe(1);
    expect(seenOnDisk).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
      ['a', 'b', 'c'],
    ]);
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
    await expect(pending).resolves.toBeUndefined();
  });
});

describe('createAuditWriter with a journal', () => {
  const journal = () => store.auditJournals?.own() as AuditJournal;

  it('settles each promise once its record is in the journal, and moves the turn into the database later', async () => {
    const writer = createAuditWriter(log, { journal: journal(), storeDelayMs: 20 });
    const seen: string[][] = [];
    await Promise.all(
      ['a', 'b'].map((alias) => writer.write(call(alias)).then(() => seen.push(journalAliases()))),
    );
    expect(seen).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(rowsOnDisk()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(rowsOnDisk()).toEqual(['a', 'b']);
    expect(transactions).toBe(1);
    expect(journalAliases()).toEqual([]);
    expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: 2 });
  });

  it('stores at once when maxBatch records wait, and flush stores the rest', async () => {
    const writer = createAuditWriter(log, { journal: journal(), maxBatch: 2, storeDelayMs: 60_000 });
    await Promise.all([writer.write(call('a')), writer.write(call('b'))]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rowsOnDisk()).toEqual(['a', 'b']);
    await writer.write(call('c'));
    expect(rowsOnDisk()).toEqual(['a', 'b']);
    expect(journalAliases()).toEqual(['c']);
    await writer.flush();
    expect(rowsOnDisk()).toEqual(['a', 'b', 'c']);
    await writer.close();
    expect(journals()).toEqual({});
  });

  it('commits to the database before answering when the journal cannot be written', async () => {
    const broken: AuditJournal = {
      append: () => {
        throw new Error('ENOSPC: no space left on device');
      },
      clear: () => {},
      close: () => {},
    };
    const writer = createAuditWriter(log, { journal: broken, storeDelayMs: 60_000 });
    await writer.write(call('direct'));
    expect(rowsOnDisk()).toEqual(['direct']);
  });

  it('keeps records journaled when the database refuses them, reports it, and stores them on the next try', async () => {
    let refuse = true;
    const refusing = {
      ...log,
      appendPrepared: ((prepared, options) => {
        if (refuse) throw new Error('database is locked');
        log.appendPrepared(prepared, options);
      }) as AuditLog['appendPrepared'],
    };
    const errors: string[] = [];
    const writer = createAuditWriter(refusing, {
      journal: journal(),
      storeDelayMs: 5,
      onStoreError: (error) => errors.push((error as Error).message),
    });
    await writer.write(call('kept'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(errors).toEqual(['database is locked']);
    expect(rowsOnDisk()).toEqual([]);
    expect(journalAliases()).toEqual(['kept']);
    refuse = false;
    await writer.flush();
    expect(rowsOnDisk()).toEqual(['kept']);
    expect(journalAliases()).toEqual([]);
  });

  it('loses nothing when the process dies before the move: the next opener stores the journal once', async () => {
    const writer = createAuditWriter(log, { journal: journal(), storeDelayMs: 60_000 });
    await Promise.all([writer.write(call('first')), writer.write(call('second'))]);
    // Already stored once: a journal replayed after a crash between commit and emptying must not store it twice.
    log.appendMany([call('before')]);
    const snapshot = journals();
    expect(Object.keys(snapshot)).toHaveLength(1);
    store.close(); // the process "dies": no flush, no close

    store = openStore({ path: dbPath });
    const reopened = createAuditLog(store);
    expect(reopened.recoverJournals()).toEqual({ journals: 1, appended: 2, unreadableLines: 0 });
    expect(rowsOnDisk()).toEqual(['before', 'first', 'second']);
    expect(journals()).toEqual({});

    // The same journal again (as if the crash came after the commit), plus a torn last line.
    const [name, text] = Object.entries(snapshot)[0] as [string, string];
    writeFileSync(join(dir, name), `${text}{"id":"torn`);
    expect(reopened.recoverJournals()).toEqual({ journals: 1, appended: 0, unreadableLines: 1 });
    expect(rowsOnDisk()).toEqual(['before', 'first', 'second']);
    expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: 3 });
  });
});
