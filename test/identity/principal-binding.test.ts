/**
 * A sealed modern-era approval state belongs to the principal whose call it sealed: another principal that
 * presents it, with the very same arguments, is refused and nothing runs; its owner's retry still goes through.
 * Both principals are real API keys on the default profile, and the audit rows name each one.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startGateway, tempDir, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';
import { auditRecords, resultText } from '../helpers/serve-support.ts';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const files = tempDir('portcullis-principal-binding-');
let gateway: RunningGateway;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${KEY_ALICE}', '${KEY_BOB}'] },
      tools: { bundled: false },
      upstreams: {
        files: { ...UPSTREAMS.filesystem(files), tools: { overrides: { write_file: { hitl: 'REQUIRED' } } } },
      },
    },
    { env: { KEY_ALICE: ALICE, KEY_BOB: BOB } },
  );
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await gateway?.close();
});

/** A modern client that sees input_required itself, so the test can hand a state to someone else. */
async function manualClient(key: string): Promise<Client> {
  const client = new Client(
    { name: 'manual-modern', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  const headers = { authorization: `Bearer ${key}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const args = { path: path.join(files, 'alice.txt'), content: 'only alice may approve this' };

function retry(client: Client, requestState: string): Promise<CallToolResult> {
  return client.callTool(
    {
      name: 'files_write_file',
      arguments: args,
      inputResponses: { approval: { action: 'accept', content: {} } },
      requestState,
    } as Parameters<Client['callTool']>[0],
    { allowInputRequired: true },
  ) as Promise<CallToolResult>;
}

describe('sealed approval states and principals', () => {
  it("refuses one principal's sealed state presented by another, and keeps it good for its owner", async () => {
    const alice = await manualClient(ALICE);
    const bob = await manualClient(BOB);
    const round = (await alice.callTool(
      { name: 'files_write_file', arguments: args },
      { allowInputRequired: true },
    )) as unknown as { resultType: string; requestState: string };
    expect(round.resultType).toBe('input_required');

    const stolen = await retry(bob, round.requestState);
    expect(stolen.isError).toBe(true);
    expect(resultText(stolen)).toMatch(/^Tool execution was denied:/);
    expect(existsSync(args.path)).toBe(false);

    const own = await retry(alice, round.requestState);
    expect(own.isError).toBeFalsy();
    expect(existsSync(args.path)).toBe(true);

    const rows = (await auditRecords(gateway.gateway)).filter((r) => r.alias === 'files_write_file');
    const keyOf = (record: (typeof rows)[number]) =>
      `${record.principal} ${record.profile} ${record.outcome}`;
    expect(rows.map((r) => r.principal)).toEqual([
      expect.stringMatching(/^key:/),
      expect.stringMatching(/^key:/),
    ]);
    const [bobRow, aliceRow] = rows;
    expect(bobRow?.principal).not.toBe(aliceRow?.principal);
    expect([bobRow, aliceRow].map((r) => (r ? keyOf(r) : ''))).toEqual([
      `${bobRow?.principal} default ERROR`,
      `${aliceRow?.principal} default OK`,
    ]);
    expect(bobRow?.errorCode).toBe('APPROVAL_STATE_INVALID');
  });
});
