/**
 * A 2026-era request has no session, so the per-principal quota of running requests is what bounds one caller:
 * past `http.maxRequestsPerPrincipal` its next request is refused alone (HTTP 429, TOO_MANY_REQUESTS) while its
 * running calls finish, another principal is not affected, and the caller is served again once an answer is read.
 * Real gateway on a port, real SDK clients, server-everything over stdio.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${KEY_ALICE}', '${KEY_BOB}'] },
      http: { maxRequestsPerPrincipal: 2 },
      upstreams: { every: UPSTREAMS.everythingStdio },
      tools: { bundled: false },
    },
    { env: { KEY_ALICE: ALICE, KEY_BOB: BOB } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

/** A call that runs 2 s; `started` resolves at its first progress, when it certainly holds its slot. */
function slowCall(client: Client): { done: Promise<unknown>; started: Promise<void> } {
  let onStarted!: () => void;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const done = client.callTool(
    { name: 'every_trigger-long-running-operation', arguments: { duration: 2, steps: 4 } },
    { onprogress: () => onStarted() },
  );
  return { done, started };
}
const echo = (client: Client, message: string) =>
  client.callTool({ name: 'every_echo', arguments: { message } });

it('refuses a 2026-era request past the caller’s quota alone, and serves other callers and later requests', async () => {
  const alice = await connectClient(gateway.url, { era: 'modern', apiKey: ALICE });
  const bob = await connectClient(gateway.url, { era: 'modern', apiKey: BOB });
  try {
    const running = [slowCall(alice), slowCall(alice)];
    await Promise.all(running.map((call) => call.started));
    const refused = await echo(alice, 'third').then(
      () => undefined,
      (error: unknown) => String(error instanceof Error ? error.message : error),
    );
    expect(refused).toContain('TOO_MANY_REQUESTS');
    await expect(echo(bob, 'bob')).resolves.toMatchObject({ content: [{ type: 'text', text: 'Echo: bob' }] });
    await Promise.all(running.map((call) => call.done));
    await expect(echo(alice, 'later')).resolves.toMatchObject({
      content: [{ type: 'text', text: 'Echo: later' }],
    });
    expect(gateway.logs.join('\n')).toContain('request.quota_reached');
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
}, 60_000);
