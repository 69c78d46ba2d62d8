/**
 * Whatever escapes the call pipeline, a tools/call answer never carries internal text (a
 * stack overflow, a TypeError). A real SDK client talks to the real 2025-era server over the SDK's in-memory
 * pair; the pipeline is a peer that throws as a broken stage would.
 */
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { PortcullisError } from '../errors/index.ts';
import type { CallPipeline } from '../calls/pipeline.ts';
import { legacyServerEnd, stubCore } from './test/stub-core.ts';

async function clientOf(call: CallPipeline['call']): Promise<Client> {
  const core = stubCore(call, { mask: (text: string) => text.split('s3cret-value').join('***') });
  const { clientEnd } = await legacyServerEnd(core);
  const client = new Client({ name: 'downstream-test', version: '1.0.0' });
  await client.connect(clientEnd);
  return client;
}

describe('the last net of tools/call', () => {
  it('answers an unexpected error as INTERNAL without its message', async () => {
    const client = await clientOf(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const result = (await client.callTool({ name: 'any', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result._meta?.['dev.portcullis/error']).toEqual({ code: 'INTERNAL' });
    expect(JSON.stringify(result)).not.toMatch(/call stack|RangeError/);
    await client.close();
  });

  it('answers a PortcullisError with its stable code and masked message', async () => {
    const client = await clientOf(async () => {
      throw new PortcullisError('INVALID_ARGUMENTS', 'bad s3cret-value', { reason: 'too-deep' });
    });
    const result = (await client.callTool({ name: 'any', arguments: {} })) as CallToolResult;
    expect(result._meta?.['dev.portcullis/error']).toEqual({ code: 'INVALID_ARGUMENTS', reason: 'too-deep' });
    expect(result.content).toEqual([{ type: 'text', text: 'bad ***' }]);
    await client.close();
  });
});
