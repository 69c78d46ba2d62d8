/**
 * Issue 15 item 7 through the real gateway and server-filesystem: the person asked to approve write_file sees
 * the path being written even though the client sent a 10 KB `content` first (the prompt used to be the
 * arguments' JSON cut at 400 characters), in both eras. The scripted person declines, so nothing is written.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  connectClient,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const files = tempDir('portcullis-prompt-');
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      files: { ...UPSTREAMS.filesystem(files), tools: { overrides: { write_file: { hitl: 'REQUIRED' } } } },
    },
    approval: { elicitationTimeout: '5s' },
  });
}, 120_000);
afterAll(async () => gateway?.close());

describe.each(['legacy', 'modern'] as const)('the approval prompt of a %s client', (era) => {
  it('shows the path after a 10 KB first argument', async () => {
    const prompts: string[] = [];
    const client = await connectClient(gateway.url, {
      era,
      onElicit: (params) => {
        prompts.push((params as { message: string }).message);
        return { action: 'decline' };
      },
    });
    const target = path.join(files, 'secrets', `${era}-key.pem`);
    const content = `${'A'.repeat(10_240)}TAIL`;
    const result = (await client.callTool({
      name: 'files_write_file',
      arguments: { content, path: target },
    })) as CallToolResult;
    await client.close();
    expect(result.isError).toBe(true);
    expect(prompts).toHaveLength(1);
    const prompt = prompts[0] as string;
    expect(prompt).toContain(target);
    expect(prompt).toContain(`path: ${JSON.stringify(target)}`);
    expect(prompt).toContain(`(${JSON.stringify(content).length} characters)`);
    expect(prompt).toContain('TAIL');
    expect(prompt.length).toBeLessThan(1_000);
    expect(existsSync(target)).toBe(false);
  });
});
