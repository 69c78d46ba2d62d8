import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { createMasker } from '../secrets/masking.ts';
import { openStore } from '../store/index.ts';
import type { Store } from '../store/index.ts';
import { canonicalJson, sha256Hex } from '../shared/index.ts';
import { GENESIS_DIGEST } from './chain.ts';
import { createAuditLog, parseAuditAnchor, verifyAuditChain } from './index.ts';
import type { AuditInput, AuditLog } from './index.ts';
import { auditInput } from './test/fixtures.ts';

let dir: string;
let dbPath: string;
let store: Store;
let log: AuditLog;
let now: number;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-audit-'));
  dbPath = join(dir, 'audit.db');
  store = openStore({ path: dbPath });
  now = Date.parse('2026-01-01T00:00:00.000Z');
  log = createAuditLog(store, { clock: () => now });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = auditInput;

/** Appends n records one second apart and returns their ids. */
function appendMany(n: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    ids.push(log.append(call({ arguments: { i } })).record.id);
    now += 1000;
  }
  return ids;
}

/** A raw connection with the append-only triggers dropped: what someone with write access to the file can do. */
function tamper(sql: string, ...params: unknown[]): void {
  const raw = new Database(dbPath);
  raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
  raw.prepare(sql).run(...params);
  raw.close();
}

describe('append', () => {
  it('chains every row to the one before it over the canonical JSON of the record', () => {
    const first = log.append(call());
    now += 5;
    const second = log.append(call({ alias: 'files_write', outcome: 'ERROR', errorCode: 'UPSTREAM_ERROR' }));
    expect(first.seq).toBe(1);
    expect(second.seq).toBe(2);
    expect(first.prevDigest).toBe(GENESIS_DIGEST);
    expect(second.prevDigest).toBe(first.digest);
    expect(first.digest).toBe(sha256Hex(GENESIS_DIGEST + canonicalJson(first.record, 'stringify')));
    expect(second.digest).toBe(sha256Hex(first.digest + canonicalJson(second.record, 'stringify')));
    expect(first.record.time).toBe('2026-01-01T00:00:00.000Z');
    expect(second.record.time).toBe('2026-01-01T00:00:00.005Z');
    expect(first.record.id).not.toBe(second.record.id);
    expect(first.record.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps a given id and time, and the local-tool fields', () => {
    const entry = log.append(
      call({
        id: 'fixed-id',
        time: '2025-06-01T10:00:00.000Z',
        origin: 'local',
        toolId: 'weather',
        category: 'web',
        toolSafety: { capabilities: { network: { mode: 'strict' } } },
        approval: {
          mode: 'REQUIRED',
          decision: 'ask',
          elicitation: 'accept',
          decidedAt: '2025-06-01T10:00:01.000Z',
        },
      } as Partial<AuditInput>),
    );
    expect(entry.record).toMatchObject({
      id: 'fixed-id',
      time: '2025-06-01T10:00:00.000Z',
      origin: 'local',
      toolId: 'weather',
      toolSafety: { capabilities: { network: { mode: 'strict' } } },
      approval: { elicitation: 'accept' },
    });
  });

  it('still records a call whose arguments cannot be written as JSON', () => {
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic['self'] = cyclic;
    const entry = log.append(call({ arguments: cyclic }));
    expect(entry.record.arguments).toBe('[not serializable]');
    expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: 1 });
  });

  it('records a call whose arguments are nested 10,000 levels deep, masked, without losing the row (issue 14)', () => {
    let deep: unknown = 'Bearer hunter22';
    for (let i = 0; i < 10_000; i += 1) deep = { a: deep };
    const masked = createAuditLog(store, { clock: () => now, masker: createMasker(['hunter22']) });
    const entry = masked.append(call({ arguments: { deep } }));
    expect(entry.record.arguments).toMatch(/^\[not recorded: nested deeper than 64 levels/);
    expect(JSON.stringify(entry.record)).not.toContain('hunter22');
    expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: 1 });
  });

  it('still writes a minimal masked row when the masker itself fails', () => {
    const failing = {
      maskDeep: <T>(value: T): T => {
        if (
          typeof value === 'object' &&
          value !== null &&
          'arguments' in value &&
          value.arguments !== '[not serializable]'
        )
          throw new RangeError('Maximum call stack size exceeded');
        return JSON.parse(JSON.stringify(value).split('hunter22').join('***')) as T;
      },
    };
    const masked = createAuditLog(store, { clock: () => now, masker: failing });
    const entry = masked.append(call({ principal: 'hunter22-user', arguments: { token: 'hunter22' } }));
    expect(entry.record.arguments).toBe('[not serializable]');
    expect(entry.record.principal).toBe('***-user');
    expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: 1 });
  });

  it('refuses a record time that is not ISO 8601', () => {
    expect(() => log.append(call({ time: 'yesterday' }))).toThrow(/ISO 8601/);
  });

  it('masks secrets with the configured masker before writing', () => {
    // A structural masker: the sandbox masker has the same maskDeep contract.
    const masker = {
      maskDeep: <T>(value: T): T => JSON.parse(JSON.stringify(value).split('hunter22').join('***')) as T,
    };
    const masked = createAuditLog(store, { clock: () => now, masker });
    const entry = masked.append(call({ arguments: { token: 'Bearer hunter22' } }));
    expect(entry.record.arguments).toEqual({ token: 'Bearer ***' });
    const raw = new Database(dbPath, { readonly: true });
    const rows = raw.prepare('SELECT record FROM audit_log').all() as { record: string }[];
    raw.close();
    expect(rows.some((r) => r.record.includes('hunter22'))).toBe(false);
  });

  it('keeps one chain across two connections to the same file', () => {
    const other = openStore({ path: dbPath });
    const otherLog = createAuditLog(other, { clock: () => now });
    for (let i = 0; i < 5; i += 1) {
      log.append(call({ arguments: { i, by: 'first' } }));
      otherLog.append(call({ arguments: { i, by: 'second' } }));
    }
    other.close();
    expect(verifyAuditChain(store)).toEqual({
      ok: true,
      rows: 10,
      headSeq: 10,
      headDigest: expect.any(String),
    });
  });

  it('still has the row after the appending process is killed with SIGKILL', () => {
    const script = join(dir, 'append-and-die.ts');
    const auditDoor = pathToFileURL(resolve(import.meta.dirname, 'index.ts')).href;
    const storeDoor = pathToFileURL(resolve(import.meta.dirname, '..', 'store', 'index.ts')).href;
    writeFileSync(
      script,
      [
        `import { openStore } from ${JSON.stringify(storeDoor)};`,
        `import { createAuditLog } from ${JSON.stringify(auditDoor)};`,
        'const store = openStore({ path: process.argv[2] });',
        `createAuditLog(store).append(${JSON.stringify(call({ id: 'survivor' }))});`,
        "process.stdout.write('appended\\n');",
        "process.kill(process.pid, 'SIGKILL');",
      ].join('\n'),
    );
    store.close();
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, dbPath], {
      cwd: resolve(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('appended\n');
    expect(child.signal).toBe('SIGKILL');
    store = openStore({ path: dbPath });
    log = createAuditLog(store);
    expect(log.query().entries.map((e) => e.record.id)).toEqual(['survivor']);
    expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: 1 });
  });
});

describe('verifyAuditChain', () => {
  it('passes on an empty log', () => {
    expect(verifyAuditChain(store)).toEqual({ ok: true, rows: 0, headSeq: 0, headDigest: null });
  });

  it('passes on an untouched log', () => {
    appendMany(5);
    const verdict = verifyAuditChain(store);
    expect(verdict).toEqual({
      ok: true,
      rows: 5,
      headSeq: 5,
      headDigest: log.query({ limit: 1 }).entries[0]?.digest,
    });
  });

  it('refuses ordinary UPDATE and DELETE statements', () => {
    appendMany(2);
    const raw = new Database(dbPath);
    expect(() => raw.prepare("UPDATE audit_log SET alias = 'x'").run()).toThrow(/append-only/);
    expect(() => raw.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    raw.close();
    expect(verifyAuditChain(store).ok).toBe(true);
  });

  it.each([
    ['the record text', 'UPDATE audit_log SET record = replace(record, \'"i":2\', \'"i":9\') WHERE seq = 3'],
    ['the alias column only', "UPDATE audit_log SET alias = 'harmless' WHERE seq = 3"],
    ['the decision column only', "UPDATE audit_log SET decision = 'deny' WHERE seq = 3"],
    ['the time column only', 'UPDATE audit_log SET time_ms = time_ms - 1 WHERE seq = 3'],
    ['the digest only', "UPDATE audit_log SET digest = '" + 'f'.repeat(64) + "' WHERE seq = 3"],
  ])('finds an edit of %s and names the row', (_name, sql) => {
    const ids = appendMany(5);
    tamper(sql);
    expect(verifyAuditChain(store)).toMatchObject({
      ok: false,
      problem: 'edited',
      firstBadId: ids[2],
      seq: 3,
    });
  });

  it('finds a row whose content and digest were both rewritten', () => {
    const ids = appendMany(4);
    const raw = new Database(dbPath);
    const row = raw.prepare('SELECT record, prev_digest FROM audit_log WHERE seq = 2').get() as {
      record: string;
      prev_digest: string;
    };
    raw.close();
    const forged = row.record.replace('"alice"', '"mallory"');
    tamper(
      "UPDATE audit_log SET record = ?, principal = 'mallory', digest = ? WHERE seq = 2",
      forged,
      sha256Hex(row.prev_digest + forged),
    );
    expect(verifyAuditChain(store)).toMatchObject({ ok: false, problem: 'edited', firstBadId: ids[1] });
  });

  it('finds a deleted middle row and names the row after the gap', () => {
    const ids = appendMany(5);
    tamper('DELETE FROM audit_log WHERE seq = 3');
    expect(verifyAuditChain(store)).toMatchObject({
      ok: false,
      problem: 'deleted',
      firstBadId: ids[3],
      seq: 4,
    });
  });

  it('finds a deleted first row', () => {
    const ids = appendMany(3);
    tamper('DELETE FROM audit_log WHERE seq = 1');
    expect(verifyAuditChain(store)).toMatchObject({ ok: false, problem: 'deleted', firstBadId: ids[1] });
  });

  it('finds deleted newest rows through the chain head', () => {
    appendMany(4);
    tamper('DELETE FROM audit_log WHERE seq >= 3');
    expect(verifyAuditChain(store)).toMatchObject({
      ok: false,
      problem: 'deleted',
      firstBadId: null,
      seq: 4,
    });
  });

  it('finds a truncation even after new rows were appended behind it', () => {
    const ids = appendMany(3);
    tamper('DELETE FROM audit_log WHERE seq = 3');
    const after = log.append(call()).record.id;
    expect(after).not.toBe(ids[2]);
    expect(verifyAuditChain(store)).toMatchObject({ ok: false, problem: 'deleted', firstBadId: after });
  });

  it('finds swapped rows', () => {
    const ids = appendMany(4);
    tamper('UPDATE audit_log SET seq = 100 WHERE seq = 2');
    tamper('UPDATE audit_log SET seq = 2 WHERE seq = 3');
    tamper('UPDATE audit_log SET seq = 3 WHERE seq = 100');
    expect(verifyAuditChain(store)).toMatchObject({
      ok: false,
      problem: 'reordered',
      firstBadId: ids[2],
      seq: 2,
    });
  });
});

describe('verifyAuditChain with anchors', () => {
  /** Rewrites the chain from `fromSeq` on, row digests and head included: a consistent, forged chain. */
  function rewriteFrom(fromSeq: number): void {
    const raw = new Database(dbPath);
    raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update;');
    const rows = raw.prepare('SELECT seq, record, prev_digest FROM audit_log ORDER BY seq').all() as {
      seq: number;
      record: string;
      prev_digest: string;
    }[];
    let prev = GENESIS_DIGEST;
    for (const row of rows) {
      if (row.seq < fromSeq) {
        prev = sha256Hex(row.prev_digest + row.record);
        continue;
      }
      const forged = row.record.replace('"alice"', '"mallory"');
      const digest = sha256Hex(prev + forged);
      raw
        .prepare(
          "UPDATE audit_log SET record = ?, principal = 'mallory', prev_digest = ?, digest = ? WHERE seq = ?",
        )
        .run(forged, prev, digest, row.seq);
      prev = digest;
    }
    raw.prepare('UPDATE audit_head SET digest = ? WHERE singleton = 1').run(prev);
    raw.close();
  }

  const headAnchor = () => {
    const verdict = verifyAuditChain(store);
    if (!verdict.ok || verdict.headDigest === null) throw new Error('expected an intact chain');
    return { seq: verdict.headSeq, digest: verdict.headDigest };
  };

  it('passes when every anchor still matches, and reports the head to anchor next time', () => {
    appendMany(2);
    const early = headAnchor();
    appendMany(2);
    const verdict = verifyAuditChain(store, [early]);
    expect(verdict).toMatchObject({ ok: true, rows: 4, headSeq: 4 });
  });

  it('finds a chain rewritten from some row on, which the chain alone cannot see', () => {
    appendMany(2);
    const anchor = headAnchor();
    appendMany(2);
    rewriteFrom(2);
    expect(verifyAuditChain(store).ok).toBe(true);
    expect(verifyAuditChain(store, [anchor])).toMatchObject({ ok: false, problem: 'rewritten', seq: 2 });
  });

  it('ignores a rewrite after the anchored row', () => {
    appendMany(2);
    const anchor = headAnchor();
    appendMany(2);
    rewriteFrom(3);
    expect(verifyAuditChain(store, [anchor]).ok).toBe(true);
  });

  it('finds rows deleted behind an anchor even when the head was moved back too', () => {
    appendMany(4);
    const anchor = headAnchor();
    tamper('DELETE FROM audit_log WHERE seq >= 3');
    tamper('UPDATE audit_head SET seq = 2, digest = (SELECT digest FROM audit_log WHERE seq = 2)');
    expect(verifyAuditChain(store).ok).toBe(true);
    expect(verifyAuditChain(store, [anchor])).toMatchObject({ ok: false, problem: 'deleted', seq: 4 });
  });
});

describe('parseAuditAnchor', () => {
  const digest = 'ab'.repeat(32);
  it.each([
    [`3:${digest}`, { seq: 3, digest }],
    [` 12:${digest.toUpperCase()} `, { seq: 12, digest }],
    [`0:${digest}`, undefined],
    [`3:${digest.slice(1)}`, undefined],
    [digest, undefined],
    ['3:xyz', undefined],
  ])('%j', (text, expected) => {
    expect(parseAuditAnchor(text)).toEqual(expected);
  });
});

describe('query', () => {
  beforeEach(() => {
    log.append(call({ id: 'a', principal: 'alice', alias: 'files_read' }));
    now += 1000;
    log.append(
      call({
        id: 'b',
        principal: 'bob',
        alias: 'files_write',
        approval: { mode: 'REQUIRED', decision: 'deny', ruleId: 'no-secrets' },
      }),
    );
    now += 1000;
    log.append(
      call({
        id: 'c',
        principal: 'alice',
        alias: 'files_write',
        outcome: 'ERROR',
        errorCode: 'UPSTREAM_ERROR',
      }),
    );
    now += 1000;
    log.append(
      call({
        id: 'd',
        principal: null,
        alias: 'web_fetch',
        approval: { mode: 'REQUIRED', decision: 'ask', elicitation: 'timeout' },
      }),
    );
  });

  const ids = (filter: Parameters<AuditLog['query']>[0]): string[] =>
    log.query(filter).entries.map((e) => e.record.id);

  it.each([
    ['no filter, newest first', {}, ['d', 'c', 'b', 'a']],
    ['oldest first', { order: 'asc' as const }, ['a', 'b', 'c', 'd']],
    ['alias', { alias: 'files_write' }, ['c', 'b']],
    ['principal', { principal: 'alice' }, ['c', 'a']],
    ['outcome', { outcome: 'ERROR' as const }, ['c']],
    ['decision', { decision: 'deny' as const }, ['b']],
    ['since (inclusive)', { since: '2026-01-01T00:00:01.000Z' }, ['d', 'c', 'b']],
    ['until (exclusive)', { until: '2026-01-01T00:00:01.000Z' }, ['a']],
    ['since with an offset', { since: '2026-01-01T01:00:02+01:00' }, ['d', 'c']],
    ['a date', { since: '2026-01-02' }, []],
    ['combined', { principal: 'alice', alias: 'files_write', outcome: 'ERROR' as const }, ['c']],
  ])('filters by %s', (_name, filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('pages with a cursor in both orders', () => {
    const first = log.query({ limit: 3 });
    expect(first.entries.map((e) => e.record.id)).toEqual(['d', 'c', 'b']);
    expect(first.nextCursor).not.toBeNull();
    const second = log.query({ limit: 3, cursor: first.nextCursor as string });
    expect(second.entries.map((e) => e.record.id)).toEqual(['a']);
    expect(second.nextCursor).toBeNull();

    const up = log.query({ order: 'asc', limit: 2 });
    const rest = log.query({ order: 'asc', limit: 2, cursor: up.nextCursor as string });
    expect([...up.entries, ...rest.entries].map((e) => e.record.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(rest.nextCursor).toBeNull();
  });

  it.each([
    ['since', { since: 'last tuesday' }],
    ['until', { until: '2026-01-01T00:00:00' }],
    ['cursor', { cursor: 'abc' }],
  ])('refuses a bad %s', (_name, filter) => {
    const error = (() => {
      try {
        log.query(filter);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isPortcullisError(error, 'INVALID_INPUT')).toBe(true);
  });

  it('exports matching records oldest first as JSON lines that can be re-verified', () => {
    const lines: string[] = [];
    expect(log.exportJsonl({}, (line) => lines.push(line))).toBe(4);
    expect(lines.every((l) => l.endsWith('\n'))).toBe(true);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => p['id'])).toEqual(['a', 'b', 'c', 'd']);
    let prev = GENESIS_DIGEST;
    for (const line of parsed) {
      const { seq: _seq, prevDigest, digest, ...record } = line;
      expect(prevDigest).toBe(prev);
      expect(sha256Hex(prev + canonicalJson(record, 'stringify'))).toBe(digest);
      prev = digest as string;
    }
    const some: string[] = [];
    expect(log.exportJsonl({ since: '2026-01-01T00:00:02.000Z' }, (l) => some.push(l))).toBe(2);
  });
});
