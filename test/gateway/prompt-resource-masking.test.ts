/**
 * Issue 17 (defect): a configured secret that an upstream echoes in a prompt's messages or a resource's text is
 * masked before it reaches the client, in both eras, as it is in tool results. Real gateway, real SDK client,
 * a real stdio upstream (test/fixtures/injecting-server.ts) given the secret in its environment.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const SECRET = `echoed-secret-${randomUUID()}`;
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    { upstreams: { inj: UPSTREAMS.injecting } },
    { env: { FIXTURE_SECRET: SECRET } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

describe.each(['legacy', 'modern'] as const)('a secret echoed by the upstream, %s era', (era) => {
  it('is masked in a tool result, a prompt message and a resource text', async () => {
    const client = await connectClient(gateway.url, { era });
    try {
      const tool = (await client.callTool({ name: 'inj_echo_secret', arguments: {} })) as CallToolResult;
      expect(tool.content).toEqual([{ type: 'text', text: 'token=***' }]);

      const prompt = await client.getPrompt({ name: 'inj_login' });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Log in with token ***.' });
      expect(JSON.stringify(prompt)).not.toContain(SECRET);

      const resource = await client.readResource({ uri: 'notes://credentials' });
      expect(resource.contents[0]).toMatchObject({ uri: 'notes://credentials', text: 'The token is ***.' });
      expect(JSON.stringify(resource)).not.toContain(SECRET);
    } finally {
      await client.close();
    }
  }, 60_000);
});
