/** SQLite implementation of EventStore. */
import type Database from 'better-sqlite3';
import { PortcullisError } from '../errors/index.ts';
import { EVENT_TYPES } from './types.ts';
import type { EventStore, EventType, StoredEvent } from './types.ts';

interface EventRow {
  id: number;
  type: EventType;
  at: number;
  subject: string | null;
  payload: string;
}

const DEFAULT_LIMIT = 100;

/** Builds the event repository over an open, migrated database. */
export function createEventRepository(db: Database.Database): EventStore {
  const insert = db.prepare('INSERT INTO events (type, at, subject, payload) VALUES (?, ?, ?, ?)');
  const select = db.prepare(
    `SELECT id, type, at, subject, payload FROM events
     WHERE (@type IS NULL OR type = @type)
       AND (@subject IS NULL OR subject = @subject)
       AND (@since IS NULL OR at >= @since)
     ORDER BY at DESC, id DESC
     LIMIT @limit`,
  );
  return {
    append(event) {
      if (!(EVENT_TYPES as readonly string[]).includes(event.type)) {
        throw new PortcullisError('INVALID_INPUT', `unknown event type ${JSON.stringify(event.type)}`);
      }
      const payload = JSON.stringify(event.payload ?? null);
      const result = insert.run(event.type, event.at, event.subject ?? null, payload);
      return Number(result.lastInsertRowid);
    },
    query(filter = {}) {
      const rows = select.all({
        type: filter.type ?? null,
        subject: filter.subject ?? null,
        since: filter.since ?? null,
        limit: filter.limit ?? DEFAULT_LIMIT,
      }) as EventRow[];
      return rows.map((row): StoredEvent => ({
        id: row.id,
        type: row.type,
        at: row.at,
        subject: row.subject,
        payload: JSON.parse(row.payload) as unknown,
      }));
    },
  };
}
