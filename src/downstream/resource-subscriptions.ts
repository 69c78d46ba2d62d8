/**
 * Resource subscriptions passed through to upstreams: which downstream sessions follow which resource URI, one
 * upstream subscription per URI however many sessions follow it, `notifications/resources/updated` fanned out to
 * the followers, and the upstream subscriptions renewed after its connection comes back.
 */

/** Tells one downstream session that a resource it follows changed. */
export type ResourceFollower = (uri: string) => void;

/** The upstream side of subscriptions. */
export interface UpstreamSubscriber {
  subscribe(upstream: string, uri: string): Promise<void>;
  unsubscribe(upstream: string, uri: string): Promise<void>;
}

/** The subscriptions of all downstream sessions. */
export interface ResourceSubscriptions {
  /** Follows `uri` (served by `upstream`); rejects, following nothing, when the upstream refuses. */
  subscribe(uri: string, upstream: string, follower: ResourceFollower): Promise<void>;
  /** Stops following `uri`; the upstream subscription ends with its last follower. */
  unsubscribe(uri: string, follower: ResourceFollower): Promise<void>;
  /** Drops every subscription of a session that has gone. */
  drop(follower: ResourceFollower): void;
  /** An upstream reported a change: tells the followers of that URI on that upstream. */
  updated(upstream: string, uri: string): void;
  /** Subscribes again to what is followed on `upstream` (its connection is new). */
  renew(upstream: string): Promise<void>;
}

interface Followed {
  upstream: string;
  followers: Set<ResourceFollower>;
}

/** Creates the registry over the upstream side. */
export function createResourceSubscriptions(
  upstreams: UpstreamSubscriber,
  onRenewFailed: (upstream: string, uri: string, error: unknown) => void = () => {},
): ResourceSubscriptions {
  const byUri = new Map<string, Followed>();

  const release = (uri: string, followed: Followed) => {
    if (followed.followers.size > 0 || byUri.get(uri) !== followed) return;
    byUri.delete(uri);
    // Best effort: a failed upstream unsubscribe only costs notifications that nobody follows any more.
    void upstreams.unsubscribe(followed.upstream, uri).catch(() => {});
  };

  return {
    async subscribe(uri, upstream, follower) {
      // A URI has one owner: the upstream of its first subscription, until its last follower leaves.
      const known = byUri.get(uri);
      if (known) {
        known.followers.add(follower);
        return;
      }
      const followed: Followed = { upstream, followers: new Set([follower]) };
      byUri.set(uri, followed);
      try {
        await upstreams.subscribe(upstream, uri);
      } catch (error) {
        followed.followers.delete(follower);
        if (byUri.get(uri) === followed) byUri.delete(uri);
        throw error;
      }
    },
    async unsubscribe(uri, follower) {
      const followed = byUri.get(uri);
      if (!followed) return;
      followed.followers.delete(follower);
      release(uri, followed);
    },
    drop(follower) {
      for (const [uri, followed] of byUri) {
        if (followed.followers.delete(follower)) release(uri, followed);
      }
    },
    updated(upstream, uri) {
      const followed = byUri.get(uri);
      if (!followed || followed.upstream !== upstream) return;
      for (const follower of followed.followers) follower(uri);
    },
    async renew(upstream) {
      const uris = [...byUri].filter(([, f]) => f.upstream === upstream).map(([uri]) => uri);
      await Promise.all(
        uris.map((uri) =>
          upstreams.subscribe(upstream, uri).catch((error) => onRenewFailed(upstream, uri, error)),
        ),
      );
    },
  };
}
