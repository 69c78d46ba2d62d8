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
/** The journal line of a row: its other fields as JSON, a tab, and the record text unescaped. */
const line = ({ record, ...fields }: AuditRowInput): string => `${JSON.stringify(fields)}\t${record}`;
const journalFiles = () => readdirSync(dir).filter((name) => name.startsWith('audit.db-audit-journal-'));
/** A pid that belonged to a process which has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

describe('audit journals', () => {
  it('appends rows as lines to a 0600 file of its own, empties it, and removes it on close when empty', () => {
    const own = createAuditJournals(dbPath).own();
    expect(journalFiles()).toEqual([]);
    own.append([row('a'), row('b')]);
    const [name] = journalFiles();
    expect(name).toMatch(new RegExp(`^audit\\.db-audit-journal-${process.pid}-[0-9a-f]{12}$`));
    const file = join(dir, name as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([line(row('a')), line(row('b')), '']);
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
    expect(readFileSync(join(dir, first as string), 'utf8')).toBe(`${line(row('b'))}\n`);
  });

  it('reads back what it wrote, the whole-row lines of earlier versions, and skips a line cut short anywhere', () => {
    const tricky: AuditRowInput = {
      ...row('tricky'),
      principal: 'a\tb "c"',
      record: '{"args":{"s":"tab\\t quote\\" 😀 \\u2028"},"id":"tricky"}',
    };
    const notJson: AuditRowInput = { ...row('plain'), record: 'one\nline\tor two' };
    const writer = createAuditJournals(dbPath);
    writer.own().append([row('a'), tricky, notJson, row('b')]);
    const [own] = journalFiles();
    const written = readFileSync(join(dir, own as string), 'utf8');
    // The record that is not a one-line JSON object is kept inside its row's JSON, as whole-row lines were.
    expect(written).toContain(`${JSON.stringify(notJson)}\n`);
    const dead = deadPid();
    writeFileSync(join(dir, `audit.db-audit-journal-${dead}-aaaaaaaaaaaa`), written);
    const full = line(row('cut'));
    const cuts = [full.indexOf('\t') - 3, full.indexOf('\t') + 1, full.length - 1];
    writeFileSync(
      join(dir, `audit.db-audit-journal-${dead}-bbbbbbbbbbbb`),
      `${JSON.stringify(row('old'))}\n${cuts.map((at) => full.slice(0, at)).join('\n')}`,
    );
    const orphans = createAuditJournals(join(dir, 'audit.db')).orphans();
    const byName = (suffix: string) => orphans.find((o) => o.file.endsWith(suffix));
    expect(byName('aaaaaaaaaaaa')?.rows).toEqual([row('a'), tricky, notJson, row('b')]);
    expect(byName('aaaaaaaaaaaa')?.unreadableLines).toBe(0);
    expect(byName('bbbbbbbbbbbb')?.rows).toEqual([row('old')]);
    expect(byName('bbbbbbbbbbbb')?.unreadableLines).toBe(3);
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
