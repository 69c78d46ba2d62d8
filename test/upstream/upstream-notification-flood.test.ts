/**
 * Issue 14, defect 5: an upstream that floods `notifications/tools/list_changed` must not make the gateway
 * re-fetch its lists for every notification. Refreshes are coalesced and spaced per upstream; the healthy
 * upstream beside it keeps answering.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const text = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('an upstream flooding list_changed notifications', () => {
  let gateway: RunningGateway;
  let client: Client;
  const dir = tempDir('portcullis-flood-');
  const listsFile = path.join(dir, 'lists');
  const listRequests = () =>
    existsSync(listsFile) ? readFileSync(listsFile, 'utf8').split('\n').length - 1 : 0;

  beforeAll(async () => {
    gateway = await startGateway({
      upstreams: {
        every: { ...UPSTREAMS.everythingStdio, protocol: 'legacy' },
        flood: {
          transport: 'stdio',
          protocol: 'legacy',
          command: process.execPath,
          args: [
            '--import',
            'tsx',
            path.join(ROOT, 'test/fixtures/upstream-misbehaving.ts'),
            '--mode=flood',
            `--lists-file=${listsFile}`,
          ],
          cwd: ROOT,
        },
      },
    });
    client = await connectClient(gateway.url, { era: 'legacy' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-fetches the list a bounded number of times, cuts the flood off, and keeps the other upstream answering', async () => {
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const echoStarted = Date.now();
    const echo = await client.callTool({ name: 'every_echo', arguments: { message: 'not drowned' } });
    expect(text(echo)).toContain('not drowned');
    // Generous: proves the event loop is not swamped, not a latency figure.
    expect(Date.now() - echoStarted).toBeLessThan(2_000);
    const seconds = (Date.now() - started) / 1000;
    // About one fetch a second at most, per connection (before: thousands).
    expect(listRequests()).toBeGreaterThan(0);
    expect(listRequests()).toBeLessThanOrEqual(5 + Math.ceil(seconds * 1.5));
    // The flooding upstream was cut off and said why, at warn.
    const downs = gateway.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.event === 'upstream.down' && entry.upstream === 'flood');
    expect(downs.length).toBeGreaterThan(0);
    expect(downs[0]?.level).toBe('warn');
    expect(String(downs[0]?.reason)).toMatch(/notifications a second .* and was disconnected/);
  }, 60_000);
});
