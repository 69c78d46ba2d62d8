/**
 * Audit journals: one append-only file per process beside the database (`<db>-audit-journal-<pid>-<hex>`).
 * A call's audit row is written here with one write before the call is answered, and moves into the database
 * in batches off the call path; the file is emptied once its rows are in. A write that has returned sits in the
 * page cache: it survives the process being killed, which is what a WAL commit under synchronous=NORMAL
 * guarantees as well (neither survives an OS crash). Journals of processes that are gone are replayed by the
 * next process that opens the audit log.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AuditRowInput } from './types.ts';

/** This process's journal. */
export interface AuditJournal {
  /** Appends rows with one write; once it returns they survive a crash of this process. Throws on I/O failure. */
  append(rows: readonly AuditRowInput[]): void;
  /** Empties the journal once its rows are in the database (a removed file is created again on next append). */
  clear(): void;
  /** Closes the file, and removes it when it is empty. */
  close(): void;
}

/** A journal left by a process that is gone. */
export interface OrphanJournal {
  file: string;
  /** Its rows, in the order they were written. */
  rows: AuditRowInput[];
  /** Lines that are not a row (a torn last line after an OS crash); they are skipped. */
  unreadableLines: number;
}

/** The audit journals of one database file. */
export interface AuditJournals {
  /** This process's journal; its file is created on the first append. */
  own(): AuditJournal;
  /** The non-empty journals of processes that are no longer running. */
  orphans(): OrphanJournal[];
  /** Deletes an orphan once its rows are in the database. */
  remove(file: string): void;
}

const MARKER = '-audit-journal-';

/** The journals beside the database at `dbPath`. */
export function createAuditJournals(dbPath: string): AuditJournals {
  const folder = dirname(dbPath);
  const prefix = `${basename(dbPath)}${MARKER}`;
  const ownFile = join(folder, `${prefix}${process.pid}-${randomBytes(6).toString('hex')}`);
  let own: AuditJournal | undefined;

  const isOrphan = (name: string): boolean => {
    const match = /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length));
    if (!match || join(folder, name) === ownFile) return false;
    const pid = Number(match[1]);
    // Same pid, other file: a previous process with our pid (a restarted container's PID 1) left it.
    return pid === process.pid || !processRunning(pid);
  };

  return {
    own: () => (own ??= openJournal(ownFile)),
    orphans() {
      const names = readdirSync(folder).filter((name) => name.startsWith(prefix) && isOrphan(name));
      return names.sort().flatMap((name) => {
        const orphan = readJournal(join(folder, name));
        if (orphan.rows.length > 0 || orphan.unreadableLines > 0) return [orphan];
        rmSync(orphan.file, { force: true });
        return [];
      });
    },
    remove: (file) => rmSync(file, { force: true }),
  };
}

function openJournal(file: string): AuditJournal {
  let fd: number | undefined;
  return {
    append(rows) {
      if (rows.length === 0) return;
      fd ??= openSync(file, 'a', 0o600);
      let text = '';
      for (const row of rows) text += journalLine(row);
      // The string goes to the write as it is: node encodes it on the way, and no Buffer is made here (a copy per
      // turn, and past 4 KiB a fresh allocation; about 1 µs a turn). A short write, which a regular file gives only
      // when its disk fills, goes on from its bytes.
      const written = writeSync(fd, text);
      if (written === Buffer.byteLength(text)) return;
      const bytes = Buffer.from(text);
      for (let at = written; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    },
    clear() {
      if (fd === undefined) return;
      ftruncateSync(fd, 0);
      // Someone removed the file (a recovery that took this process for gone): write to a new one from now on.
      if (fstatSync(fd).nlink === 0) {
        closeSync(fd);
        fd = undefined;
      }
    },
    close() {
      if (fd === undefined) return;
      const empty = fstatSync(fd).size === 0;
      closeSync(fd);
      fd = undefined;
      if (empty) rmSync(file, { force: true });
    },
  };
}

/**
 * One row as a journal line: the row's other fields as JSON, a tab, then the record text as it is (no second
 * escaping of the longest field). JSON text holds no raw tab or newline, so the first tab splits the line, and a
 * line cut short by a crash fails to parse in either part. A record that is not one line holding a JSON object
 * (never the case for the audit log's canonical text) is written inside the row's JSON instead, the line form
 * journals had before, which is still read.
 */
function journalLine(row: AuditRowInput): string {
  const { record } = row;
  if (!record.startsWith('{') || !record.endsWith('}') || record.includes('\n'))
    return `${JSON.stringify(row)}\n`;
  const fields = JSON.stringify({
    id: row.id,
    time: row.time,
    timeMs: row.timeMs,
    principal: row.principal,
    alias: row.alias,
    outcome: row.outcome,
    decision: row.decision,
  });
  return `${fields}\t${record}\n`;
}

function readJournal(file: string): OrphanJournal {
  const rows: AuditRowInput[] = [];
  let unreadableLines = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line === '') continue;
    const row = parseRow(line);
    if (row) rows.push(row);
    else unreadableLines += 1;
  }
  return { file, rows, unreadableLines };
}

function parseRow(line: string): AuditRowInput | undefined {
  const tab = line.indexOf('\t');
  let value: unknown;
  try {
    // A torn last line (crash mid-write) or garbage fails to parse: the caller counts it as unreadable. The record
    // text after the tab is parsed as well: a record cut short is never stored.
    value = JSON.parse(tab < 0 ? line : line.slice(0, tab));
    if (tab >= 0) {
      const record = line.slice(tab + 1);
      JSON.parse(record);
      if (typeof value === 'object' && value !== null && !('record' in value))
        (value as Record<string, unknown>).record = record;
    }
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const row = value as Record<string, unknown>;
  const strings = ['id', 'time', 'alias', 'outcome', 'decision', 'record'] as const;
  if (!strings.every((key) => typeof row[key] === 'string')) return undefined;
  if (typeof row.timeMs !== 'number' || (row.principal !== null && typeof row.principal !== 'string'))
    return undefined;
  return {
    id: row.id as string,
    time: row.time as string,
    timeMs: row.timeMs,
    principal: row.principal,
    alias: row.alias as string,
    outcome: row.outcome as string,
    decision: row.decision as string,
    record: row.record as string,
  };
}

function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
