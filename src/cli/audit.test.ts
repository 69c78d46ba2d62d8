import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuditLog } from '../audit/index.ts';
import type { AuditInput } from '../audit/index.ts';
import { openStore } from '../store/index.ts';
import { runAuditCommand } from './audit.ts';
import type { AuditCommandIo } from './audit.ts';

let dir: string;
let db: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-cli-audit-'));
  db = join(dir, 'p.db');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function record(i: number, over: Partial<AuditInput> = {}): AuditInput {
  return {
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    principal: 'alice',
    sessionId: null,
    alias: `tool_${i}`,
    origin: 'upstream',
    upstreamId: 'files',
    upstreamTool: 'read_file',
    risk: { final: 'L2', floorTrigger: null, hitlMitigated: false },
    approval: { mode: 'DISABLED', decision: 'allow' },
    arguments: { i },
    outcome: 'OK',
    durationMs: i,
    traceId: null,
    ...over,
  } as AuditInput;
}

function seed(count: number): void {
  const store = openStore({ path: db });
  const log = createAuditLog(store);
  for (let i = 0; i < count; i += 1) log.append(record(i));
  store.close();
}

function capture(extra: Partial<AuditCommandIo> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: AuditCommandIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), ...extra };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('portcullis audit verify', () => {
  it('reports an intact chain with exit 0', async () => {
    seed(3);
    const { io, out } = capture();
    expect(await runAuditCommand(['verify', '--db', db], io)).toBe(0);
    expect(out()).toMatch(/^audit chain ok: 3 records, head 3:[0-9a-f]{64}\n$/);
  });

  it('first stores the records a gateway that stopped left in its journal', async () => {
    seed(2);
    const store = openStore({ path: db });
    const log = createAuditLog(store);
    store.auditJournals?.own().append([log.prepare(record(2)).row, log.prepare(record(3)).row]);
    store.close(); // stopped without storing them; another store of this process takes the journal for orphaned
    const { io, out, err } = capture();
    expect(await runAuditCommand(['verify', '--db', db], io)).toBe(0);
    expect(err()).toBe('stored 2 records from 1 journal(s) of stopped gateways\n');
    expect(out()).toMatch(/^audit chain ok: 4 records, /);
  });

  it('reports an edited row with exit 1 and names it', async () => {
    seed(3);
    const raw = new Database(db);
    raw.exec('DROP TRIGGER audit_log_no_update');
    const { id } = raw.prepare('SELECT id FROM audit_log WHERE seq = 2').get() as { id: string };
    raw.prepare("UPDATE audit_log SET record = replace(record, 'alice', 'mallory') WHERE seq = 2").run();
    raw.close();
    const { io, err } = capture();
    expect(await runAuditCommand(['verify', '--db', db], io)).toBe(1);
    expect(err()).toContain('BROKEN (edited)');
    expect(err()).toContain(id);
  });

  it('checks --anchor heads printed by an earlier verify', async () => {
    seed(2);
    const first = capture();
    expect(await runAuditCommand(['verify', '--db', db], first.io)).toBe(0);
    const anchor = /head (\d+:[0-9a-f]{64})/.exec(first.out())?.[1] as string;
    expect(anchor).toMatch(/^2:/);

    const store = openStore({ path: db });
    createAuditLog(store).append(record(9));
    store.close();
    const still = capture();
    expect(await runAuditCommand(['verify', '--anchor', anchor, '--db', db], still.io)).toBe(0);
    expect(still.out()).toMatch(/^audit chain ok: 3 records, head 3:[0-9a-f]{64}, 1 anchor\(s\) match\n$/);

    const wrong = capture();
    const forged = `2:${'0'.repeat(64)}`;
    expect(await runAuditCommand(['verify', '--anchor', forged, '--db', db], wrong.io)).toBe(1);
    expect(wrong.err()).toContain('BROKEN (rewritten)');
  });

  it.each([
    [['verify', '--anchor', 'head'], '--anchor needs SEQ:DIGEST'],
    [['tail', '--anchor', `1:${'a'.repeat(64)}`], '--anchor is a verify option'],
  ])('refuses %j with a usage error', async (args, message) => {
    seed(1);
    const { io, err } = capture();
    expect(await runAuditCommand([...args, '--db', db], io)).toBe(2);
    expect(err()).toContain(message);
  });

  it('refuses a missing database instead of creating one', async () => {
    const { io, err } = capture();
    expect(await runAuditCommand(['verify', '--db', join(dir, 'nope.db')], io)).toBe(2);
    expect(err()).toContain('no audit database');
  });
});

describe('portcullis audit tail', () => {
  it('prints the newest N records, oldest of them first', async () => {
    seed(5);
    const { io, out } = capture();
    expect(await runAuditCommand(['tail', '-n', '2', '--db', db], io)).toBe(0);
    const lines = out().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('tool_3');
    expect(lines[1]).toContain('tool_4');
    expect(lines[1]).toContain('files/read_file');
  });

  it('names each outcome as recorded: a relayed round is INPUT_REQUIRED, not an error', async () => {
    const store = openStore({ path: db });
    const log = createAuditLog(store);
    log.append(record(0));
    log.append(record(1, { outcome: 'ERROR', errorCode: 'UPSTREAM_ERROR' } as Partial<AuditInput>));
    log.append(record(2, { outcome: 'INPUT_REQUIRED' } as Partial<AuditInput>));
    store.close();
    const { io, out } = capture();
    expect(await runAuditCommand(['tail', '--db', db], io)).toBe(0);
    const outcomes = out()
      .trimEnd()
      .split('\n')
      .map((line) => line.split('  ').at(-2));
    expect(outcomes).toEqual(['OK', 'ERROR UPSTREAM_ERROR', 'INPUT_REQUIRED']);
  });

  it('prints JSON lines with --format jsonl', async () => {
    seed(2);
    const { io, out } = capture();
    expect(await runAuditCommand(['tail', '--format', 'jsonl', '--db', db], io)).toBe(0);
    const parsed = out()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { alias: string; seq: number });
    expect(parsed.map((p) => [p.seq, p.alias])).toEqual([
      [1, 'tool_0'],
      [2, 'tool_1'],
    ]);
  });

  it('follows new records until aborted', async () => {
    seed(1);
    const controller = new AbortController();
    const { io, out } = capture({ signal: controller.signal, pollIntervalMs: 10 });
    const running = runAuditCommand(['tail', '--follow', '--db', db], io);
    await vi.waitFor(() => expect(out()).toContain('tool_0'));
    const store = openStore({ path: db });
    createAuditLog(store).append(record(7));
    store.close();
    await vi.waitFor(() => expect(out()).toContain('tool_7'));
    controller.abort();
    expect(await running).toBe(0);
    expect(out().match(/tool_0/g)).toHaveLength(1);
  });

  it.each([[['tail', '-n', 'ten', '--db', 'x']], [['tail', '--format', 'xml', '--db', 'x']]])(
    'refuses bad options %j with exit 2',
    async (args) => {
      seed(1);
      const { io, err } = capture();
      expect(
        await runAuditCommand(
          args.map((a) => (a === 'x' ? db : a)),
          io,
        ),
      ).toBe(2);
      expect(err()).toContain('usage:');
    },
  );
});

describe('portcullis audit export', () => {
  it('writes matching records as JSON lines, oldest first', async () => {
    seed(4);
    const { io, out } = capture();
    const code = await runAuditCommand(
      ['export', '--since', '2026-01-01T00:00:02Z', '--format', 'jsonl', '--db', db],
      io,
    );
    expect(code).toBe(0);
    const aliases = out()
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { alias: string }).alias);
    expect(aliases).toEqual(['tool_2', 'tool_3']);
  });

  it('reports a bad --since with exit 2', async () => {
    seed(1);
    const { io, err } = capture();
    expect(await runAuditCommand(['export', '--since', 'yesterday', '--db', db], io)).toBe(2);
    expect(err()).toContain('INVALID_INPUT');
  });

  it('refuses another format', async () => {
    seed(1);
    const { io } = capture();
    expect(await runAuditCommand(['export', '--format', 'csv', '--db', db], io)).toBe(2);
  });
});

describe('usage', () => {
  it.each([
    [[]],
    [['nope', '--db', 'x.db']],
    [['verify']],
    [['verify', '--bogus']],
    [['verify', 'extra', '--db', 'x.db']],
  ])('%j exits 2 with the usage', async (args) => {
    const { io, err } = capture();
    expect(await runAuditCommand(args, io)).toBe(2);
    expect(err()).toContain('usage: portcullis audit');
  });

  it('prints help with exit 0', async () => {
    const { io, out } = capture();
    expect(await runAuditCommand(['--help'], io)).toBe(0);
    expect(out()).toContain('usage: portcullis audit');
  });
});
