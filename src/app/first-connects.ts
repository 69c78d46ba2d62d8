/**
 * The start-up window of the upstreams' first connects: open from `start()` until every enabled upstream's first
 * attempt has ended (its state left `connecting`) or the wait has passed; then `onSettled` runs once.
 */

/** How long, at most, the window stays open (background rebuilds wait for it). */
export const FIRST_CONNECTS_WAIT_MS = 5000;

/** What the window watches. */
export interface FirstConnectsOptions {
  /** The enabled upstreams, each making a first attempt at start. */
  ids: readonly string[];
  waitMs: number;
  /** An upstream's state now (`connecting` until its attempt ends). */
  stateOf(id: string): string | undefined;
  onSettled(): void;
}

/** The window; `settle(id)` is called on each state change of an upstream. */
export interface FirstConnects {
  start(): void;
  settle(id: string): void;
  /** True before `start()`, and once every first attempt ended or the wait passed. */
  settled(): boolean;
  /** Closes the window without `onSettled` (the gateway is closing). */
  close(): void;
}

/** Creates the window, closed until `start()`. */
export function createFirstConnects(options: FirstConnectsOptions): FirstConnects {
  const pending = new Set<string>();
  let open = false;
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    if (!open) return;
    open = false;
    pending.clear();
    clearTimeout(timer);
    options.onSettled();
  };
  return {
    start() {
      if (open || options.ids.length === 0) return;
      for (const id of options.ids) pending.add(id);
      open = true;
      timer = setTimeout(end, options.waitMs);
      // A gateway closed during start-up is not kept alive by this timer.
      timer.unref();
    },
    settle(id) {
      if (!open || options.stateOf(id) === 'connecting') return;
      pending.delete(id);
      if (pending.size === 0) end();
    },
    settled: () => !open,
    close() {
      open = false;
      pending.clear();
      clearTimeout(timer);
    },
  };
}
