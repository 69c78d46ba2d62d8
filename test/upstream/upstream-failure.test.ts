/**
 * Issue 2, "it must show" 3: an upstream dies mid-run. The other upstreams keep serving, the dead one's tools
 * fail with a clear error naming it, and once it is back its tools work again without restarting Portcullis.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  startEverythingHttp,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
  pidWith,
} from '../helpers/gateway-harness.ts';

const text = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('an upstream that dies mid-run', () => {
  let gateway: RunningGateway;
  let http: Awaited<ReturnType<typeof startEverythingHttp>>;
  let client: Client;
  const marker = `--portcullis-test-marker=${randomUUID()}`;
  // While this file exists the fixture refuses to start, so the upstream stays down as long as the test needs.
  const refuseFile = path.join(mkdtempSync(path.join(tmpdir(), 'portcullis-refuse-')), 'down');

  beforeAll(async () => {
    http = await startEverythingHttp();
    gateway = await startGateway({
      upstreams: {
        every: UPSTREAMS.everythingStdio,
        mut: {
          ...UPSTREAMS.mutable,
          args: [...UPSTREAMS.mutable.args, marker, `--refuse-start-if=${refuseFile}`],
        },
      },
    });
    client = await connectClient(gateway.url, { era: 'legacy' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await http?.stop();
    rmSync(path.dirname(refuseFile), { recursive: true, force: true });
  });

  it('keeps the others serving, names the dead upstream, and recovers after it restarts', async () => {
    expect(text(await client.callTool({ name: 'mut_stats', arguments: {} }))).toContain('completed');
    const pid = pidWith(marker);
    expect(pid).toBeDefined();
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });

    // A call in flight when the child dies fails with an error naming the upstream.
    writeFileSync(refuseFile, 'stay down');
    const inFlight = client.callTool({ name: 'mut_wait', arguments: { ms: 20_000 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(pid as number, 'SIGKILL');
    const broken = await inFlight;
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(
      /^upstream "mut" is unreachable \(.*\) during wait; it will be reconnected$/,
    );
    await waitFor(
      () => gateway.gateway.supervisor.snapshot('mut')?.state === 'down',
      10_000,
      'upstream down',
    );

    const echo = await client.callTool({ name: 'every_echo', arguments: { message: 'still here' } });
    expect(text(echo)).toContain('still here');

    // While it is down (its restarts fail) its tools answer with an error naming it.
    const during = await client.callTool({ name: 'mut_stats', arguments: {} });
    expect(during.isError).toBe(true);
    expect(during._meta?.['dev.portcullis/error']).toEqual({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(text(during)).toBe(
      'tool mut_stats is unavailable: upstream "mut" is not connected; retry once it reconnects',
    );

    rmSync(refuseFile);
    await waitFor(
      () => gateway.gateway.supervisor.snapshot('mut')?.state === 'connected',
      20_000,
      'reconnect',
    );
    expect(changes).toBeGreaterThan(0);
    const after = await client.callTool({ name: 'mut_stats', arguments: {} });
    expect(after.isError).toBeFalsy();
    expect(pidWith(marker)).not.toBe(pid);
  });

  it('answers with a clear error naming an HTTP upstream while it is gone, then works again', async () => {
    const local = await startGateway({ upstreams: { remote: { transport: 'http', url: http.url } } }, {});
    const c = await connectClient(local.url, { era: 'modern' });
    try {
      expect(text(await c.callTool({ name: 'remote_echo', arguments: { message: 'one' } }))).toContain('one');
      const port = new URL(http.url).port;
      await http.stop();
      const failed = await c
        .callTool({ name: 'remote_echo', arguments: { message: 'two' } })
        .catch((e: Error) => e);
      const failure = failed instanceof Error ? failed.message : text(failed);
      expect(failure).toMatch(/remote/);
      if (!(failed instanceof Error)) expect(failed.isError).toBe(true);

      http = await startEverythingHttp(Number(port));
      await waitFor(
        async () => {
          const again = await c
            .callTool({ name: 'remote_echo', arguments: { message: 'three' } })
            .catch(() => undefined);
          return again && !again.isError && text(again).includes('three');
        },
        30_000,
        'the HTTP upstream to come back',
      );
    } finally {
      await c.close();
      await local.close();
    }
  });
});
