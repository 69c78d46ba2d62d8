/**
 * The 2025-era call path over the SDK's in-memory pair: a real client, the real downstream server, and a
 * pipeline peer that reports what the call path handed it. The approval prompt is asked on the call's stream,
 * every ending maps to an outcome, and an upstream question reaches the person marked as the upstream's.
 */
import { Client, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { CallPipeline } from '../calls/pipeline.ts';
import { legacyServerEnd, stubCore } from './test/stub-core.ts';

const FORM = { message: 'Which file?', requestedSchema: { type: 'object' as const, properties: {} } };

async function clientOf(
  call: CallPipeline['call'],
  onElicit?: (params: { message: string }) => ElicitResult,
): Promise<Client> {
  const core = stubCore(call, {
    registry: {
      resolve: () => ({
        upstream: 'files',
        definition: { name: 'files_write', inputSchema: { type: 'object' } },
      }),
      all: () => [],
    },
  });
  const { clientEnd } = await legacyServerEnd(core);
  const client = new Client(
    { name: 'legacy-calls-test', version: '1.0.0' },
    { capabilities: onElicit ? { elicitation: { form: {} } } : {} },
  );
  if (onElicit) client.setRequestHandler('elicitation/create', async (request) => onElicit(request.params));
  await client.connect(clientEnd);
  return client;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('the 2025-era call path', () => {
  it('asks for approval on the stream and hands the answer to the pipeline', async () => {
    const prompts: string[] = [];
    const client = await clientOf(
      async (_alias, _args, caller) => text(`${caller.canElicit} ${await caller.askApproval?.('Allow it?')}`),
      (params) => {
        prompts.push(params.message);
        return { action: 'decline' };
      },
    );
    expect(textOf(await client.callTool({ name: 'files_write', arguments: {} }))).toBe('true decline');
    expect(prompts).toEqual(['Allow it?']);
    await client.close();
  });

  it('answers unsupported without asking a client that cannot elicit, and offers it no upstream relay', async () => {
    const client = await clientOf(async (_alias, _args, caller) =>
      text(
        `${caller.canElicit} ${await caller.askApproval?.('Allow it?')} ${caller.askClient === undefined}`,
      ),
    );
    expect(textOf(await client.callTool({ name: 'files_write', arguments: {} }))).toBe(
      'false unsupported true',
    );
    await client.close();
  });

  it("carries who is calling and the session into the pipeline's caller context", async () => {
    const client = await clientOf(async (alias, args, caller) =>
      text(
        JSON.stringify({
          alias,
          args,
          principal: caller.principal.id,
          profile: caller.profile.name,
          session: caller.sessionId,
          era: caller.era,
        }),
      ),
    );
    const result = await client.callTool({ name: 'files_write', arguments: { path: '/tmp/a' } });
    expect(JSON.parse(textOf(result))).toEqual({
      alias: 'files_write',
      args: { path: '/tmp/a' },
      principal: 'alice',
      profile: 'default',
      session: 's-1',
      era: 'legacy',
    });
    await client.close();
  });

  it("marks an upstream question as the upstream's and notes how it ended", async () => {
    const prompts: string[] = [];
    const client = await clientOf(
      async (_alias, _args, caller) => {
        const answer = await caller.askClient?.(FORM, new AbortController().signal);
        return text(`${answer?.action} ${JSON.stringify(caller.upstreamRequests)}`);
      },
      (params) => {
        prompts.push(params.message);
        return { action: 'accept', content: {} };
      },
    );
    expect(textOf(await client.callTool({ name: 'files_write', arguments: {} }))).toBe(
      'accept [{"kind":"elicitation","outcome":"accept"}]',
    );
    expect(prompts).toEqual([
      'Upstream server "files" asks (this is not a Portcullis approval): Which file?',
    ]);
    await client.close();
  });
});
