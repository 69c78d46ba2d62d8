-- Structured gateway events (risk computed, floor override, poisoning hit, ledger mismatch, ...).
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  type TEXT NOT NULL,
  at INTEGER NOT NULL,
  subject TEXT,
  payload TEXT NOT NULL
) STRICT;

CREATE INDEX events_at ON events (at DESC, id DESC);
CREATE INDEX events_type_at ON events (type, at DESC);
CREATE INDEX events_subject_at ON events (subject, at DESC);
