/**
 * The console's sign-in attempt limit (docs/console.md, "Signing in"). Each client, keyed by its socket address
 * (an IPv6 address by its /64, which one host usually holds whole), may fail `maxFailures` sign-ins within
 * `windowMs` of its first failure; after that its attempts are refused without reading the key until the window
 * ends. A successful sign-in does not clear the count: the holder of one key could otherwise reset it between
 * guesses of another. The table holds at most `capacity` clients: when full, the one
 * seen longest ago is dropped, so memory stays bounded whatever addresses arrive (a client dropped that way would
 * need `capacity` other addresses of its own to cause it, and those get their own attempts anyway).
 */

/** Options of the limit. */
export interface SignInLimitOptions {
  now(): number;
  maxFailures: number;
  windowMs: number;
  capacity: number;
}

/** Defaults: 10 failures per client in 15 minutes, 4096 clients remembered. */
export const SIGN_IN_LIMIT_DEFAULTS = { maxFailures: 10, windowMs: 15 * 60_000, capacity: 4096 } as const;

/** The failed sign-ins of the console's clients. */
export interface SignInLimiter {
  /** Whole seconds until `client` may try again; 0 when it may try now. */
  retryAfter(client: string): number;
  /** Records a failed sign-in of `client`; true exactly when this failure reached the limit. */
  failed(client: string): boolean;
  /** How many clients are remembered (at most `capacity`). */
  size(): number;
}

interface Count {
  start: number;
  failures: number;
}

/** The key a peer address is limited under: IPv4 as is, IPv6 by its /64, no address as one shared key. */
export function clientKeyOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped !== null) return mapped[1] as string;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::', 2);
  const front = head === '' ? [] : head.split(':');
  const back = tail === '' ? [] : tail.split(':');
  const groups = bare.includes('::')
    ? [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back]
    : front;
  const prefix = groups.slice(0, 4).map((group) => (Number.parseInt(group, 16) || 0).toString(16));
  return `${prefix.join(':')}::/64`;
}

/** Creates an empty limit. */
export function createSignInLimiter(options: SignInLimitOptions): SignInLimiter {
  // Insertion order is last-seen order: every write deletes and re-adds its key.
  const counts = new Map<string, Count>();
  const live = (client: string, now: number): Count | undefined => {
    const count = counts.get(client);
    if (count !== undefined && now - count.start >= options.windowMs) {
      counts.delete(client);
      return undefined;
    }
    return count;
  };
  return {
    retryAfter(client) {
      const now = options.now();
      const count = live(client, now);
      if (count === undefined || count.failures < options.maxFailures) return 0;
      return Math.max(1, Math.ceil((count.start + options.windowMs - now) / 1000));
    },
    failed(client) {
      const now = options.now();
      const count = live(client, now) ?? { start: now, failures: 0 };
      counts.delete(client);
      while (counts.size >= options.capacity) {
        const oldest = counts.keys().next();
        if (oldest.done === true) break;
        counts.delete(oldest.value);
      }
      count.failures += 1;
      counts.set(client, count);
      return count.failures === options.maxFailures;
    },
    size: () => counts.size,
  };
}
