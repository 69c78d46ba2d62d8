/**
 * The admin API is its own door: admin keys with roles (viewer reads, operator acts), /mcp keys grant nothing
 * there once admin keys exist, browser pages cannot drive it, writes need JSON, and every admin action lands in
 * the hash-chained audit log with its actor, target and reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/index.ts';
import { startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const MCP_KEY = 'mcp-key-0123456789abcdef';
const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';

async function admin(
  gateway: RunningGateway,
  route: string,
  init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const response = await fetch(gateway.url.replace(/\/mcp$/, `/admin/api${route}`), {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined
      ? {}
      : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, text, json: text.startsWith('{') ? JSON.parse(text) : undefined };
}

const echo = { upstream: 'every', tool: 'echo' };
const statusOf = async (gateway: RunningGateway) =>
  (
    (await admin(gateway, '/ledger', { key: OPERATOR })).json.records as {
      upstream: string;
      tool: string;
      status: string;
    }[]
  ).find((r) => r.upstream === 'every' && r.tool === 'echo')?.status;

describe('with admin keys', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(
      {
        auth: { apiKeys: ['${MCP_KEY}'] },
        admin: {
          keys: [
            { name: 'watcher', key: '${VIEWER_KEY}', role: 'viewer' },
            { name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' },
          ],
        },
        upstreams: { every: UPSTREAMS.everythingStdio },
        tools: { bundled: false },
      },
      { env: { MCP_KEY, VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR } },
    );
  }, 120_000);
  afterAll(async () => gateway?.close());

  it('gives /mcp keys no admin access', async () => {
    const refused = await admin(gateway, '/servers', { key: MCP_KEY });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('UNAUTHORIZED');
    expect((await admin(gateway, '/servers')).status).toBe(401);
  });

  it('lets a viewer read but not act', async () => {
    expect((await admin(gateway, '/servers', { key: VIEWER })).status).toBe(200);
    const revoke = await admin(gateway, '/ledger/revoke', { key: VIEWER, body: { ...echo, reason: 'x' } });
    expect(revoke.status).toBe(403);
    expect(revoke.json.error.code).toBe('FORBIDDEN');
    expect(revoke.json.error.message).toContain('operator');
    expect(await statusOf(gateway)).toBe('ACTIVE');
  });

  it('lets an operator revoke and restore, each audited with actor, target and reason', async () => {
    const revoke = await admin(gateway, '/ledger/revoke', {
      key: OPERATOR,
      body: { ...echo, reason: 'suspicious redefinition' },
    });
    expect(revoke.status).toBe(200);
    expect(await statusOf(gateway)).toBe('REVOKED');

    const restore = await admin(gateway, '/ledger/restore', {
      key: OPERATOR,
      body: { ...echo, reason: 'false alarm' },
    });
    expect(restore.status).toBe(200);
    expect(await statusOf(gateway)).toBe('AWAITING_REREVIEW');
    const approve = await admin(gateway, '/ledger/approve', {
      key: OPERATOR,
      body: { ...echo, reason: 'ok' },
    });
    expect(approve.status).toBe(200);
    expect(await statusOf(gateway)).toBe('ACTIVE');

    const page = (await admin(gateway, '/audit?order=asc&limit=100', { key: VIEWER })).json as {
      entries: AuditEntry[];
    };
    const actions = page.entries
      .map((e) => e.record)
      .filter((r) => r.origin === 'admin')
      .map((r) => ({
        principal: r.principal,
        alias: r.alias,
        outcome: r.outcome,
        ...(r.origin === 'admin' ? { target: r.target, reason: r.reason } : {}),
      }));
    expect(actions).toEqual([
      {
        principal: 'admin:watcher',
        alias: 'admin.ledger.revoke',
        outcome: 'ERROR',
        target: 'every::echo',
        reason: 'x',
      },
      {
        principal: 'admin:ops',
        alias: 'admin.ledger.revoke',
        outcome: 'OK',
        target: 'every::echo',
        reason: 'suspicious redefinition',
      },
      {
        principal: 'admin:ops',
        alias: 'admin.ledger.restore',
        outcome: 'OK',
        target: 'every::echo',
        reason: 'false alarm',
      },
      {
        principal: 'admin:ops',
        alias: 'admin.ledger.approve',
        outcome: 'OK',
        target: 'every::echo',
        reason: 'ok',
      },
    ]);
  });

  it('refuses writes that are not JSON or come from a browser page', async () => {
    const plain = await admin(gateway, '/ledger/revoke', {
      key: OPERATOR,
      body: JSON.stringify(echo),
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    const page = await admin(gateway, '/ledger/revoke', {
      key: OPERATOR,
      body: echo,
      headers: { origin: 'http://localhost:3000' },
    });
    expect(page.status).toBe(403);
    expect(await statusOf(gateway)).toBe('ACTIVE');
  });
});

describe('failed admin credentials', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(
      {
        admin: { keys: [{ name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' }] },
        tools: { bundled: false },
      },
      { env: { OPERATOR_KEY: OPERATOR } },
    );
  }, 120_000);
  afterAll(() => gateway?.close());

  it('are limited per address like console sign-ins: after 10, even the right key waits, unread', async () => {
    expect((await admin(gateway, '/ledger', { key: OPERATOR })).status).toBe(200);
    for (let i = 0; i < 10; i += 1) {
      expect((await admin(gateway, '/ledger', { key: `guess-${i}` })).status).toBe(401);
    }
    const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/ledger'), {
      headers: { authorization: `Bearer ${OPERATOR}` },
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('SIGN_IN_RATE_LIMITED');
    expect(body.error.message).toMatch(/wait/i);
    const limited = gateway.logs.filter((line) => line.includes('"admin.credentials_limited"'));
    expect(limited).toHaveLength(1);
    expect(limited[0]).not.toContain('guess-');
  });
});

describe('with no keys at all (the default)', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({
      upstreams: { every: UPSTREAMS.everythingStdio },
      tools: { bundled: false },
    });
  }, 120_000);
  afterAll(async () => gateway?.close());

  it('answers a non-browser request on loopback', async () => {
    expect((await admin(gateway, '/servers')).status).toBe(200);
  });

  it('refuses the no-preflight text/plain revoke of a page on another localhost port', async () => {
    const attack = await admin(gateway, '/ledger/revoke', {
      body: JSON.stringify(echo),
      headers: {
        'content-type': 'text/plain',
        origin: 'http://localhost:3000',
        'sec-fetch-site': 'same-site',
      },
    });
    expect(attack.status).toBe(403);
    const read = await admin(gateway, '/audit', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(read.status).toBe(403);
    expect(await statusOf(gateway)).toBe('ACTIVE');
  });

  it('answers hostile bodies and queries with 400, not 500', async () => {
    const deep = `{"text":"hi","otherNames":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const cases = [
      await admin(gateway, '/risk/tool', { body: { tool: { name: 'x', description: [1] } } }),
      await admin(gateway, '/risk/tool', { body: { tool: { name: 'x', inputSchema: 'no' } } }),
      await admin(gateway, '/scan', { body: { text: 'hi', otherNames: deep } }),
      await admin(gateway, '/audit?limit=abc'),
    ];
    expect(cases.map((c) => [c.status, c.json?.error?.code])).toEqual([
      [400, 'INVALID_INPUT'],
      [400, 'INVALID_INPUT'],
      [400, 'INVALID_INPUT'],
      [400, 'INVALID_INPUT'],
    ]);
  });
});
