/**
 * Issue 14, defect 1, as an operator meets it: `portcullis serve` with an upstream whose command exits at once
 * (`false`) stays up and keeps answering /healthz and its healthy upstream's tools.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { connectClient, freePort, ROOT, tempDir, UPSTREAMS, waitFor } from '../helpers/gateway-harness.ts';
import { writeConfigFile } from '../helpers/serve-support.ts';

let gateway: ChildProcess | undefined;
const output: string[] = [];

afterAll(() => {
  if (gateway?.exitCode === null) gateway.kill('SIGKILL');
});

describe('portcullis serve with an upstream that exits at once', () => {
  it('stays up and keeps serving the healthy upstream', { timeout: 120_000 }, async () => {
    const dir = tempDir('portcullis-serve-broken-');
    const configFile = writeConfigFile(dir, {
      store: { path: `${dir}/portcullis.db` },
      upstreams: {
        every: { ...UPSTREAMS.everythingStdio, protocol: 'legacy' },
        broken: { transport: 'stdio', command: 'false' },
      },
    });
    const port = await freePort();
    gateway = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'serve', '--config', configFile, '--port', String(port)],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    gateway.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    gateway.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.ok,
      60_000,
      'the gateway to listen',
    );
    // Before the fix the process died a few seconds after listening, once the broken child had exited.
    await waitFor(
      () => output.join('').includes('"upstream.down"'),
      30_000,
      'the broken upstream to be reported',
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(gateway.exitCode, output.join('').slice(-2000)).toBeNull();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const client = await connectClient(`${base}/mcp`, { era: 'legacy' });
    try {
      const echo = await client.callTool({ name: 'every_echo', arguments: { message: 'up' } });
      expect(JSON.stringify(echo.content)).toContain('up');
    } finally {
      await client.close();
    }
    const down = output
      .join('')
      .split('\n')
      .find((line) => line.includes('"upstream.down"'));
    expect(down).toContain('"level":"warn"');
  });
});
