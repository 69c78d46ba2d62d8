/**
 * The console's ledger review and approval inbox in a real browser (Debian's chromium through playwright-core):
 * an upstream tool's description changes while the gateway runs and the operator approves it from the
 * side-by-side view, after which the tool is listed again; SDK clients that cannot show elicitation prompts call a
 * REQUIRED tool of server-everything, the operator approves one in the inbox (which updates itself from the
 * stream) and declines another, and each client's call proceeds or is denied with the reason; a viewer sees no
 * button and a forged answer gets 403. Screenshots go to test-results/console/ (gitignored).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  ROOT,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
const SHOTS = path.join(ROOT, 'test-results/console');

let gateway: RunningGateway;
let browser: Browser;
let base: string;
let legacy: Client;
let modern: Client;
const cspViolations: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  gateway = await startGateway(
    {
      admin: {
        keys: [
          { name: 'watcher', key: '${VIEWER_KEY}', role: 'viewer' },
          { name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' },
        ],
      },
      upstreams: {
        mut: UPSTREAMS.mutable,
        every: {
          ...UPSTREAMS.everythingStdio,
          tools: { include: ['echo'], overrides: { echo: { hitl: 'REQUIRED' } } },
        },
      },
      tools: { bundled: false },
      approval: { channel: 'console', elicitationTimeout: '60s', inbox: { modernHold: '1s' } },
    },
    { env: { VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR } },
  );
  base = `http://127.0.0.1:${gateway.port}`;
  legacy = await connectClient(gateway.url, { era: 'legacy' });
  modern = await connectClient(gateway.url, { era: 'modern' });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await legacy?.close();
  await modern?.close();
  await gateway?.close();
  expect(cspViolations).toEqual([]);
});

async function signedIn(key: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(`${base}/console/login`);
  await page.getByLabel('Admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
const listed = async (name: string) => (await legacy.listTools()).tools.some((t) => t.name === name);
const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');
const echo = (client: Client, message: string) =>
  client.callTool({ name: 'every_echo', arguments: { message } }) as Promise<CallToolResult>;

describe('ledger review', () => {
  it('shows a changed description side by side and brings the tool back once approved', async () => {
    await legacy.callTool({ name: 'mut_mutate', arguments: { action: 'add' } });
    await waitFor(() => listed('mut_extra'), 10_000, 'extra listed');
    await legacy.callTool({ name: 'mut_mutate', arguments: { action: 'redescribe' } });
    await waitFor(async () => !(await listed('mut_extra')), 10_000, 'extra withheld');

    const page = await signedIn(OPERATOR);
    await page.getByRole('link', { name: /1 tool changed and waits for review/ }).click();
    await page.waitForURL(`${base}/console/ledger`);
    await page.getByRole('link', { name: 'mut::extra' }).click();
    await page.waitForURL(/\/console\/ledger\/mut%3A%3Aextra$/);
    const changed = page.locator('tr[data-kind=changed]');
    await expect(changed.count()).resolves.toBe(1);
    await expect(changed.locator('td.old').textContent()).resolves.toBe(
      'Returns the word extra; a tool that appears at runtime.',
    );
    await expect(changed.locator('td.new').textContent()).resolves.toBe(
      'Returns the word extra, now with a different description.',
    );
    // The schema and annotations are laid out too, unchanged.
    await expect(page.locator('tr[data-kind=same]', { hasText: '/readOnlyHint' }).count()).resolves.toBe(1);
    await shot(page, 'operator-ledger-diff');

    await page.getByLabel(/Reason/).fill('reworded by the vendor');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/done=approve/);
    await expect(page.locator('#ledger-status').textContent()).resolves.toBe('active');
    await expect(page.locator('tr[data-kind=changed]').count()).resolves.toBe(0);
    await waitFor(() => listed('mut_extra'), 10_000, 'extra listed again');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'the review at phone width').toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/console/audit?tool=admin.ledger.approve`);
    await expect(page.locator('details.row').first().textContent()).resolves.toContain('admin:ops');
  });
});

describe('approval inbox', () => {
  let page: Page;
  beforeAll(async () => {
    page = await signedIn(OPERATOR);
  });

  it('shows a waiting call as it arrives, and the client’s call runs once the operator approves', async () => {
    await page.getByRole('link', { name: 'Approvals' }).click();
    await expect(page.locator('.empty').textContent()).resolves.toContain('No call waits for approval');
    const call = echo(legacy, 'please approve me');
    // The console script reloads the inbox when its stream reports the new entry.
    const card = page.locator('article.approval', { hasText: 'please approve me' });
    await card.waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('link', { name: /1 call waits for an operator/ }).click();
    await page.waitForURL(`${base}/console/approvals`);
    await expect(card.textContent()).resolves.toMatch(/every_echo.*L\d.*anonymous/s);
    await expect(card.locator('pre').textContent()).resolves.toContain('"message": "please approve me"');
    await shot(page, 'operator-approvals');
    await card.getByLabel(/Reason/).fill('checked the message');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(/done=approve/);
    await expect(page.locator('.notice-ok').textContent()).resolves.toBe('Done: approved');
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('please approve me');
  });

  it('denies the client’s call with the operator’s reason when declined from the detail page', async () => {
    await page.goto(`${base}/console/approvals`);
    const call = echo(modern, 'please decline me');
    // Locators wait through the reloads the stream causes; a goto racing one would be aborted.
    const link = page.locator('article.approval', { hasText: 'please decline me' }).getByRole('link');
    await link.waitFor({ timeout: 15_000 });
    const id = await link.getAttribute('href');
    await page.goto(`${base}${id}`);
    await page.getByLabel(/Reason/).fill('not during the freeze');
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(/done=decline/);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('an operator declined this call: not during the freeze');
  });
});

describe('as viewer', () => {
  it('sees the review and the inbox without buttons, and a forged answer is refused with 403', async () => {
    const page = await signedIn(VIEWER);
    await page.goto(`${base}/console/ledger/mut%3A%3Aextra`);
    await expect(page.locator('tr[data-kind=same]').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByRole('button', { name: /Approve|Revoke|Restore/ }).count()).resolves.toBe(0);

    await page.goto(`${base}/console/approvals`);
    const call = echo(legacy, 'viewer looks');
    const card = page.locator('article.approval', { hasText: 'viewer looks' });
    await card.waitFor({ timeout: 15_000 });
    await expect(page.getByRole('button', { name: /Approve|Decline/ }).count()).resolves.toBe(0);
    await shot(page, 'viewer-approvals');
    const href = await card.getByRole('link').getAttribute('href');
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const forged = await page.request.post(`${base}${href}/answer`, {
      form: { csrf: csrf ?? '', action: 'approve', reason: 'a viewer tries' },
      headers: { origin: base },
    });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('needs the operator role');

    const operator = await signedIn(OPERATOR);
    await operator.goto(`${base}${href}`);
    await operator.getByLabel(/Reason/).fill('cleaning up');
    await operator.getByRole('button', { name: 'Decline' }).click();
    await operator.waitForURL(/done=decline/);
    expect((await call).isError).toBe(true);
  });
});
