/**
 * The gateway's hop to a stdio upstream keeps progress in order: server-everything sends its last progress
 * notification just before the answer, in the same read, and the gateway's own 2025-era client
 * (upstream/wire.ts) relays it before resolving (the SDK client's callTool dropped it now and then).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../../src/config/index.ts';
import { connectUpstream, type UpstreamConnection } from '../../src/upstream/connection.ts';
import { UPSTREAMS } from '../helpers/gateway-harness.ts';

describe('progress through the legacy client to server-everything over stdio', () => {
  let connection: UpstreamConnection;

  beforeAll(async () => {
    const config: UpstreamConfig = {
      id: 'every',
      enabled: true,
      protocol: 'legacy',
      callTimeoutMs: 10_000,
      sampling: false,
      transport: 'stdio',
      command: UPSTREAMS.everythingStdio.command,
      args: [...UPSTREAMS.everythingStdio.args],
      env: {},
    };
    connection = await connectUpstream(
      config,
      { inheritedEnv: {} },
      { onClose: () => {}, onListChanged: () => {} },
    );
  }, 60_000);

  afterAll(async () => connection?.close());

  it('delivers every progress notification, the last one before the answer, in every run', async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 20; run++) {
      const seen: string[] = [];
      await connection.callTool(
        'trigger-long-running-operation',
        { duration: 0.15, steps: 3 },
        { timeoutMs: 10_000, onProgress: (p) => seen.push(`${p.progress}/${p.total}`) },
      );
      seen.push('answer');
      runs.push(seen);
    }
    expect(runs).toEqual(Array.from({ length: 20 }, () => ['1/3', '2/3', '3/3', 'answer']));
  }, 60_000);
});
