/**
 * Issue 19, the approval inbox: a client that cannot show an elicitation prompt (Inspector-style) calls a
 * REQUIRED tool of the real server-everything; the call waits in the inbox; a scripted operator approves or
 * declines it through the admin API, or nobody answers; both eras. Every outcome lands in the audit row with the
 * approver and reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { createAuditLog } from '../../src/audit/index.ts';
import {
  connectClient,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
let gateway: RunningGateway;

async function admin(route: string, init: { key?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${init.key ?? OPERATOR}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(gateway.url.replace(/\/mcp$/, `/admin/api${route}`), {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

interface Entry {
  id: string;
  alias: string;
  tool: string;
  upstream: string | null;
  principal: string;
  risk: string;
  era: string;
  arguments: { message?: string };
  status: string;
}

const waiting = (message: string) =>
  waitFor(
    async () =>
      ((await admin('/approvals')).json.approvals as Entry[]).find(
        (entry) => entry.arguments.message === message && entry.status === 'pending',
      ),
    10_000,
    `"${message}" in the inbox`,
  );

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');
const codeOf = (result: CallToolResult) =>
  (result._meta?.['dev.portcullis/error'] as { code?: string } | undefined)?.code;
const auditRows = async () => {
  await gateway.gateway.flushAudit();
  return createAuditLog(gateway.gateway.store)
    .query({ limit: 1000, order: 'asc' })
    .entries.map((e) => e.record);
};

beforeAll(async () => {
  gateway = await startGateway(
    {
      admin: {
        keys: [
          { name: 'watcher', key: '${VIEWER_KEY}', role: 'viewer' },
          { name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' },
        ],
      },
      upstreams: {
        every: {
          ...UPSTREAMS.everythingStdio,
          tools: { include: ['echo'], overrides: { echo: { hitl: 'REQUIRED' } } },
        },
      },
      tools: { bundled: false },
      // `both`: a client that can show prompts is asked there; these clients cannot, so the inbox asks.
      approval: { channel: 'both', elicitationTimeout: '4s', inbox: { modernHold: '1s' } },
    },
    { env: { VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

describe.each(['legacy', 'modern'] as const)('a %s client without elicitation', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(gateway.url, { era });
  });
  afterAll(async () => client?.close());
  const echo = (message: string) => client.callTool({ name: 'every_echo', arguments: { message } });

  it('waits in the inbox, and runs once an operator approves', async () => {
    const message = `${era}: approve me`;
    const call = echo(message);
    const entry = await waiting(message);
    expect(entry).toMatchObject({
      alias: 'every_echo',
      upstream: 'every',
      tool: 'echo',
      principal: 'anonymous',
      era,
      arguments: { message },
    });
    expect(entry.risk).toMatch(/^L[0-5]$/);
    // A viewer sees the inbox but cannot answer it.
    expect(
      (await admin(`/approvals/${entry.id}/approve`, { key: VIEWER, body: { reason: 'x' } })).status,
    ).toBe(403);
    expect((await admin(`/approvals/${entry.id}/approve`, { body: {} })).status).toBe(400);
    const approved = await admin(`/approvals/${entry.id}/approve`, { body: { reason: 'checked the text' } });
    expect(approved.status).toBe(200);
    const result = (await call) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain(message);
    const row = (await auditRows()).filter((r) => r.alias === 'every_echo').at(-1);
    expect(row?.approval).toMatchObject({
      decision: 'ask',
      channel: 'console',
      elicitation: 'accept',
      approver: 'admin:ops',
      approverReason: 'checked the text',
    });
    const actions = (await auditRows())
      .filter((r) => r.origin === 'admin' && r.alias === 'admin.approval.approve')
      .map((r) => [r.principal, r.outcome, r.origin === 'admin' ? r.target : null]);
    expect(actions).toContainEqual(['admin:ops', 'OK', entry.id]);
    expect(actions).toContainEqual(['admin:watcher', 'ERROR', entry.id]);
  });

  it("is denied with the operator's reason when declined", async () => {
    const message = `${era}: decline me`;
    const call = echo(message);
    const entry = await waiting(message);
    expect(
      (await admin(`/approvals/${entry.id}/decline`, { body: { reason: 'not during the freeze' } })).status,
    ).toBe(200);
    const result = (await call) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toBe('TOOL_DENIED');
    expect(text(result)).toContain('not during the freeze');
    // An answered call cannot be answered again.
    expect((await admin(`/approvals/${entry.id}/approve`, { body: { reason: 'late' } })).status).toBe(404);
  });

  it('is denied with APPROVAL_TIMEOUT when nobody answers in the window', async () => {
    const message = `${era}: nobody answers`;
    const call = echo(message);
    await waiting(message);
    const result = (await call) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toBe('APPROVAL_TIMEOUT');
    const row = (await auditRows()).filter((r) => r.alias === 'every_echo').at(-1);
    expect(row?.approval).toMatchObject({ channel: 'console', elicitation: 'timeout' });
    expect(
      ((await admin('/approvals')).json.approvals as Entry[]).some((e) => e.arguments.message === message),
    ).toBe(false);
  }, 30_000);
});

describe('the inbox stream', () => {
  it('sends a snapshot, then each change as a server-sent event', async () => {
    const controller = new AbortController();
    const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/approvals/stream'), {
      headers: { authorization: `Bearer ${VIEWER}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    const until = async (text: string) => {
      while (!seen.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${text}`);
        seen += value;
      }
    };
    await until('event: snapshot');
    const client = await connectClient(gateway.url, { era: 'legacy' });
    const call = client.callTool({ name: 'every_echo', arguments: { message: 'streamed' } });
    await until('event: added');
    expect(seen).toContain('"message":"streamed"');
    const entry = await waiting('streamed');
    await admin(`/approvals/${entry.id}/decline`, { body: { reason: 'seen on the stream' } });
    await until('event: declined');
    await until('event: claimed');
    expect(((await call) as CallToolResult).isError).toBe(true);
    controller.abort();
    await client.close();
  });
});
