import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditJournals } from './audit-journal.ts';
import type { AuditRowInput } from './types.ts';

let dir: string;
let dbPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-journal-'));
  dbPath = join(dir, 'audit.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const row = (id: string): AuditRowInput => ({
  id,
  time: '2026-01-01T00:00:00.000Z',
  timeMs: Date.parse('2026-01-01T00:00:00.000Z'),
  principal: null,
  alias: 'files_read',
  outcome: 'OK',
  decision: 'allow',
  record: `{"id":"${id}"}`,
});
const journalFiles = () => readdirSync(dir).filter((name) => name.startsWith('audit.db-audit-journal-'));
/** A pid that belonged to a process which has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

describe('audit journals', () => {
  it('appends rows as JSON lines to a 0600 file of its own, empties it, and removes it on close when empty', () => {
    const own = createAuditJournals(dbPath).own();
    expect(journalFiles()).toEqual([]);
    own.append([row('a'), row('b')]);
    const [name] = journalFiles();
    expect(name).toMatch(new RegExp(`^audit\\.db-audit-journal-${process.pid}-[0-9a-f]{12}$`));
    const file = join(dir, name as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      JSON.stringify(row('a')),
      JSON.stringify(row('b')),
      '',
    ]);
    own.clear();
    expect(readFileSync(file, 'utf8')).toBe('');
    own.close();
    expect(existsSync(file)).toBe(false);
  });

  it('keeps a journal that still holds rows when it is closed', () => {
    const own = createAuditJournals(dbPath).own();
    own.append([row('a')]);
    own.close();
    expect(journalFiles()).toHaveLength(1);
  });

  it('writes to a new file after its file was removed by another process', () => {
    const own = createAuditJournals(dbPath).own();
    own.append([row('a')]);
    const [first] = journalFiles();
    rmSync(join(dir, first as string));
    own.clear();
    own.append([row('b')]);
    expect(journalFiles()).toEqual([first]);
    expect(readFileSync(join(dir, first as string), 'utf8')).toBe(`${JSON.stringify(row('b'))}\n`);
  });

  it('reports as orphans the journals of gone processes and of an earlier process with this pid, not live ones', () => {
    const journals = createAuditJournals(dbPath);
    journals.own().append([row('mine')]);
    const write = (name: string, text: string) =>
      writeFileSync(join(dir, `audit.db-audit-journal-${name}`), text);
    const dead = deadPid();
    write(`${dead}-aaaaaaaaaaaa`, `${JSON.stringify(row('dead'))}\n{"id":"to`);
    write(`${process.pid}-bbbbbbbbbbbb`, `${JSON.stringify(row('same-pid'))}\n`);
    write(`${process.ppid}-cccccccccccc`, `${JSON.stringify(row('live'))}\n`);
    write(`${dead}-dddddddddddd`, '');
    write('not-a-journal', `${JSON.stringify(row('other'))}\n`);

    const orphans = journals.orphans();
    const found = orphans.map((o) => [o.rows.map((r) => r.id).join(), o.unreadableLines]);
    expect(found.sort()).toEqual([
      ['dead', 1],
      ['same-pid', 0],
    ]);
    const mine = journalFiles().find(
      (n) => n.startsWith(`audit.db-audit-journal-${process.pid}-`) && !n.endsWith('-bbbbbbbbbbbb'),
    );
    for (const orphan of orphans) journals.remove(orphan.file);
    // The empty orphan was removed when it was found; the live journal, ours and a foreign name stay.
    expect(journalFiles().sort()).toEqual(
      [
        mine,
        `audit.db-audit-journal-${process.ppid}-cccccccccccc`,
        'audit.db-audit-journal-not-a-journal',
      ].sort(),
    );
  });
});
