/**
 * resources/subscribe of a 2025-era session relayed to a 2026-era upstream link, where it becomes a
 * subscriptions/listen stream: the upstream's update reaches the session that subscribed and no other, and stops
 * after it unsubscribes. An update from an upstream that does not own the URI is not relayed.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, startGateway, waitFor, type RunningGateway } from '../helpers/gateway-harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NOTE_URI = 'note://today';
const fixture = (protocol: 'legacy' | 'modern') => ({
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/subscribable-server.ts')],
  cwd: ROOT,
  protocol,
});

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway({ upstreams: { modern: fixture('modern'), legacy: fixture('legacy') } });
}, 120_000);
afterAll(async () => gateway?.close());

async function follow(): Promise<{ client: Client; updates: string[] }> {
  const client = await connectClient(gateway.url, { era: 'legacy' });
  const updates: string[] = [];
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    updates.push(n.params.uri);
  });
  return { client, updates };
}

describe('resource subscriptions across upstream eras', () => {
  it('links negotiated the era each upstream was pinned to', () => {
    const eras = Object.fromEntries(gateway.gateway.supervisor.snapshots().map((s) => [s.id, s.era]));
    expect(eras).toEqual({ modern: 'modern', legacy: 'legacy' });
  });

  it('relays updates over the modern-era link to the subscriber only, until it unsubscribes', async () => {
    const subscriber = await follow();
    const bystander = await follow();
    await subscriber.client.subscribeResource({ uri: NOTE_URI });

    await subscriber.client.callTool({ name: 'modern_touch', arguments: {} });
    await waitFor(async () => subscriber.updates.includes(NOTE_URI) || undefined, 20_000, 'an update');
    expect(bystander.updates).toEqual([]);

    await subscriber.client.unsubscribeResource({ uri: NOTE_URI });
    const seen = subscriber.updates.length;
    await subscriber.client.callTool({ name: 'modern_touch', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(subscriber.updates).toHaveLength(seen);
    await Promise.all([subscriber.client.close(), bystander.client.close()]);
  });

  it('ignores an update of the same URI from an upstream that does not own it', async () => {
    // Both fixtures serve note://today; the first upstream in config order (modern) owns it in the surface.
    const subscriber = await follow();
    await subscriber.client.subscribeResource({ uri: NOTE_URI });
    await subscriber.client.callTool({ name: 'legacy_touch', arguments: {} });
    await subscriber.client.callTool({ name: 'modern_touch', arguments: {} });
    await waitFor(async () => subscriber.updates.includes(NOTE_URI) || undefined, 20_000, 'an update');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Only the owner's update arrived.
    expect(subscriber.updates).toEqual([NOTE_URI]);
    await subscriber.client.close();
  });
});
