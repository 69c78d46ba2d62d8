-- The append-only audit log. Each row is hash-chained to the one before it:
-- digest = sha256(prev_digest || record), where record is the canonical JSON of the audit record.
-- The indexed columns repeat fields of the record for filtering; verification checks that they agree.
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY NOT NULL,
  id TEXT NOT NULL UNIQUE,
  time TEXT NOT NULL,
  time_ms INTEGER NOT NULL,
  principal TEXT,
  alias TEXT NOT NULL,
  outcome TEXT NOT NULL,
  decision TEXT NOT NULL,
  record TEXT NOT NULL,
  prev_digest TEXT NOT NULL,
  digest TEXT NOT NULL
) STRICT;

CREATE INDEX audit_log_time ON audit_log (time_ms);
CREATE INDEX audit_log_digest ON audit_log (digest);

-- The chain head (one row): the seq and digest of the last appended row, updated in the same transaction
-- as the append, so that deleting the newest rows is detected as well.
CREATE TABLE audit_head (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  seq INTEGER NOT NULL,
  digest TEXT NOT NULL
) STRICT;

-- Append-only: ordinary UPDATE and DELETE statements are refused. Someone with write access to the file can
-- still drop these triggers; the hash chain is what detects that kind of tampering.
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
