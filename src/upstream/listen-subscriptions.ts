/**
 * Resource subscriptions on a 2026-era upstream link, where `resources/subscribe` no longer exists: each
 * subscribed URI gets its own `subscriptions/listen` stream. Updates arrive through the client's ordinary
 * `notifications/resources/updated` handler. A stream the upstream drops is re-opened at once and, while that
 * fails, again with backoff for as long as the URI stays subscribed: the first failure is reported as a loss,
 * the stream's return as a restore. Closing the link stops all of it (the gateway renews every subscription
 * when the link reconnects).
 */
import { PortcullisError } from '../errors/index.ts';
import { reconnectDelayMs } from './backoff.ts';

/** What a `subscriptions/listen` stream asks for (the spec's SubscriptionFilter). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** How a listen stream ended: closed by the gateway, by the upstream's answer, or dropped (link, stream, refusal). */
export type ListenEnding = 'local' | 'graceful' | 'remote';

/** One acknowledged `subscriptions/listen` stream. */
export interface ListenStream {
  /** What the upstream acknowledged it will deliver. */
  readonly honoredFilter: ListenFilter;
  /** Settles once, when the stream ends. */
  readonly closed: Promise<ListenEnding>;
  /** Ends the stream from the gateway's side. */
  close(): Promise<void>;
}

/** Opens listen streams (the modern link); rejects when the upstream refuses or does not acknowledge in time. */
export interface ListenSource {
  listen(filter: ListenFilter, options: { timeout: number }): Promise<ListenStream>;
}

/** The subscriptions of one modern-era upstream link. */
export interface ListenSubscriptions {
  /** Opens a listen stream for `uri` (no-op when one is open); UPSTREAM_ERROR when the upstream refuses it. */
  subscribe(uri: string): Promise<void>;
  /** Closes the stream of `uri`, if any, and stops re-opening it. */
  unsubscribe(uri: string): Promise<void>;
  /** Closes every stream and opens none again (the link is closing or has closed). */
  closeAll(): void;
  /** Open streams. */
  readonly size: number;
}

/** What the subscriptions need from the link. */
export interface ListenSubscriptionsDeps {
  client: ListenSource;
  upstreamId: string;
  timeoutMs: number;
  /** A dropped stream could not be re-opened at once; it is retried with backoff until it is, or until unsubscribe. */
  onLost?(uri: string, error: Error): void;
  /** A stream reported lost is open again. */
  onRestored?(uri: string): void;
  /** Wait before retry `attempt` (1 = the first after the immediate re-open failed); default: reconnect backoff. */
  retryDelayMs?(attempt: number): number;
}

/** Creates the per-URI listen streams of one upstream link. */
export function createListenSubscriptions(deps: ListenSubscriptionsDeps): ListenSubscriptions {
  const open = new Map<string, ListenStream>();
  // Subscribed URIs, open or being re-opened; a retry stops once its URI leaves this set.
  const wanted = new Set<string>();
  const retries = new Map<string, NodeJS.Timeout>();
  // First opens in progress: a second subscribe to the same URI shares the first one's outcome.
  const firstOpens = new Map<string, Promise<void>>();
  const retryDelayMs = deps.retryDelayMs ?? ((attempt: number) => reconnectDelayMs(attempt));
  let closing = false;

  const listen = async (uri: string): Promise<ListenStream> => {
    let subscription: ListenStream;
    try {
      subscription = await deps.client.listen({ resourceSubscriptions: [uri] }, { timeout: deps.timeoutMs });
    } catch (error) {
      throw new PortcullisError(
        'UPSTREAM_ERROR',
        `upstream "${deps.upstreamId}" refused subscriptions/listen for ${uri}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (!subscription.honoredFilter.resourceSubscriptions?.includes(uri)) {
      // The refusal below is the answer; closing the useless stream is best effort.
      await subscription.close().catch(() => {});
      throw new PortcullisError(
        'UPSTREAM_ERROR',
        `upstream "${deps.upstreamId}" did not accept a subscription to ${uri}`,
        { reason: 'no-subscriptions' },
      );
    }
    if (closing || !wanted.has(uri)) {
      // Unsubscribed (or the link closed) while this stream was being opened; a failed close changes nothing.
      await subscription.close().catch(() => {});
      return subscription;
    }
    open.set(uri, subscription);
    void subscription.closed.then((how) => {
      if (open.get(uri) !== subscription) return;
      open.delete(uri);
      // A stream that ends because the whole link went down is not lost: the link closes these (closeAll)
      // and the gateway renews them on reconnect.
      if (how === 'remote' && !closing) reopen(uri, 0);
    });
    return subscription;
  };

  const stillWanted = (uri: string) => !closing && wanted.has(uri);

  const reopen = (uri: string, attempt: number): void => {
    retries.delete(uri);
    if (!stillWanted(uri)) return;
    listen(uri).then(
      () => {
        if (attempt > 0 && stillWanted(uri)) deps.onRestored?.(uri);
      },
      (error: Error) => {
        if (!stillWanted(uri)) return;
        if (attempt === 0) deps.onLost?.(uri, error);
        const timer = setTimeout(() => reopen(uri, attempt + 1), retryDelayMs(attempt + 1));
        timer.unref();
        retries.set(uri, timer);
      },
    );
  };

  const stopRetrying = (uri: string) => {
    clearTimeout(retries.get(uri));
    retries.delete(uri);
  };

  return {
    subscribe(uri) {
      const opening = firstOpens.get(uri);
      if (opening) return opening;
      if (wanted.has(uri)) return Promise.resolve();
      wanted.add(uri);
      const first = listen(uri).then(
        () => {
          firstOpens.delete(uri);
        },
        (error: unknown) => {
          firstOpens.delete(uri);
          wanted.delete(uri);
          throw error;
        },
      );
      firstOpens.set(uri, first);
      return first;
    },
    async unsubscribe(uri) {
      wanted.delete(uri);
      stopRetrying(uri);
      const subscription = open.get(uri);
      open.delete(uri);
      await subscription?.close();
    },
    closeAll() {
      closing = true;
      for (const uri of retries.keys()) stopRetrying(uri);
      wanted.clear();
      // The link is closing: streams that fail to close die with it.
      for (const subscription of open.values()) void subscription.close().catch(() => {});
      open.clear();
    },
    get size() {
      return open.size;
    },
  };
}
