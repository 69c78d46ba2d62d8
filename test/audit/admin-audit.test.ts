/**
 * Issue 5: `GET /admin/api/audit` with filters, read right after the calls (the endpoint first moves this
 * process's audit journal into the database), against Portcullis in front of server-everything over stdio.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/index.ts';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
const marker = `m${Date.now().toString(36)}`;

beforeAll(async () => {
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio } });
  const client = await connectClient(gateway.url, { era: 'legacy' });
  for (const message of ['one', 'two', 'three']) {
    await client.callTool({ name: 'every_echo', arguments: { message: `${message} ${marker}` } });
  }
  await client.callTool({ name: 'every_echo', arguments: { message: 42 } });
  await client.close();
}, 120_000);
afterAll(async () => gateway?.close());

interface Page {
  entries: AuditEntry[];
  nextCursor: string | null;
}

async function audit(query: string): Promise<{ status: number; body: Page & { error?: { code: string } } }> {
  const response = await fetch(gateway.url.replace(/\/mcp$/, `/admin/api/audit?${query}`));
  return { status: response.status, body: (await response.json()) as Page & { error?: { code: string } } };
}

const messages = (page: Page) =>
  page.entries.map((e) => (e.record.arguments as { message: unknown }).message);

describe('GET /admin/api/audit', () => {
  it('shows every call just answered, newest first, with its chain position', async () => {
    const { status, body } = await audit('alias=every_echo');
    expect(status).toBe(200);
    expect(messages(body)).toEqual([42, `three ${marker}`, `two ${marker}`, `one ${marker}`]);
    const seqs = body.entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(body.entries[1]?.prevDigest).toBe(body.entries[2]?.digest);
  });

  it('filters by outcome and decision', async () => {
    const failed = (await audit('alias=every_echo&outcome=ERROR')).body;
    expect(messages(failed)).toEqual([42]);
    expect(failed.entries[0]?.record).toMatchObject({ errorCode: 'INVALID_ARGUMENTS' });
    expect(messages((await audit('alias=every_echo&decision=deny')).body)).toEqual([42]);
    expect((await audit('alias=every_echo&outcome=OK')).body.entries).toHaveLength(3);
    expect((await audit('alias=nothing_here')).body.entries).toEqual([]);
  });

  it('pages oldest first with limit and cursor, and filters by time', async () => {
    const first = (await audit('alias=every_echo&order=asc&limit=2')).body;
    expect(messages(first)).toEqual([`one ${marker}`, `two ${marker}`]);
    const second = (await audit(`alias=every_echo&order=asc&limit=2&cursor=${first.nextCursor}`)).body;
    expect(messages(second)).toEqual([`three ${marker}`, 42]);
    expect(second.nextCursor).toBeNull();
    expect((await audit('alias=every_echo&since=2999-01-01T00:00:00Z')).body.entries).toEqual([]);
    expect((await audit('alias=every_echo&until=2999-01-01T00:00:00Z')).body.entries).toHaveLength(4);
  });

  it('answers a bad filter with 400 and a stable code', async () => {
    const { status, body } = await audit('since=yesterday');
    expect(status).toBe(400);
    expect(body.error?.code).toBe('INVALID_INPUT');
    expect((await audit('cursor=abc')).status).toBe(400);
  });

  it('refuses a value it cannot filter on instead of answering every row', async () => {
    for (const query of ['outcome=FAILED', 'outcome=ok', 'decision=maybe', 'order=sideways']) {
      const { status, body } = await audit(`alias=every_echo&${query}`);
      expect({ query, status, code: body.error?.code }).toEqual({
        query,
        status: 400,
        code: 'INVALID_INPUT',
      });
    }
    expect((await audit('alias=every_echo&outcome=INPUT_REQUIRED')).body.entries).toEqual([]);
  });
});
