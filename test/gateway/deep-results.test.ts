/**
 * Issue 14, defect 2 (results): an upstream answering with a result nested 5,000 levels deep (more than the
 * SDK's encoder can write back to the client) gets that call a clean tool error, with an audit row; the gateway
 * and the upstream stay up, and the next call on it answers. Real gateway, real SDK client, a raw stdio upstream.
 */
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/index.ts';
import { connectClient, ROOT, startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      deep: {
        transport: 'stdio',
        protocol: 'legacy',
        command: process.execPath,
        args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/deep-result-server.ts')],
        cwd: ROOT,
      },
    },
  });
}, 120_000);
afterAll(async () => gateway?.close());

describe('a result nested 5,000 levels deep', () => {
  it.each(['legacy', 'modern'] as const)(
    'is answered as a tool error (%s era)',
    async (era) => {
      const client = await connectClient(gateway.url, { era });
      const result = (await client.callTool({ name: 'deep_deep', arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result._meta?.['dev.portcullis/error']).toMatchObject({
        code: 'UPSTREAM_ERROR',
        reason: 'result-too-deep',
      });
      expect(JSON.stringify(result.content)).toMatch(/nested deeper than 512 levels/);

      const shallow = (await client.callTool({
        name: 'deep_deep',
        arguments: { depth: 100 },
      })) as CallToolResult;
      expect(shallow.isError).toBeFalsy();
      const flat = (await client.callTool({ name: 'deep_flat', arguments: {} })) as CallToolResult;
      expect(JSON.stringify(flat.content)).toContain('flat answer');

      const response = await fetch(
        gateway.url.replace(/\/mcp$/, '/admin/api/audit?alias=deep_deep&outcome=ERROR'),
      );
      const entries = ((await response.json()) as { entries: AuditEntry[] }).entries;
      expect(entries[0]?.record).toMatchObject({ errorCode: 'UPSTREAM_ERROR' });
      expect(gateway.logs.join('\n')).not.toContain('"upstream.down"');
      await client.close();
    },
    60_000,
  );
});
