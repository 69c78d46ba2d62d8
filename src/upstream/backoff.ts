/** Reconnect delay after `attempt` consecutive failures: exponential from 500 ms, capped, with ±20 % jitter. */
export function reconnectDelayMs(
  attempt: number,
  random: () => number = Math.random,
  capMs = 30_000,
): number {
  const base = Math.min(capMs, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
