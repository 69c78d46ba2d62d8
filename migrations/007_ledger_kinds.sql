-- Prompts, resources, resource templates and server instructions are fingerprinted beside tools. `kind` says which
-- surface a row is, and is part of the key, so a prompt can never collide with a tool of the same name. SQLite
-- cannot change a primary key in place: the table is rebuilt, every existing row copied as a tool unchanged.
CREATE TABLE ledger_by_kind (
  upstream TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'tool'
    CHECK (kind IN ('tool', 'prompt', 'resource', 'resource-template', 'server-instructions')),
  tool TEXT NOT NULL,
  hash TEXT NOT NULL,
  profile TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'AWAITING_REREVIEW', 'REVOKED')),
  first_seen_at INTEGER NOT NULL,
  curated_at INTEGER,
  published_at INTEGER,
  previous_hash TEXT,
  definition TEXT,
  approved_hash TEXT,
  approved_definition TEXT,
  PRIMARY KEY (upstream, kind, tool)
) STRICT;
INSERT INTO ledger_by_kind (upstream, kind, tool, hash, profile, status, first_seen_at, curated_at, published_at,
  previous_hash, definition, approved_hash, approved_definition)
SELECT upstream, 'tool', tool, hash, profile, status, first_seen_at, curated_at, published_at, previous_hash,
  definition, approved_hash, approved_definition
FROM tool_ledger;
DROP TABLE tool_ledger;
ALTER TABLE ledger_by_kind RENAME TO tool_ledger;
