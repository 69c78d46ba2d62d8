/**
 * resources/subscribe of a 2025-era session relayed to a 2026-era upstream link, where it becomes a
 * subscriptions/listen stream: the upstream's update reaches the session that subscribed and no other, and stops
 * after it unsubscribes. Both eras of the upstream link run the same scenario.
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

  it.each(['modern', 'legacy'])(
    'relays updates from the %s-era link to the subscriber only, until it unsubscribes',
    async (upstream) => {
      const subscriber = await follow();
      const bystander = await follow();
      // Both fixtures serve the same URI; the first upstream in config order (modern) owns it in the surface.
      const touch = `${upstream}_touch`;
      const owner = 'modern';
      await subscriber.client.subscribeResource({ uri: NOTE_URI });

      await subscriber.client.callTool({ name: touch, arguments: {} });
      if (upstream === owner) {
        await waitFor(async () => subscriber.updates.includes(NOTE_URI) || undefined, 20_000, 'an update');
      } else {
        // An update from an upstream that does not own the URI in the surface is not relayed.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(subscriber.updates).toEqual([]);
      }
      expect(bystander.updates).toEqual([]);

      await subscriber.client.unsubscribeResource({ uri: NOTE_URI });
      const seen = subscriber.updates.length;
      await subscriber.client.callTool({ name: `${owner}_touch`, arguments: {} });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(subscriber.updates).toHaveLength(seen);
      await Promise.all([subscriber.client.close(), bystander.client.close()]);
    },
  );
});
