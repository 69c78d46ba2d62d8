/**
 * Issue 15 item 5: rate limits count every attempt. A modern-era call that carries a requestState the gateway
 * did not seal for it (garbage, or a sealed state for another call) is counted like any other call; only the
 * one genuine retry of an approval round is exempt, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
let client: Client;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      every: {
        ...UPSTREAMS.everythingStdio,
        tools: { overrides: { echo: { hitl: 'DISABLED' }, 'get-sum': { hitl: 'REQUIRED' } } },
      },
    },
    approval: {
      elicitationTimeout: '5s',
      rules: [
        { id: 'echo-twice', match: { alias: 'every_echo' }, rateLimit: { calls: 2, per: '1h' } },
        { id: 'sum-once', match: { alias: 'every_get-sum' }, rateLimit: { calls: 1, per: '1h' } },
      ],
    },
  });
  // Manual multi-round-trip mode: the test builds each retry, and its requestState, itself.
  client = new Client(
    { name: 'manual-modern', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

type Round = CallToolResult & { resultType?: string; requestState?: string };

function call(name: string, args: Record<string, unknown>, requestState?: string): Promise<Round> {
  return client.callTool(
    {
      name,
      arguments: args,
      ...(requestState === undefined
        ? {}
        : { requestState, inputResponses: { approval: { action: 'accept', content: {} } } }),
    } as Parameters<Client['callTool']>[0],
    { allowInputRequired: true },
  ) as Promise<Round>;
}

const codeOf = (result: Round) =>
  (result._meta?.['dev.portcullis/error'] as { code?: string } | undefined)?.code ?? 'none';

describe('rate limits and requestState (modern era)', () => {
  it('counts a call that carries a requestState the gateway never sealed', async () => {
    const echo = (state?: string) => call('every_echo', { message: 'hi' }, state);
    expect(codeOf(await echo())).toBe('none');
    expect(codeOf(await echo('x'))).toBe('none');
    // Two calls used the budget: a third is refused whatever requestState it carries.
    for (const state of ['x', 'a.forged', undefined]) {
      const refused = await echo(state);
      expect(refused.isError).toBe(true);
      expect(codeOf(refused)).toBe('RATE_LIMITED');
    }
  });

  it('exempts the genuine approval retry once, and counts its replay', async () => {
    const args = { a: 1, b: 2 };
    const first = await call('every_get-sum', args);
    expect(first.resultType).toBe('input_required');
    const state = first.requestState as string;
    const retried = await call('every_get-sum', args, state);
    expect(retried.isError).toBeFalsy();
    const replayed = await call('every_get-sum', args, state);
    expect(replayed.isError).toBe(true);
    expect(codeOf(replayed)).toBe('RATE_LIMITED');
  });

  it('counts a sealed state presented with another call', async () => {
    const round = await call('every_get-sum', { a: 5, b: 5 });
    // The budget of get-sum is spent; its state must not buy echo (or anything) an exemption.
    expect(codeOf(round)).toBe('RATE_LIMITED');
    const borrowed = await call('every_echo', { message: 'borrowed' }, 'a.v1.AAAA');
    expect(codeOf(borrowed)).toBe('RATE_LIMITED');
  });
});
