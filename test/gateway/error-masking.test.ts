/**
 * Issue 15 item 9: no error message that leaves the gateway reflects a secret, whoever wrote it. A client that
 * sends a configured secret as a prompt name, a resource URI or a completion reference gets an error in which
 * the secret is masked (message and data), in both eras.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const SECRET = `wire-secret-${randomUUID()}`;
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    { upstreams: { every: { ...UPSTREAMS.everythingStdio, env: { SOME_KEY: '${TEST_SECRET}' } } } },
    { env: { TEST_SECRET: SECRET } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

/** The whole error as the client received it: message, code and data. */
async function wireError(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    const { message, code, data } = error as { message?: string; code?: unknown; data?: unknown };
    return JSON.stringify({ message, code, data });
  }
  throw new Error('expected an error');
}

describe.each(['legacy', 'modern'] as const)('error messages to a %s client', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(gateway.url, { era });
  });
  afterAll(async () => client?.close());

  it.each([
    ['an unknown prompt name', (c: Client) => c.getPrompt({ name: `p-${SECRET}` })],
    ['an unknown resource URI', (c: Client) => c.readResource({ uri: `demo://${SECRET}/x` })],
    [
      'a completion for an unknown prompt',
      (c: Client) =>
        c.complete({ ref: { type: 'ref/prompt', name: SECRET }, argument: { name: 'a', value: 'b' } }),
    ],
    [
      'a completion for an unknown resource',
      (c: Client) =>
        c.complete({
          ref: { type: 'ref/resource', uri: `demo://${SECRET}` },
          argument: { name: 'a', value: 'b' },
        }),
    ],
  ])('masks the secret in %s', async (_name, run) => {
    const text = await wireError(() => run(client));
    expect(text).toMatch(/Unknown (prompt|resource)/);
    expect(text).toContain('***');
    expect(text).not.toContain(SECRET);
  });
});
