-- Each fingerprinted definition beside its digest: the canonical JSON the digest covers (NULL for rows recorded
-- before this version, or when the definition exceeded the size cap), and the last approved digest and definition,
-- so a changed tool can be reviewed as a diff.
ALTER TABLE tool_ledger ADD COLUMN definition TEXT;
ALTER TABLE tool_ledger ADD COLUMN approved_hash TEXT;
ALTER TABLE tool_ledger ADD COLUMN approved_definition TEXT;
