/**
 * Bounds what one upstream's notifications can cost the gateway. Up to NOTIFICATIONS_PER_SECOND are handled each
 * second; the rest are dropped (and counted). An upstream over the limit for FLOOD_SECONDS seconds in a row is
 * cut off: every message it sends is parsed before it can be dropped, so only closing the connection ends the
 * cost (the supervisor reconnects it with backoff).
 */

/** Notifications handled per upstream and second. */
export const NOTIFICATIONS_PER_SECOND = 200;
/** Consecutive seconds over the limit after which the upstream is disconnected. */
export const FLOOD_SECONDS = 3;

/** What to do with one notification. */
export type NotificationVerdict = 'handle' | 'drop' | 'disconnect';

/** Counts one upstream's notifications in one-second windows. */
export interface NotificationGuard {
  admit(): NotificationVerdict;
  /** Notifications dropped since the connection opened. */
  readonly dropped: number;
}

/** Creates a guard for one connection. */
export function createNotificationGuard(now: () => number = Date.now): NotificationGuard {
  let windowStart = now();
  let inWindow = 0;
  let floodedWindows = 0;
  let dropped = 0;
  let cut = false;
  return {
    admit() {
      if (cut) return 'drop';
      const at = now();
      if (at - windowStart >= 1_000) {
        const contiguous = at - windowStart < 2_000;
        floodedWindows = inWindow > NOTIFICATIONS_PER_SECOND && contiguous ? floodedWindows + 1 : 0;
        windowStart = at;
        inWindow = 0;
      }
      inWindow += 1;
      if (inWindow <= NOTIFICATIONS_PER_SECOND) return 'handle';
      dropped += 1;
      if (floodedWindows + 1 >= FLOOD_SECONDS) {
        cut = true;
        return 'disconnect';
      }
      return 'drop';
    },
    get dropped() {
      return dropped;
    },
  };
}
