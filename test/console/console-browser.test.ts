/**
 * The console in a real browser (Debian's chromium through playwright-core) against Portcullis in front of
 * server-everything and a poisoned fixture server: sign in as operator and viewer, see the real upstreams' tools
 * with a finding's span highlighted, browse and filter the audit after real SDK calls, act as operator, and a
 * viewer sees no action button and gets 403 on a write. No CSP violation is reported on any page. Each test
 * saves a screenshot under test-results/console/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  ROOT,
  startGateway,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
const MCP_KEY = 'mcp-key-0123456789abcdef';
const SHOTS = path.join(ROOT, 'test-results/console');
const POISONED = {
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/poisoned-server.ts')],
  cwd: ROOT,
};

let gateway: RunningGateway;
let otlpSink: Server;
let browser: Browser;
let base: string;
const cspViolations: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // Traces go to a sink that takes every export, so the calls carry real trace ids for the audit's trace links.
  otlpSink = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => otlpSink.listen(0, '127.0.0.1', resolve));
  const sinkPort = (otlpSink.address() as AddressInfo).port;
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${MCP_KEY}'] },
      admin: {
        keys: [
          { name: 'watcher', key: '${VIEWER_KEY}', role: 'viewer' },
          { name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' },
        ],
      },
      console: { traceUrl: 'http://localhost:16686/trace/{traceId}' },
      telemetry: { otlp: { endpoint: `http://127.0.0.1:${sinkPort}` } },
      upstreams: { every: UPSTREAMS.everythingStdio, poisoned: POISONED },
      tools: { bundled: false },
    },
    { env: { MCP_KEY, VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR } },
  );
  base = `http://127.0.0.1:${gateway.port}`;
  const client = await connectClient(gateway.url, { era: 'modern', apiKey: MCP_KEY });
  for (const message of ['hello', 'from', 'the console test']) {
    await client.callTool({ name: 'every_echo', arguments: { message } });
  }
  await client.callTool({ name: 'every_echo', arguments: { message: 42 } });
  await client.callTool({ name: 'every_get-sum', arguments: { a: 2, b: 3 } });
  await client.close();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  otlpSink?.close();
  expect(cspViolations).toEqual([]);
});

async function signedIn(key: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(`${base}/console/tools`);
  expect(new URL(page.url()).pathname).toBe('/console/login');
  await page.getByLabel('Admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
  return { context, page };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

describe('as operator', () => {
  let page: Page;
  beforeAll(async () => {
    page = (await signedIn(OPERATOR)).page;
  });

  it('shows the upstreams and the recent activity on the overview', async () => {
    await expect(page.locator('#server-every .state').textContent()).resolves.toBe('connected');
    await expect(page.locator('#server-poisoned .state').textContent()).resolves.toBe('connected');
    const calls = await page
      .locator('.stat', { hasText: 'calls' })
      .nth(1)
      .locator('.stat-value')
      .textContent();
    expect(Number(calls)).toBeGreaterThanOrEqual(5);
    await expect(page.locator('.who').textContent()).resolves.toContain('admin:ops');
    await shot(page, 'operator-overview');
  });

  it('lists the real tools, filters them, and highlights a finding’s span', async () => {
    await page.getByRole('link', { name: 'Servers and tools' }).click();
    await expect(page.locator('#tool-every_echo').count()).resolves.toBe(1);
    await page.getByLabel('Search').fill('summarize');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/q=summarize/);
    const cards = page.locator('article.tool');
    await expect(cards.count()).resolves.toBe(1);
    const marked = await cards.first().locator('mark').allTextContents();
    expect(marked.join(' ')).toMatch(/ignore previous instructions/i);
    await shot(page, 'operator-tools-finding');
  });

  it('revokes and restores a tool with the buttons', async () => {
    await page.goto(`${base}/console/tools?q=every_echo`);
    const card = page.locator('#tool-every_echo');
    await card.getByLabel('Reason').fill('browser test');
    await card.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/done=revoke/);
    await expect(page.locator('.notice-ok').textContent()).resolves.toContain('revoke every::echo');
    await expect(page.locator('#tool-every_echo').textContent()).resolves.toContain('ledger REVOKED');
    await page.locator('#tool-every_echo').getByRole('button', { name: 'Restore' }).click();
    await page.waitForURL(/done=restore/);
    await page.locator('#tool-every_echo').getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/done=approve/);
    await expect(page.locator('#tool-every_echo').textContent()).resolves.toContain('ledger ACTIVE');
    await shot(page, 'operator-tools-acted');
  });

  it('browses and filters the audit, with each row’s detail and local times', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    await expect(page.locator('.chain-ok').textContent()).resolves.toMatch(/Chain verified/);
    await expect(page.locator('details.row', { hasText: 'every_echo' }).count()).resolves.toBe(4);
    // The script ran under the CSP: it moved the UTC text into the title and wrote the local time.
    await expect(page.locator('time[title]').count()).resolves.toBeGreaterThan(0);
    await page.getByLabel('Tool').fill('every_echo');
    await page.getByLabel('Outcome').selectOption('ERROR');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/outcome=ERROR/);
    const rows = page.locator('details.row');
    await expect(rows.count()).resolves.toBe(1);
    await rows.first().locator('summary').click();
    await expect(rows.first().locator('pre').textContent()).resolves.toContain('"message": 42');
    await expect(rows.first().textContent()).resolves.toContain('INVALID_ARGUMENTS');
    const trace = rows.first().locator('a[href^="http://localhost:16686/trace/"]');
    const traceId = await trace.textContent();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await expect(trace.getAttribute('href')).resolves.toBe(`http://localhost:16686/trace/${traceId}`);
    await shot(page, 'operator-audit-filtered');
    await page.getByLabel('Outcome').selectOption('');
    await page.getByLabel('Tool').fill('nothing_here');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.locator('.empty').textContent()).resolves.toContain('No record matches these filters');
  });

  it('is keyboard navigable: skip link first, then the navigation, and the filter form submits on Enter', async () => {
    await page.goto(`${base}/console/tools`);
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Skip to content');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Overview');
    await page.getByLabel('Search').focus();
    await page.keyboard.type('get-sum');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=get-sum/);
    await expect(page.locator('article.tool').count()).resolves.toBe(1);
  });

  it('stays readable at phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const route of ['/console', '/console/tools', '/console/audit']) {
      await page.goto(`${base}${route}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, route).toBeLessThanOrEqual(0);
    }
    await shot(page, 'operator-audit-phone');
  });
});

describe('as viewer', () => {
  it('reads every page but has no action button, and a write is refused with 403', async () => {
    const { page } = await signedIn(VIEWER);
    await page.goto(`${base}/console/tools`);
    await expect(page.locator('#tool-every_echo').count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: /Revoke|Approve|Restore/ }).count()).resolves.toBe(0);
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const answer = await page.request.post(`${base}/console/tools/ledger`, {
      form: { csrf: csrf ?? '', upstream: 'every', tool: 'echo', action: 'revoke' },
      headers: { origin: base },
    });
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain('needs the operator role');
    await shot(page, 'viewer-tools');
    await page.goto(`${base}/console/audit`);
    await expect(
      page.locator('.row', { hasText: 'admin.ledger.revoke' }).first().textContent(),
    ).resolves.toContain('admin:watcher');
  });
});
