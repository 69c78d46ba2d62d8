/**
 * The console's door over real HTTP, against Portcullis in front of server-everything: no route answers data
 * without admin credentials, every response carries the strict headers and no page has inline script, sign-in
 * sets a scoped HttpOnly SameSite=Strict cookie, and writes need a same-origin page, the session's CSRF token
 * and the operator role (the admin API decides and audits). With no admin keys it follows the admin decision.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/index.ts';
import { startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';

let gateway: RunningGateway;
let origin: string;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['mcp-key-0123456789abcdef'] },
      admin: {
        keys: [
          { name: 'watcher', key: '${VIEWER_KEY}', role: 'viewer' },
          { name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' },
        ],
      },
      upstreams: { every: UPSTREAMS.everythingStdio },
      tools: { bundled: false },
    },
    { env: { VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR } },
  );
  origin = `http://127.0.0.1:${gateway.port}`;
}, 120_000);
afterAll(async () => gateway?.close());

interface Sent {
  status: number;
  text: string;
  headers: Headers;
}

async function send(
  route: string,
  init: { method?: string; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<Sent> {
  const response = await fetch(`${origin}${route}`, {
    method: init.method ?? (init.form === undefined ? 'GET' : 'POST'),
    redirect: 'manual',
    headers: init.headers ?? {},
    ...(init.form === undefined ? {} : { body: new URLSearchParams(init.form) }),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/** Signs in through the form; returns the cookie header and the session's CSRF token. */
async function signIn(key: string): Promise<{ cookie: string; csrf: string }> {
  const login = await send('/console/login', { form: { key }, headers: { origin } });
  expect(login.status).toBe(303);
  const setCookie = login.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0] as string;
  const page = await send('/console', { headers: { cookie } });
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
  expect(csrf).toBeDefined();
  return { cookie, csrf: csrf as string };
}

const ledgerStatus = async () => {
  const response = await fetch(`${origin}/admin/api/ledger`, {
    headers: { authorization: `Bearer ${OPERATOR}` },
  });
  const body = (await response.json()) as { records: { upstream: string; tool: string; status: string }[] };
  return body.records.find((r) => r.upstream === 'every' && r.tool === 'echo')?.status;
};

const PAGES = [
  '/console',
  '/console/',
  '/console/tools?q=echo',
  '/console/audit',
  '/console/audit/export',
  '/console/ledger',
  '/console/ledger/every%3A%3Aecho',
  '/console/approvals',
  '/console/approvals/stream',
  '/console/approvals/some-id',
  '/console/x',
];

describe('without admin credentials', () => {
  it.each(PAGES)('GET %s sends the browser to sign-in and shows nothing', async (route) => {
    const answer = await send(route);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/console/login');
    expect(answer.text).toBe('');
  });

  it.each(PAGES)('GET %s with a wrong key is 401 with no data', async (route) => {
    const answer = await send(route, { headers: { authorization: 'Bearer not-a-key' } });
    expect(answer.status).toBe(401);
    expect(answer.text).not.toMatch(/every|echo/);
  });

  it.each([
    '/console/tools/ledger',
    '/console/logout',
    '/console/login/../tools/ledger',
    '/console/ledger/every%3A%3Aecho/act',
    '/console/approvals/some-id/answer',
  ])('POST %s is refused with no data', async (route) => {
    const answer = await send(route, {
      form: { upstream: 'every', tool: 'echo', action: 'revoke' },
      headers: { origin },
    });
    expect([401, 403, 404]).toContain(answer.status);
    expect(answer.text).not.toMatch(/every|echo/);
    expect(await ledgerStatus()).toBe('ACTIVE');
  });

  it('opens only the sign-in page and the two static assets', async () => {
    expect((await send('/console/login')).status).toBe(200);
    expect((await send('/console/assets/console.css')).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await send('/console/assets/console.js')).headers.get('content-type')).toMatch(
      /^text\/javascript/,
    );
    expect((await send('/console/login')).text).not.toMatch(/every|echo/);
  });
});

describe('headers and markup', () => {
  it.each([
    ...PAGES.slice(0, 4),
    '/console/ledger',
    '/console/ledger/every%3A%3Aecho',
    '/console/approvals',
    '/console/login',
    '/console/assets/console.js',
  ])('%s carries the strict policy and no inline script or style', async (route) => {
    const answer = await send(route, { headers: { authorization: `Bearer ${VIEWER}` } });
    expect(answer.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
        "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('same-origin');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    if (!answer.headers.get('content-type')?.startsWith('text/html')) return;
    const scripts = answer.text.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/\ssrc="\/console\/assets\/console\.js"/);
    expect(answer.text).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/);
    expect(answer.text).not.toMatch(/<[^>]+\son[a-z]+=/i);
    expect(answer.text).not.toMatch(/<[^>]+\sstyle=/i);
    expect(answer.text).not.toMatch(/<style\b/i);
  });

  it('a Bearer admin key opens every page (scripted checks)', async () => {
    const tools = await send('/console/tools?q=echo', { headers: { authorization: `Bearer ${VIEWER}` } });
    expect(tools.status).toBe(200);
    expect(tools.text).toContain('every_echo');
    const exported = await send('/console/audit/export', { headers: { authorization: `Bearer ${VIEWER}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  });
});

describe('sign-in and sessions', () => {
  it('sets an HttpOnly, SameSite=Strict cookie scoped to /console', async () => {
    const login = await send('/console/login', { form: { key: OPERATOR }, headers: { origin } });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^portcullis_console=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/console/);
  });

  it('refuses a wrong key and a sign-in form from another origin', async () => {
    expect((await send('/console/login', { form: { key: 'wrong' }, headers: { origin } })).status).toBe(401);
    const crossSite = await send('/console/login', {
      form: { key: OPERATOR },
      headers: { origin: 'http://evil.example' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('set-cookie')).toBeNull();
  });

  it('ends the session on sign-out', async () => {
    const { cookie, csrf } = await signIn(VIEWER);
    expect((await send('/console/logout', { form: { csrf }, headers: { cookie, origin } })).status).toBe(303);
    expect((await send('/console', { headers: { cookie } })).headers.get('location')).toBe('/console/login');
  });
});

describe('writes', () => {
  const revoke = (session: { cookie: string; csrf: string }, headers: Record<string, string> = { origin }) =>
    send('/console/tools/ledger', {
      form: { csrf: session.csrf, upstream: 'every', tool: 'echo', action: 'revoke', reason: 'console test' },
      headers: { cookie: session.cookie, ...headers },
    });

  it('refuses a form without the session’s CSRF token', async () => {
    const operator = await signIn(OPERATOR);
    const other = await signIn(OPERATOR);
    for (const csrf of ['', 'forged', other.csrf]) {
      const answer = await revoke({ cookie: operator.cookie, csrf });
      expect(answer.status).toBe(403);
      expect(answer.text).toContain('the form is stale or was not sent by the console');
    }
    expect(await ledgerStatus()).toBe('ACTIVE');
  });

  it('refuses a form sent from another origin, even with the right token', async () => {
    const operator = await signIn(OPERATOR);
    expect((await revoke(operator, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await revoke(operator, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await revoke(operator, {})).status).toBe(403);
    expect(await ledgerStatus()).toBe('ACTIVE');
  });

  it('refuses writes by Bearer (no session) and by a viewer, who sees no action form', async () => {
    const bearer = await send('/console/tools/ledger', {
      form: { upstream: 'every', tool: 'echo', action: 'revoke' },
      headers: { authorization: `Bearer ${OPERATOR}`, origin },
    });
    expect(bearer.status).toBe(403);
    const viewer = await signIn(VIEWER);
    expect((await send('/console/tools', { headers: { cookie: viewer.cookie } })).text).not.toContain(
      'action="/console/tools/ledger"',
    );
    const answer = await revoke(viewer);
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('needs the operator role');
    expect(await ledgerStatus()).toBe('ACTIVE');
  });

  it('lets an operator act; the admin API audits the action with the operator', async () => {
    const operator = await signIn(OPERATOR);
    const answer = await revoke(operator);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/console/tools?done=revoke&target=every%3A%3Aecho');
    expect(await ledgerStatus()).toBe('REVOKED');
    const after = await send(`/console/tools?q=echo&done=revoke&target=every%3A%3Aecho`, {
      headers: { cookie: operator.cookie },
    });
    expect(after.text).toContain('Done: revoke every::echo');
    expect(after.text).toContain('name="back" value="/console/tools?q=echo"');
    for (const action of ['restore', 'approve']) {
      const step = await send('/console/tools/ledger', {
        form: { csrf: operator.csrf, upstream: 'every', tool: 'echo', action },
        headers: { cookie: operator.cookie, origin },
      });
      expect(step.status).toBe(303);
    }
    expect(await ledgerStatus()).toBe('ACTIVE');
    const audit = await fetch(`${origin}/admin/api/audit?alias=admin.ledger.revoke`, {
      headers: { authorization: `Bearer ${VIEWER}` },
    });
    const entries = ((await audit.json()) as { entries: AuditEntry[] }).entries;
    const records = entries.map((e) => e.record);
    expect(records.find((r) => r.outcome === 'OK')).toMatchObject({
      principal: 'admin:ops',
      reason: 'console test',
    });
    expect(records.find((r) => r.outcome === 'ERROR')).toMatchObject({ principal: 'admin:watcher' });
  });
});

describe('ledger review forms', () => {
  const act = (session: { cookie: string; csrf: string }, form: Record<string, string>) =>
    send('/console/ledger/every%3A%3Aecho/act', {
      form: { csrf: session.csrf, ...form },
      headers: { cookie: session.cookie, origin },
    });

  it('needs a reason, then revokes, restores and approves the reviewed digest', async () => {
    const operator = await signIn(OPERATOR);
    const page = await send('/console/ledger/every%3A%3Aecho', { headers: { cookie: operator.cookie } });
    expect(page.text).toContain('action="/console/ledger/every%3A%3Aecho/act"');
    const hash = /name="hash" value="([0-9a-f]{64})"/.exec(page.text)?.[1] ?? '';
    const bare = await act(operator, { action: 'revoke', reason: ' ' });
    expect(bare.status).toBe(400);
    expect(bare.text).toContain('&quot;reason&quot; must say why');
    expect(await ledgerStatus()).toBe('ACTIVE');
    const revoked = await act(operator, { action: 'revoke', reason: 'review test' });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/console/ledger/every%3A%3Aecho?done=revoke');
    expect(await ledgerStatus()).toBe('REVOKED');
    expect((await act(operator, { action: 'restore', reason: 'review test' })).status).toBe(303);
    const stale = await act(operator, { action: 'approve', reason: 'review test', hash: 'f'.repeat(64) });
    expect(stale.status).toBe(400);
    expect(await ledgerStatus()).toBe('AWAITING_REREVIEW');
    expect((await act(operator, { action: 'approve', reason: 'review test', hash })).status).toBe(303);
    expect(await ledgerStatus()).toBe('ACTIVE');
  });
});

describe('with no admin keys (loopback mode)', () => {
  let open: RunningGateway;
  beforeAll(async () => {
    open = await startGateway({ upstreams: {}, tools: { bundled: false } });
  }, 120_000);
  afterAll(async () => open?.close());

  it('opens to a loopback browser as the admin decision does, and refuses a cross-site page', async () => {
    const base = `http://127.0.0.1:${open.port}`;
    const first = await fetch(`${base}/console`, { redirect: 'manual' });
    expect(first.status).toBe(200);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(await first.text()).toContain('No upstream servers are configured');
    const crossSite = await fetch(`${base}/console`, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
  });
});
