/**
 * Issue 5, "it must show" 1 and 3: human approval through the client's own elicitation prompt, in both eras,
 * in front of the real server-filesystem; deny rules; sealed modern-era approval state; one audit row per call.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { createAuditLog } from '../../src/audit/index.ts';
import {
  connectClient,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const files = tempDir('portcullis-approval-');
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      files: {
        ...UPSTREAMS.filesystem(files),
        tools: { include: ['*'], overrides: { write_file: { hitl: 'REQUIRED' } } },
      },
    },
    approval: {
      elicitationTimeout: '2s',
      rules: [
        {
          id: 'no-secrets',
          match: { upstream: 'files', args: { '/path': '**/secrets/**' } },
          decision: 'deny',
          reason: 'the secrets folder is off limits',
        },
      ],
    },
  });
}, 120_000);
afterAll(async () => gateway?.close());

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');
const auditRows = async () => {
  await gateway.gateway.flushAudit();
  return createAuditLog(gateway.gateway.store)
    .query({ limit: 1000, order: 'asc' })
    .entries.map((e) => e.record);
};

describe.each(['legacy', 'modern'] as const)('write_file (REQUIRED) with a %s client', (era) => {
  const target = (name: string) => path.join(files, `${era}-${name}.txt`);
  const write = (client: Client, name: string) =>
    client.callTool({
      name: 'files_write_file',
      arguments: { path: target(name), content: `written by ${era}` },
    });

  it('asks, and runs the call when the person accepts', async () => {
    const prompts: string[] = [];
    const client = await connectClient(gateway.url, {
      era,
      onElicit: (params) => {
        prompts.push((params as { message: string }).message);
        return { action: 'accept', content: {} };
      },
    });
    const before = (await auditRows()).length;
    const result = await write(client, 'accepted');
    expect(result.isError).toBeFalsy();
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('files_write_file');
    expect(readFileSync(target('accepted'), 'utf8')).toBe(`written by ${era}`);
    const rows = (await auditRows()).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      alias: 'files_write_file',
      origin: 'upstream',
      upstreamId: 'files',
      upstreamTool: 'write_file',
      outcome: 'OK',
      approval: { mode: 'REQUIRED', decision: 'ask', elicitation: 'accept' },
    });
    await client.close();
  });

  it.each([
    ['decline', { action: 'decline' as const }, 'declined'],
    ['cancel', { action: 'cancel' as const }, 'dismissed'],
  ])('denies when the person answers %s, and writes nothing', async (name, answer, reason) => {
    const client = await connectClient(gateway.url, { era, onElicit: () => answer });
    const before = (await auditRows()).length;
    const result = await write(client, name);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(new RegExp(`^Tool execution was denied: .*${reason}`));
    expect(existsSync(target(name))).toBe(false);
    const rows = (await auditRows()).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      outcome: 'ERROR',
      errorCode: 'TOOL_DENIED',
      approval: { elicitation: name },
    });
    await client.close();
  });

  it('denies when nobody answers in time', async () => {
    const client = await connectClient(gateway.url, {
      era,
      onElicit: async () => {
        await new Promise((resolve) => setTimeout(resolve, 3_500));
        return { action: 'accept', content: {} };
      },
    });
    const result = await write(client, 'timeout');
    expect(result.isError).toBe(true);
    // Legacy: the gateway stops waiting on the call's stream. Modern: the client answers the input_required
    // after the sealed approval state has expired, and the retry is refused.
    const expected =
      era === 'legacy'
        ? {
            code: 'TOOL_DENIED',
            text: 'Tool execution was denied: nobody answered the approval prompt in time',
          }
        : {
            code: 'APPROVAL_STATE_INVALID',
            text: 'Tool execution was denied: the approval answer was invalid, expired, already used or for other arguments',
          };
    expect(text(result)).toBe(expected.text);
    expect(result._meta?.['dev.portcullis/error']).toEqual({ code: expected.code });
    expect(existsSync(target('timeout'))).toBe(false);
    await client.close();
  });

  it('denies a client without the elicitation capability', async () => {
    const client = await connectClient(gateway.url, { era });
    const result = await write(client, 'no-elicitation');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Tool execution was denied: .*cannot show approval prompts/);
    expect(existsSync(target('no-elicitation'))).toBe(false);
    await client.close();
  });

  it('answers a deny rule with the reason, without asking', async () => {
    let asked = 0;
    const client = await connectClient(gateway.url, {
      era,
      onElicit: () => {
        asked += 1;
        return { action: 'accept', content: {} };
      },
    });
    const result = await client.callTool({
      name: 'files_read_text_file',
      arguments: { path: path.join(files, 'secrets', 'key.txt') },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('Tool execution was denied: the secrets folder is off limits');
    expect(asked).toBe(0);
    const [row] = (await auditRows()).slice(-1);
    expect(row).toMatchObject({ outcome: 'ERROR', approval: { decision: 'deny', ruleId: 'no-secrets' } });
    await client.close();
  });
});
