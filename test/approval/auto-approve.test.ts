/**
 * Issue 5, "it must show" 1 (AUTO_APPROVE): a tool in AUTO_APPROVE mode runs without asking below the
 * threshold and asks at or above it, in both eras; the rules come from a rules file (policies/approval.yaml).
 */
import { existsSync, writeFileSync } from 'node:fs';
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

const files = tempDir('portcullis-auto-');
writeFileSync(path.join(files, 'note.txt'), 'a note\n');
const policyDir = tempDir('portcullis-policy-');
writeFileSync(
  path.join(policyDir, 'approval.yaml'),
  'rules:\n  - id: no-private\n    match: { args: { "/path": "**/private/**" } }\n    decision: deny\n    reason: private files stay private\n',
);
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      files: {
        ...UPSTREAMS.filesystem(files),
        tools: {
          overrides: { read_text_file: { hitl: 'AUTO_APPROVE' }, write_file: { hitl: 'AUTO_APPROVE' } },
        },
      },
    },
    approval: { autoApproveThreshold: 'L3', rulesFile: path.join(policyDir, 'approval.yaml') },
  });
}, 120_000);
afterAll(async () => gateway?.close());

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');

async function effectiveRisk(alias: string): Promise<string> {
  const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/tools'));
  const { tools } = (await response.json()) as { tools: { alias: string; risk: { effective: string } }[] };
  return tools.find((t) => t.alias === alias)?.risk.effective as string;
}

describe.each(['legacy', 'modern'] as const)('AUTO_APPROVE with threshold L3 (%s client)', (era) => {
  it('runs a tool below the threshold without asking', async () => {
    expect(['L0', 'L1', 'L2']).toContain(await effectiveRisk('files_read_text_file'));
    let asked = 0;
    const client = await connectClient(gateway.url, {
      era,
      onElicit: () => ((asked += 1), { action: 'accept', content: {} }),
    });
    const result = await client.callTool({
      name: 'files_read_text_file',
      arguments: { path: path.join(files, 'note.txt') },
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('a note');
    expect(asked).toBe(0);
    await client.close();
  });

  it('asks for a tool at or above the threshold', async () => {
    expect(['L3', 'L4', 'L5']).toContain(await effectiveRisk('files_write_file'));
    const prompts: string[] = [];
    const client = await connectClient(gateway.url, {
      era,
      onElicit: (params) => (prompts.push((params as { message: string }).message), { action: 'decline' }),
    });
    const target = path.join(files, `${era}-auto.txt`);
    const result = await client.callTool({
      name: 'files_write_file',
      arguments: { path: target, content: 'x' },
    });
    expect(prompts).toHaveLength(1);
    expect(result.isError).toBe(true);
    expect(existsSync(target)).toBe(false);
    await client.close();
  });

  it('applies the rules file', async () => {
    const client = await connectClient(gateway.url, { era });
    const result = await client.callTool({
      name: 'files_read_text_file',
      arguments: { path: path.join(files, 'private', 'x.txt') },
    });
    expect(text(result)).toBe('Tool execution was denied: private files stay private');
    await client.close();
  });
});
