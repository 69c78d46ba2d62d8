-- The tool fingerprint ledger: one row per (upstream, tool) with the current digest and its profile id.
CREATE TABLE tool_ledger (
  upstream TEXT NOT NULL,
  tool TEXT NOT NULL,
  hash TEXT NOT NULL,
  profile TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'AWAITING_REREVIEW', 'REVOKED')),
  first_seen_at INTEGER NOT NULL,
  curated_at INTEGER,
  published_at INTEGER,
  previous_hash TEXT,
  PRIMARY KEY (upstream, tool)
) STRICT;
