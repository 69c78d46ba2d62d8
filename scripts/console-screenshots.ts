/**
 * Saves the console screenshots of the docs (docs/img/console-overview.png, console-tools.png,
 * console-ledger-diff.png, console-approvals.png, console-studio.png): a real gateway in front of server-everything, the poisoned
 * fixture server and the mutable fixture server (whose tool is redescribed while the gateway runs), a few real
 * calls, one waiting in the approval inbox, a tool written in the studio and Local-Passed, Debian's chromium.
 * Run by hand: node --no-node-snapshot --import tsx scripts/console-screenshots.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, ROOT, startGateway, UPSTREAMS, waitFor } from '../test/helpers/gateway-harness.ts';

const KEY = 'screenshot-operator-key-0123456789';
const OUT = path.join(ROOT, 'docs/img');

async function main(): Promise<void> {
  const toolsDir = mkdtempSync(path.join(tmpdir(), 'portcullis-shots-'));
  const gateway = await startGateway(
    {
      admin: { keys: [{ name: 'alice', key: '${OPERATOR_KEY}', role: 'operator' }] },
      console: { traceUrl: 'http://localhost:16686/trace/{traceId}' },
      upstreams: {
        every: { ...UPSTREAMS.everythingStdio, tools: { overrides: { 'get-sum': { hitl: 'REQUIRED' } } } },
        mut: UPSTREAMS.mutable,
        poisoned: {
          transport: 'stdio',
          command: process.execPath,
          args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/poisoned-server.ts')],
          cwd: ROOT,
        },
        broken: {
          transport: 'stdio',
          command: process.execPath,
          args: ['-e', 'console.error("GITHUB_TOKEN is not set");process.exit(3)'],
        },
      },
      tools: { bundled: false, dir: toolsDir },
      approval: { channel: 'console', elicitationTimeout: '60s' },
    },
    { env: { OPERATOR_KEY: KEY } },
  );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  try {
    const client = await connectClient(gateway.url, { era: 'modern' });
    for (const message of ['hello', 'world'])
      await client.callTool({ name: 'every_echo', arguments: { message } });
    await client.callTool({ name: 'every_echo', arguments: { message: 42 } });
    const listed = async (c: Client) => (await c.listTools()).tools.some((t) => t.name === 'mut_extra');
    await client.callTool({ name: 'mut_mutate', arguments: { action: 'add' } });
    await waitFor(() => listed(client), 10_000, 'mut_extra listed');
    await client.callTool({ name: 'mut_mutate', arguments: { action: 'redescribe' } });
    await waitFor(async () => !(await listed(client)), 10_000, 'mut_extra withheld');
    const base = `http://127.0.0.1:${gateway.port}`;
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${base}/console/login`);
    await page.getByLabel('Admin key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console`);
    await page.screenshot({ path: path.join(OUT, 'console-overview.png'), fullPage: true });
    await page.goto(`${base}/console/tools?upstream=poisoned`);
    await page.screenshot({ path: path.join(OUT, 'console-tools.png') });
    await page.goto(`${base}/console/ledger/${encodeURIComponent('mut::extra')}`);
    await page.screenshot({ path: path.join(OUT, 'console-ledger-diff.png'), fullPage: true });
    // A client without elicitation calls a REQUIRED tool; the call waits in the inbox until it is declined below.
    const waiting = client.callTool({ name: 'every_get-sum', arguments: { a: 1, b: 2 } });
    await page.goto(`${base}/console/approvals`);
    const card = page.locator('article.approval');
    await card.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(OUT, 'console-approvals.png') });
    await card.getByLabel(/Reason/).fill('screenshot only');
    await card.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(/done=decline/);
    await waiting;
    await client.close();
    await page.goto(`${base}/console/studio`);
    await page.locator('#studio-name').fill('reverse_text');
    await page.locator('#studio-description').fill('Reverses the given text. Returns { reversed }.');
    await page
      .locator('#studio-params')
      .fill(
        JSON.stringify([
          { name: 'text', type: 'STRING', required: true, description: 'The text', testValue: 'portcullis' },
        ]),
      );
    await page.locator('#studio-code').fill("return { reversed: text.split('').reverse().join('') };");
    await page.getByRole('button', { name: 'Run Local Pass' }).click();
    await page.locator('.studio-output').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(OUT, 'console-studio.png'), fullPage: true });
    console.log(`saved the five console screenshots under ${OUT}`);
  } finally {
    await browser.close();
    await gateway.close();
    rmSync(toolsDir, { recursive: true, force: true });
  }
}

await main();
