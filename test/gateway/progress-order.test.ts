/**
 * The gateway's hop to a stdio upstream keeps progress in order: server-everything sends its last progress
 * notification just before the answer, in the same read, and the direct tool call relays it before resolving
 * (the SDK client's own callTool drops it now and then, see upstream/direct-tool-call.ts).
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachDirectToolCalls, type DirectToolCaller } from '../../src/upstream/direct-tool-call.ts';
import { UPSTREAMS } from '../helpers/gateway-harness.ts';

describe('progress through a direct tool call to server-everything over stdio', () => {
  let client: Client;
  let direct: DirectToolCaller;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: UPSTREAMS.everythingStdio.command,
      args: [...UPSTREAMS.everythingStdio.args],
      stderr: 'ignore',
    });
    client = new Client({ name: 'progress-order-test', version: '1.0.0' });
    await client.connect(transport);
    direct = attachDirectToolCalls(transport);
  }, 60_000);

  afterAll(async () => client?.close());

  it('delivers every progress notification, the last one before the answer, in every run', async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 20; run++) {
      const seen: string[] = [];
      await direct.call(
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
