/**
 * Issue 14, defects 2 and 3: arguments nested 5,000 levels deep, in both eras, against the real gateway in front
 * of server-everything over stdio (its echo tool allows extra properties). The gateway answers a clean tool
 * error, writes an audit row for the refused call, keeps the upstream connected, and another client's call in
 * flight on the same upstream succeeds. The SDK client cannot encode such a value itself (JSON.stringify gives
 * up near 5,000 levels), so its fetch swaps a placeholder in the encoded body for the deep JSON text.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/index.ts';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const KEY = 'deep-arguments-key-0123456789';
const DEPTH = 5_000;
const PLACEHOLDER = '"__deep_value__"';
const DEEP_JSON = '{"a":'.repeat(DEPTH) + '"bottom"' + '}'.repeat(DEPTH);
/** Text of internal errors that must never reach a client. */
const INTERNALS = /call stack|RangeError|TypeError|at [\w.]+ \(|node:internal/;

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    { auth: { apiKeys: ['${DEEP_TEST_KEY}'] }, upstreams: { every: UPSTREAMS.everythingStdio } },
    { env: { DEEP_TEST_KEY: KEY } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

/** A real SDK client whose requests carry DEEP_JSON wherever the placeholder string was encoded. */
async function deepClient(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: `deep-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const swap: typeof fetch = (input, init) =>
    fetch(input, {
      ...init,
      ...(typeof init?.body === 'string' ? { body: init.body.replace(PLACEHOLDER, DEEP_JSON) } : {}),
    });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gateway.url), {
      fetch: swap,
      requestInit: { headers: { authorization: `Bearer ${KEY}` } },
    }),
  );
  return client;
}

async function auditRows(alias: string): Promise<AuditEntry[]> {
  const response = await fetch(gateway.url.replace(/\/mcp$/, `/admin/api/audit?alias=${alias}&limit=50`), {
    headers: { authorization: `Bearer ${KEY}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: AuditEntry[] }).entries;
}

const errorCodeOf = (result: CallToolResult) =>
  (result._meta?.['dev.portcullis/error'] as { code?: string } | undefined)?.code;

describe('arguments nested 5,000 levels deep', () => {
  it.each(['legacy', 'modern'] as const)(
    'are refused as a tool error, recorded, and drop no upstream (%s era)',
    async (era) => {
      const other = await connectClient(gateway.url, { era: 'legacy', apiKey: KEY });
      const client = await deepClient(era);
      const before = (await auditRows('every_echo')).length;
      const downsBefore = gateway.logs.filter((line) => line.includes('"upstream.down"')).length;

      // Another client's call is in flight on the same upstream while the deep call arrives.
      const inFlight = other.callTool({
        name: 'every_trigger-long-running-operation',
        arguments: { duration: 2, steps: 2 },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const result = (await client.callTool({
        name: 'every_echo',
        arguments: { message: 'deep', nested: JSON.parse(PLACEHOLDER) as string },
      })) as CallToolResult;

      expect(result.isError).toBe(true);
      expect(errorCodeOf(result)).toBe('INVALID_ARGUMENTS');
      const text = JSON.stringify(result.content);
      expect(text).toMatch(/nested deeper than 64 levels/);
      expect(text).not.toMatch(INTERNALS);

      const finished = (await inFlight) as CallToolResult;
      expect(finished.isError).toBeFalsy();
      expect(JSON.stringify(finished.content)).toMatch(/completed/i);

      const rows = await auditRows('every_echo');
      expect(rows.length).toBe(before + 1);
      expect(rows[0]?.record).toMatchObject({
        outcome: 'ERROR',
        errorCode: 'INVALID_ARGUMENTS',
        approval: { decision: 'deny' },
      });
      expect(JSON.stringify(rows[0]?.record.arguments).length).toBeLessThan(1_000);

      expect(gateway.logs.filter((line) => line.includes('"upstream.down"')).length).toBe(downsBefore);
      expect(gateway.logs.join('\n')).not.toContain('audit.write_failed');
      const again = (await other.callTool({
        name: 'every_echo',
        arguments: { message: 'still here' },
      })) as CallToolResult;
      expect(JSON.stringify(again.content)).toContain('still here');

      await client.close();
      await other.close();
    },
    60_000,
  );
});
