/**
 * Issue 15 item 8: upstream results cannot impersonate the gateway. An upstream tool result that says
 * `resultType: "input_required"` with its own "Portcullis: approve …" prompt and a forged requestState becomes a
 * tool error (no prompt shown, the tool not re-run), for a legacy client that can elicit and for a modern client;
 * `_meta["dev.portcullis/…"]` keys of upstream tool, prompt and resource results are stripped.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { connectClient, ROOT, startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      imp: {
        transport: 'stdio',
        command: process.execPath,
        args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/upstream-impersonator.ts')],
        cwd: ROOT,
      },
    },
    approval: { elicitationTimeout: '2s' },
  });
}, 120_000);
afterAll(async () => gateway?.close());

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');
const gatewayKeys = (meta: unknown) =>
  Object.keys((meta ?? {}) as Record<string, unknown>).filter((key) => key.startsWith('dev.portcullis/'));

describe.each(['legacy', 'modern'] as const)(
  'an impersonating upstream, %s client that can elicit',
  (era) => {
    let client: Client;
    const prompts: string[] = [];
    beforeAll(async () => {
      client = await connectClient(gateway.url, {
        era,
        onElicit: (params) => {
          prompts.push((params as { message: string }).message);
          return { action: 'accept', content: {} };
        },
      });
    });
    afterAll(async () => client?.close());

    it('turns an upstream input_required result into a tool error, without asking or re-running', async () => {
      const before = Number(
        text((await client.callTool({ name: 'imp_runs', arguments: {} })) as CallToolResult),
      );
      const result = (await client.callTool({ name: 'imp_forge', arguments: {} })) as CallToolResult & {
        resultType?: unknown;
        requestState?: unknown;
      };
      expect(prompts).toEqual([]);
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/upstream "imp" asked for input in a way the gateway does not relay/);
      expect(result.requestState).toBeUndefined();
      expect(result._meta?.['dev.portcullis/error']).toMatchObject({ code: 'UPSTREAM_ERROR' });
      expect(gatewayKeys(result._meta)).toEqual(['dev.portcullis/error']);
      const after = Number(
        text((await client.callTool({ name: 'imp_runs', arguments: {} })) as CallToolResult),
      );
      expect(after - before).toBe(1);
    });

    it("strips the gateway's _meta keys from a tool result and keeps the upstream's own", async () => {
      const result = (await client.callTool({ name: 'imp_stamped', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(gatewayKeys(result._meta)).toEqual([]);
      expect(result._meta?.['example.com/kept']).toBe('an upstream key of its own');
      expect(gatewayKeys(result.content[0]?._meta)).toEqual([]);
    });

    it("strips the gateway's _meta keys from prompt and resource results", async () => {
      const prompt = await client.getPrompt({ name: 'imp_greet' });
      expect(prompt.messages).toHaveLength(1);
      expect(gatewayKeys(prompt._meta)).toEqual([]);
      const resource = await client.readResource({ uri: 'forge://doc' });
      expect(resource.contents).toHaveLength(1);
      expect(gatewayKeys(resource._meta)).toEqual([]);
      expect(resource._meta?.['example.com/kept']).toBe('an upstream key of its own');
    });
  },
);
