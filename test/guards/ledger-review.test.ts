/**
 * Issue 19, ledger review: an upstream tool's description changes while the gateway runs; the admin API shows the
 * approved and the new definition with a structured diff; an operator approves it with a reason and the tool is
 * listed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  adminCall,
  connectClient,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const OPERATOR = 'operator-key-0123456789abcdef';
const KEY = encodeURIComponent('mut::extra');

/** The parts of the admin answers this test reads. */
interface AdminAnswer {
  record: { current: { definition: { description?: string } } };
  records: object[];
  tools: object[];
  current: { hash: string };
  diff: { changes: object[]; descriptionDiff: string | null };
}

describe('reviewing a redefined tool', () => {
  let gateway: RunningGateway;
  let client: Client;
  const admin = (route: string, body?: unknown) => adminCall<AdminAnswer>(gateway, OPERATOR, route, body);
  const listed = async () => (await client.listTools()).tools.some((t) => t.name === 'mut_extra');

  beforeAll(async () => {
    gateway = await startGateway(
      {
        admin: { keys: [{ name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' }] },
        upstreams: { mut: UPSTREAMS.mutable },
        tools: { bundled: false },
      },
      { env: { OPERATOR_KEY: OPERATOR } },
    );
    client = await connectClient(gateway.url, { era: 'legacy' });
    await client.callTool({ name: 'mut_mutate', arguments: { action: 'add' } });
    await waitFor(listed, 10_000, 'extra listed');
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('stores the definition a first sighting approves', async () => {
    const { status, json } = await admin(`/ledger/${KEY}`);
    expect(status).toBe(200);
    expect(json.record).toMatchObject({
      key: 'mut::extra',
      status: 'ACTIVE',
      changed: false,
      current: { stored: true, definition: { name: 'extra', annotations: { readOnlyHint: true } } },
      approved: { stored: true },
    });
    expect(json.record.current.definition.description).toBe(
      'Returns the word extra; a tool that appears at runtime.',
    );
    expect(json.tools).toEqual([expect.objectContaining({ alias: 'mut_extra', exposed: true })]);
    expect((await admin('/ledger')).json.records[0]).not.toHaveProperty('definition');
  });

  it('shows the change as a diff, and brings the tool back once approved with a reason', async () => {
    await client.callTool({ name: 'mut_mutate', arguments: { action: 'redescribe' } });
    await waitFor(async () => !(await listed()), 10_000, 'extra withheld');
    const { json } = await admin(`/ledger/${KEY}/diff`);
    expect(json).toMatchObject({ key: 'mut::extra', status: 'AWAITING_REREVIEW', changed: true });
    expect(json.diff.changes).toEqual([
      {
        field: 'description',
        path: '',
        kind: 'changed',
        old: 'Returns the word extra; a tool that appears at runtime.',
        new: 'Returns the word extra, now with a different description.',
      },
    ]);
    expect(json.diff.descriptionDiff).toContain('+Returns the word extra, now with a different description.');
    expect(json.diff.descriptionDiff).toContain('-Returns the word extra; a tool that appears at runtime.');

    expect((await admin(`/ledger/${KEY}/approve`, {})).status).toBe(400);
    const approved = await admin(`/ledger/${KEY}/approve`, {
      reason: 'reworded by the vendor',
      hash: json.current.hash,
    });
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({
      outcome: 'APPROVED',
      record: { status: 'ACTIVE', changed: false },
    });
    await waitFor(listed, 10_000, 'extra listed again');
    expect((await admin(`/ledger/${KEY}/diff`)).json.diff).toEqual({ changes: [], descriptionDiff: null });
  });

  it('answers 404 for an unknown record and 400 for a malformed key', async () => {
    expect((await admin(`/ledger/${encodeURIComponent('mut::nope')}`)).status).toBe(404);
    expect((await admin('/ledger/nokey/diff')).status).toBe(400);
  });
});
