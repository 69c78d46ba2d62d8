-- Each upstream's last successful connection and last tool call, in ms since the epoch (the risk engine
-- reads "last used" for the documentation axis).
CREATE TABLE upstream_state (
  id TEXT PRIMARY KEY NOT NULL,
  last_connected_at INTEGER,
  last_used_at INTEGER
) STRICT;
