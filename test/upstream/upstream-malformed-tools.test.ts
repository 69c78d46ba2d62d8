/**
 * Issue 14, defect 8: one malformed tool (no inputSchema, an invalid one) or a repeated tool name must not hide
 * the whole upstream. Only the bad entries are held back, each with a reason an operator can read.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, ROOT, startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

describe('an upstream listing a malformed or repeated tool', () => {
  let gateway: RunningGateway;
  let client: Client;

  beforeAll(async () => {
    gateway = await startGateway({
      upstreams: {
        bad: {
          transport: 'stdio',
          protocol: 'legacy',
          command: process.execPath,
          args: [
            '--import',
            'tsx',
            path.join(ROOT, 'test/fixtures/upstream-misbehaving.ts'),
            '--mode=bad-tools',
          ],
          cwd: ROOT,
        },
      },
    });
    client = await connectClient(gateway.url, { era: 'legacy' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('keeps the upstream connected and its good tool exposed, and reports each bad entry with a reason', async () => {
    const snapshot = gateway.gateway.supervisor.snapshot('bad');
    expect(snapshot?.state).toBe('connected');
    expect(snapshot?.tools.map((t) => t.name)).toEqual(['good']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('bad_good');

    const rejected = snapshot?.rejectedTools ?? [];
    expect(rejected.map((r) => r.name)).toEqual(['noSchema', 'badSchema', 'good']);
    expect(rejected[0]?.reason).toMatch(/inputSchema/);
    expect(rejected[1]?.reason).toMatch(/inputSchema/);
    expect(rejected[2]?.reason).toMatch(/duplicate/);

    const response = await fetch(`http://127.0.0.1:${gateway.port}/admin/api/servers`);
    const { servers } = (await response.json()) as {
      servers: { id: string; rejectedTools: { name: string; reason: string }[] }[];
    };
    expect(servers.find((s) => s.id === 'bad')?.rejectedTools).toEqual(rejected);
    const logged = gateway.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.event === 'upstream.tool_rejected');
    expect(logged.map((entry) => [entry.level, entry.tool])).toEqual([
      ['warn', 'noSchema'],
      ['warn', 'badSchema'],
      ['warn', 'good'],
    ]);
  }, 60_000);
});
