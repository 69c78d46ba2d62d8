/**
 * The damaged-file check of the store: `PRAGMA quick_check` when the database is opened, and SQLite's
 * corruption errors turned into STORE_CORRUPT with a message that says what to do. A damaged page is refused
 * before anything reads or appends to it, so `audit verify` can never report "chain ok" over it.
 */
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { PortcullisError } from '../errors/index.ts';

/** At most this many problems are listed by quick_check (the first is quoted in the message). */
const MAX_PROBLEMS = 5;
const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

function whatToDo(path: string): string {
  return (
    'restore it from a backup, or move it aside to start with an empty one; ' +
    `the audit journal files in ${dirname(path)} are kept (see docs/operations.md)`
  );
}

/** Throws STORE_CORRUPT when `PRAGMA quick_check` finds a problem in the open database at `path`. */
export function checkIntegrity(db: Database.Database, path: string): void {
  let problems: string[];
  try {
    const rows = db.pragma(`quick_check(${MAX_PROBLEMS})`) as { quick_check: string }[];
    // One row may hold several lines, headed by "*** in database main ***"; keep the problem lines.
    problems = rows
      .flatMap((row) => row.quick_check.split('\n'))
      .filter((line) => line.trim() !== '' && !line.startsWith('*** in database'));
  } catch (error) {
    throw asStoreCorrupt(error, path) ?? error;
  }
  if (problems.length === 1 && problems[0] === 'ok') return;
  throw new PortcullisError(
    'STORE_CORRUPT',
    `the database ${path} is damaged (quick_check: ${(problems[0] ?? 'no answer').slice(0, 200)}); ${whatToDo(path)}`,
    { reason: 'quick-check', details: { problems: problems.map((p) => p.slice(0, 200)) } },
  );
}

/** STORE_CORRUPT for an SQLite corruption error (damaged page, not a database), or undefined for any other. */
export function asStoreCorrupt(error: unknown, path: string): PortcullisError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !CORRUPTION_CODES.has(code)) return undefined;
  const message =
    code === 'SQLITE_NOTADB'
      ? `the file ${path} is not a SQLite database (${(error as Error).message}); move it aside, or set store.path to another file; the audit journal files in ${dirname(path)} are kept`
      : `the database ${path} is damaged (${(error as Error).message}); ${whatToDo(path)}`;
  return new PortcullisError('STORE_CORRUPT', message, { reason: code, cause: error });
}
