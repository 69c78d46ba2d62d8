/**
 * Issue 3, "it must show" 2 and 3: a real stdio upstream that redefines a tool at runtime (a changed
 * description, then a flipped annotation) loses that tool until an operator approves it with
 * `portcullis ledger approve`; poisoned definitions are reported with pattern and field path, and with
 * `poisoning: block` they are not exposed.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

interface AdminTool {
  alias: string;
  exposed: boolean;
  withheldReason: string | null;
  fingerprint: { status: string; hash: string } | null;
  poisoning: { clean: boolean; matches: { patternId: string; fieldPath: string }[] } | null;
}

async function adminTools(gateway: RunningGateway): Promise<AdminTool[]> {
  const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/tools'));
  expect(response.status).toBe(200);
  return ((await response.json()) as { tools: AdminTool[] }).tools;
}

/** Runs the real CLI as a separate process (as an operator would), without blocking the event loop. */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', ...args], {
      cwd: ROOT,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const POISONED = {
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/poisoned-server.ts')],
  cwd: ROOT,
};

describe('a tool redefined at runtime', () => {
  let gateway: RunningGateway;
  let client: Client;
  let changes = 0;
  const configFile = path.join(tempDir(), 'portcullis.yaml');

  beforeAll(async () => {
    gateway = await startGateway({ upstreams: { mut: UPSTREAMS.mutable } });
    writeFileSync(configFile, `store: { path: ${JSON.stringify(gateway.gateway.store.path)} }\n`);
    client = await connectClient(gateway.url, { era: 'legacy' });
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    await client.callTool({ name: 'mut_mutate', arguments: { action: 'add' } });
    await waitFor(
      async () => (await client.listTools()).tools.some((t) => t.name === 'mut_extra'),
      10_000,
      'extra',
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  const listed = async () => (await client.listTools()).tools.some((t) => t.name === 'mut_extra');

  it.each([
    ['a changed description', 'redescribe'],
    ['a flipped annotation', 'flip-annotation'],
  ])(
    'withholds it after %s until the operator approves',
    async (_what, action) => {
      const before = changes;
      await client.callTool({ name: 'mut_mutate', arguments: { action } });
      await waitFor(() => changes > before, 10_000, 'tools/list_changed');
      await waitFor(async () => !(await listed()), 10_000, 'the redefined tool to leave tools/list');

      await expect(client.callTool({ name: 'mut_extra', arguments: {} })).rejects.toThrow(
        /Unknown tool: mut_extra/,
      );
      const withheld = (await adminTools(gateway)).find((t) => t.alias === 'mut_extra');
      expect(withheld).toMatchObject({
        exposed: false,
        withheldReason: 'fingerprint-awaiting-rereview',
        fingerprint: { status: 'AWAITING_REREVIEW' },
      });
      const events = (await (
        await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/events?type=HashLedgerMismatch'))
      ).json()) as {
        events: { subject: string }[];
      };
      expect(events.events.some((e) => e.subject === 'mut::extra')).toBe(true);

      // Counted before the approval: the gateway may notice it (and notify) before the CLI process has exited.
      const beforeBack = changes;
      const approved = await runCli(['ledger', 'approve', 'mut', 'extra', '--config', configFile]);
      expect(approved.stderr).toBe('');
      expect(approved.stdout).toMatch(/^APPROVED mut::extra [0-9a-f]{64}/);
      expect(approved.status).toBe(0);

      await waitFor(() => listed(), 10_000, 'the approved tool to come back');
      // The notification travels on the session's own stream, so it may land just after the list answer.
      await waitFor(() => changes > beforeBack, 10_000, 'tools/list_changed for the approved tool');
      const result = await client.callTool({ name: 'mut_extra', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect((await adminTools(gateway)).find((t) => t.alias === 'mut_extra')?.fingerprint?.status).toBe(
        'ACTIVE',
      );
    },
    60_000,
  );
});

describe.each(['warn', 'block'] as const)('poisoned upstream definitions (poisoning: %s)', (mode) => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({ poisoning: mode, upstreams: { pois: POISONED } });
  }, 120_000);
  afterAll(async () => gateway?.close());

  it('reports each hit with its pattern and field path', async () => {
    const tools = await adminTools(gateway);
    const summarize = tools.find((t) => t.alias === 'pois_summarize');
    const lookup = tools.find((t) => t.alias === 'pois_lookup');
    const clean = tools.find((t) => t.alias === 'pois_clean_tool');
    expect(summarize?.poisoning?.clean).toBe(false);
    const summarizeHits = summarize?.poisoning?.matches.map((m) => `${m.patternId}@${m.fieldPath}`) ?? [];
    expect(summarizeHits).toContain('HIDDEN_INSTRUCTION@description');
    expect(summarizeHits).toContain('EXFILTRATION_DIRECTIVE@description');
    const lookupHits = lookup?.poisoning?.matches.map((m) => `${m.patternId}@${m.fieldPath}`) ?? [];
    expect(lookupHits).toContain('HIDDEN_INSTRUCTION@inputSchema.properties.query.description');
    expect(clean?.poisoning).toEqual({ clean: true, matches: [] });
  });

  it(mode === 'block' ? 'does not expose the poisoned tools' : 'still exposes them (advisory)', async () => {
    const client = await connectClient(gateway.url, { era: 'modern' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('pois_clean_tool');
    if (mode === 'block') {
      expect(names).not.toContain('pois_summarize');
      expect(names).not.toContain('pois_lookup');
      await expect(client.callTool({ name: 'pois_summarize', arguments: { text: 'x' } })).rejects.toThrow(
        /Unknown tool/,
      );
      const withheld = (await adminTools(gateway)).find((t) => t.alias === 'pois_lookup');
      expect(withheld).toMatchObject({ exposed: false, withheldReason: 'poisoning-blocked' });
    } else {
      expect(names).toEqual(expect.arrayContaining(['pois_summarize', 'pois_lookup']));
    }
    await client.close();
  });
});
