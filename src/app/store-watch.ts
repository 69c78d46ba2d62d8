/**
 * Notices changes another process (the `portcullis ledger` CLI) made to the database. SQLite tells no other
 * connection about a commit, so its data version is compared once a second.
 */
import type { Store } from '../store/index.ts';

/** How often the data version is compared. */
export const STORE_WATCH_INTERVAL_MS = 1_000;

/** Calls `changed` after another connection committed; returns the stop function. */
export function watchStore(store: Pick<Store, 'dataVersion'>, changed: () => void): () => void {
  let seen = store.dataVersion();
  const timer = setInterval(() => {
    const version = store.dataVersion();
    if (version === seen) return;
    seen = version;
    changed();
  }, STORE_WATCH_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
