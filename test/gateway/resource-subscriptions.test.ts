/**
 * resources/subscribe through Portcullis, against server-everything over stdio: a 2025-era session subscribes to
 * a resource, the upstream's `notifications/resources/updated` reaches that session and no other, and after
 * unsubscribing it stops. 2026-era clients (no session to notify) are not offered subscriptions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio } });
}, 120_000);
afterAll(async () => gateway?.close());

async function follow(era: 'legacy' | 'modern'): Promise<{ client: Client; updates: string[] }> {
  const client = await connectClient(gateway.url, { era });
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri);
  });
  return { client, updates };
}

describe('resource subscriptions', () => {
  it('relays updates of a subscribed resource to the session that subscribed, until it unsubscribes', async () => {
    const subscriber = await follow('legacy');
    const bystander = await follow('legacy');
    expect(subscriber.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const { resources } = await subscriber.client.listResources();
    const uri = resources[0]?.uri as string;
    expect(uri).toMatch(/^demo:\/\//);

    await subscriber.client.subscribeResource({ uri });
    // The upstream sends an update for every subscribed URI at once when its simulated updates are switched on.
    await subscriber.client.callTool({ name: 'every_toggle-subscriber-updates', arguments: {} });
    await waitFor(async () => subscriber.updates.includes(uri) || undefined, 20_000, `an update of ${uri}`);
    expect(bystander.updates).toEqual([]);

    await subscriber.client.unsubscribeResource({ uri });
    const seen = subscriber.updates.length;
    await subscriber.client.callTool({ name: 'every_toggle-subscriber-updates', arguments: {} });
    await subscriber.client.callTool({ name: 'every_toggle-subscriber-updates', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(subscriber.updates).toHaveLength(seen);
    await subscriber.client.callTool({ name: 'every_toggle-subscriber-updates', arguments: {} });
    await Promise.all([subscriber.client.close(), bystander.client.close()]);
  });

  it('refuses a resource no exposed upstream serves, naming it', async () => {
    const { client } = await follow('legacy');
    await expect(client.subscribeResource({ uri: 'nowhere://x' })).rejects.toThrow(
      /Unknown resource: nowhere:\/\/x/,
    );
    await client.close();
  });

  it('does not offer subscriptions to a 2026-era client', async () => {
    const { client } = await follow('modern');
    expect(client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
    await client.close();
  });
});
