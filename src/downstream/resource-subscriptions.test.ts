import { describe, expect, it } from 'vitest';
import { createResourceSubscriptions, type ResourceFollower } from './resource-subscriptions.ts';

function setup(refuse: (uri: string) => boolean = () => false) {
  const calls: string[] = [];
  const renewFailures: string[] = [];
  const subscriptions = createResourceSubscriptions(
    {
      subscribe: async (upstream, uri) => {
        calls.push(`subscribe ${upstream} ${uri}`);
        if (refuse(uri)) throw new Error(`refused ${uri}`);
      },
      unsubscribe: async (upstream, uri) => {
        calls.push(`unsubscribe ${upstream} ${uri}`);
      },
    },
    (upstream, uri) => renewFailures.push(`${upstream} ${uri}`),
  );
  const seen: string[] = [];
  const follower =
    (name: string): ResourceFollower =>
    (uri) =>
      seen.push(`${name} ${uri}`);
  return { subscriptions, calls, seen, follower, renewFailures };
}

describe('createResourceSubscriptions', () => {
  it('subscribes upstream once per URI and tells every follower of it, and only them', async () => {
    const { subscriptions, calls, seen, follower } = setup();
    const [a, b, c] = [follower('a'), follower('b'), follower('c')];
    await subscriptions.subscribe('r://1', 'up', a);
    await subscriptions.subscribe('r://1', 'up', b);
    await subscriptions.subscribe('r://2', 'up', c);
    expect(calls).toEqual(['subscribe up r://1', 'subscribe up r://2']);
    subscriptions.updated('up', 'r://1');
    subscriptions.updated('other', 'r://2');
    expect(seen).toEqual(['a r://1', 'b r://1']);
  });

  it('ends the upstream subscription with its last follower, by unsubscribe or by a session that went', async () => {
    const { subscriptions, calls, seen, follower } = setup();
    const [a, b] = [follower('a'), follower('b')];
    await subscriptions.subscribe('r://1', 'up', a);
    await subscriptions.subscribe('r://1', 'up', b);
    await subscriptions.unsubscribe('r://1', a);
    expect(calls).toEqual(['subscribe up r://1']);
    subscriptions.drop(b);
    expect(calls).toEqual(['subscribe up r://1', 'unsubscribe up r://1']);
    subscriptions.updated('up', 'r://1');
    expect(seen).toEqual([]);
    await subscriptions.unsubscribe('r://never', a);
    expect(calls).toHaveLength(2);
  });

  it('follows nothing when the upstream refuses', async () => {
    const { subscriptions, seen, follower } = setup((uri) => uri === 'r://no');
    await expect(subscriptions.subscribe('r://no', 'up', follower('a'))).rejects.toThrow('refused r://no');
    subscriptions.updated('up', 'r://no');
    expect(seen).toEqual([]);
  });

  it('renews the subscriptions of one upstream after it reconnects, reporting the ones it refuses', async () => {
    let refuseNow = false;
    const { subscriptions, calls, follower, renewFailures } = setup((uri) => refuseNow && uri === 'r://2');
    await subscriptions.subscribe('r://1', 'up', follower('a'));
    await subscriptions.subscribe('r://2', 'up', follower('b'));
    await subscriptions.subscribe('r://3', 'other', follower('c'));
    calls.length = 0;
    refuseNow = true;
    await subscriptions.renew('up');
    expect(calls).toEqual(['subscribe up r://1', 'subscribe up r://2']);
    expect(renewFailures).toEqual(['up r://2']);
  });
});
