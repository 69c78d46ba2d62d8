/**
 * Saves the console screenshots of the docs (docs/img/console-overview.png, docs/img/console-tools.png): a real
 * gateway in front of server-everything and the poisoned fixture server, a few real calls, Debian's chromium.
 * Run by hand: node --no-node-snapshot --import tsx scripts/console-screenshots.ts
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { connectClient, ROOT, startGateway, UPSTREAMS } from '../test/helpers/gateway-harness.ts';

const KEY = 'screenshot-operator-key-0123456789';
const OUT = path.join(ROOT, 'docs/img');

async function main(): Promise<void> {
  const gateway = await startGateway(
    {
      admin: { keys: [{ name: 'alice', key: '${OPERATOR_KEY}', role: 'operator' }] },
      console: { traceUrl: 'http://localhost:16686/trace/{traceId}' },
      upstreams: {
        every: UPSTREAMS.everythingStdio,
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
      tools: { bundled: false },
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
    await client.callTool({ name: 'every_get-sum', arguments: { a: 1, b: 2 } });
    await client.close();
    const base = `http://127.0.0.1:${gateway.port}`;
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(`${base}/console/login`);
    await page.getByLabel('Admin key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console`);
    await page.screenshot({ path: path.join(OUT, 'console-overview.png'), fullPage: true });
    await page.goto(`${base}/console/tools?upstream=poisoned`);
    await page.screenshot({ path: path.join(OUT, 'console-tools.png') });
    console.log(`saved ${OUT}/console-overview.png and console-tools.png`);
  } finally {
    await browser.close();
    await gateway.close();
  }
}

await main();
