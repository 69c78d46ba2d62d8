/** SQLite implementation of UpstreamStore. */
import type Database from 'better-sqlite3';
import type { UpstreamActivity, UpstreamStore } from './types.ts';

interface UpstreamRow {
  id: string;
  last_connected_at: number | null;
  last_used_at: number | null;
}

/** Builds the upstream-state repository over an open, migrated database. */
export function createUpstreamRepository(db: Database.Database): UpstreamStore {
  const connected = db.prepare(
    `INSERT INTO upstream_state (id, last_connected_at) VALUES (?, ?)
     ON CONFLICT (id) DO UPDATE SET last_connected_at = MAX(COALESCE(last_connected_at, excluded.last_connected_at), excluded.last_connected_at)`,
  );
  const used = db.prepare(
    `INSERT INTO upstream_state (id, last_used_at) VALUES (?, ?)
     ON CONFLICT (id) DO UPDATE SET last_used_at = MAX(COALESCE(last_used_at, excluded.last_used_at), excluded.last_used_at)`,
  );
  const select = db.prepare('SELECT id, last_connected_at, last_used_at FROM upstream_state WHERE id = ?');
  return {
    recordConnected(id, at) {
      connected.run(id, at);
    },
    recordUsed(id, at) {
      used.run(id, at);
    },
    get(id): UpstreamActivity | undefined {
      const row = select.get(id) as UpstreamRow | undefined;
      return row && { id: row.id, lastConnectedAt: row.last_connected_at, lastUsedAt: row.last_used_at };
    },
  };
}
