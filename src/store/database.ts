/** Opens one better-sqlite3 connection with the pragmas every Portcullis database runs under. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** The in-memory database path. */
export const MEMORY_PATH = ':memory:';

/** Opens `path` (creating parent folders) in WAL mode with NORMAL sync, a busy timeout and foreign keys on. */
export function openDatabase(path: string, busyTimeoutMs = 5000): Database.Database {
  if (path !== MEMORY_PATH) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    // WAL + NORMAL: a committed transaction survives a process crash (kill -9); only an OS crash or power loss
    // may lose the newest transactions. The gateway appends the audit row before it answers the call.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
