/**
 * Resource subscriptions on a 2026-era upstream link, where `resources/subscribe` no longer exists: each
 * subscribed URI gets its own `subscriptions/listen` stream. Updates arrive through the client's ordinary
 * `notifications/resources/updated` handler. A stream the upstream drops is re-opened once; if that fails the
 * loss is reported and the URI is forgotten (the gateway renews every subscription when the link reconnects).
 */
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import { PortcullisError } from '../errors/index.ts';

/** The subscriptions of one modern-era upstream link. */
export interface ListenSubscriptions {
  /** Opens a listen stream for `uri` (no-op when one is open); UPSTREAM_ERROR when the upstream refuses it. */
  subscribe(uri: string): Promise<void>;
  /** Closes the stream of `uri`, if any. */
  unsubscribe(uri: string): Promise<void>;
  /** Closes every stream and opens none again (the link is closing or has closed). */
  closeAll(): void;
  readonly size: number;
}

/** What the subscriptions need from the link. */
export interface ListenSubscriptionsDeps {
  client: Pick<Client, 'listen'>;
  upstreamId: string;
  timeoutMs: number;
  /** A dropped stream could not be re-opened. */
  onLost?(uri: string, error: Error): void;
}

/** Creates the per-URI listen streams of one upstream link. */
export function createListenSubscriptions(deps: ListenSubscriptionsDeps): ListenSubscriptions {
  const open = new Map<string, McpSubscription>();
  let closing = false;

  const listen = async (uri: string): Promise<McpSubscription> => {
    let subscription: McpSubscription;
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
      await subscription.close().catch(() => {});
      throw new PortcullisError(
        'UPSTREAM_ERROR',
        `upstream "${deps.upstreamId}" did not accept a subscription to ${uri}`,
        { reason: 'no-subscriptions' },
      );
    }
    open.set(uri, subscription);
    void subscription.closed.then((how) => {
      if (open.get(uri) !== subscription) return;
      open.delete(uri);
      if (how === 'remote' && !closing) {
        // A stream that ends because the whole link went down is not lost: the link closes these (closeAll)
        // and the gateway renews them on reconnect.
        listen(uri).catch((error: Error) => {
          if (!closing) deps.onLost?.(uri, error);
        });
      }
    });
    return subscription;
  };

  return {
    async subscribe(uri) {
      if (open.has(uri)) return;
      await listen(uri);
    },
    async unsubscribe(uri) {
      const subscription = open.get(uri);
      open.delete(uri);
      await subscription?.close();
    },
    closeAll() {
      closing = true;
      for (const subscription of open.values()) void subscription.close().catch(() => {});
      open.clear();
    },
    get size() {
      return open.size;
    },
  };
}
