import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, type BenchClient } from '../clients.ts';
import { startEchoHttp, type EchoHttpUpstream } from '../echo-upstream.ts';

describe('the echo upstream', () => {
  let http: EchoHttpUpstream;
  const clients: BenchClient[] = [];
  beforeAll(async () => {
    http = await startEchoHttp();
  }, 60_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await http?.stop();
  });

  it.each(['stdio', 'http'] as const)('echoes its message over %s in the legacy era', async (kind) => {
    const client = kind === 'stdio' ? await connectStdio() : await connectHttp(http.url);
    clients.push(client);
    expect(client.client.getProtocolEra()).toBe('legacy');
    const { tools } = await client.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo']);
    await client.echo('echo', `hello over ${kind}`);
    const result = await client.client.callTool({ name: 'echo', arguments: { message: 'é ✓' } });
    expect(result.content).toEqual([{ type: 'text', text: 'é ✓' }]);
  });

  it('rejects a call whose answer is not the echo', async () => {
    const client = await connectHttp(http.url);
    clients.push(client);
    await expect(client.echo('nope', 'x')).rejects.toThrow(/did not echo|nope/);
  });

  it('listens on 127.0.0.1 only', () => {
    expect(new URL(http.url).hostname).toBe('127.0.0.1');
  });
});
