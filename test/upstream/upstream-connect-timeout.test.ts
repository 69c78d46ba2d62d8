/**
 * `upstreams.<id>.connectTimeout` bounds one upstream's connect (spawn, era probe, MCP handshake): a server that
 * never answers is reported down after its own limit, while an upstream without the key keeps the default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, waitFor, type RunningGateway } from '../helpers/gateway-harness.ts';

const silent = { transport: 'stdio', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };

describe('a per-upstream connect timeout', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway(
      {
        upstreams: {
          quick: { ...silent, protocol: 'legacy', connectTimeout: '1s' },
          patient: { ...silent, protocol: 'legacy' },
        },
      },
      { settle: false },
    );
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it('fails the attempt after the upstream own limit, not the default 30 s', async () => {
    const supervisor = gateway.gateway.supervisor;
    await waitFor(() => supervisor.snapshot('quick')?.lastError !== undefined, 20_000, 'quick reported down');
    expect(supervisor.snapshot('quick')?.lastError).toMatch(/within 1000 ms/);
    // The default still applies where the key is absent: the other silent upstream is still connecting.
    expect(supervisor.snapshot('patient')?.lastError).toBeUndefined();
  });
});
