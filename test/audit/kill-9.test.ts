/**
 * Issue 5, "it must show" 4: `kill -9` of the gateway in the middle of a stream of calls loses no audit row of a
 * call the client saw succeed. The gateway runs as its own process (`portcullis serve`), a real SDK client fires
 * sequential echo calls, the gateway is SIGKILLed mid-stream and started again on the same store (which stores
 * what the killed process left in its audit journal), and the store is then read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { verifyAuditChain } from '../../src/audit/index.ts';
import { openStore } from '../../src/store/index.ts';
import { connectClient, freePort, ROOT, tempDir, UPSTREAMS, waitFor } from '../helpers/gateway-harness.ts';
import { auditRecords, writeConfigFile } from '../helpers/serve-support.ts';

const dir = tempDir('portcullis-e2e-kill-');
const dbPath = path.join(dir, 'portcullis.db');
const run = randomUUID();
let child: ChildProcess | undefined;
const output: string[] = [];

afterAll(() => {
  // The gateway was started in its own process group: end it and its stdio upstream, whatever state they are in.
  if (child !== undefined) killGroup(child);
});

/** Ends a process group started by startServe, whatever is left of it. */
function killGroup(started: ChildProcess): void {
  if (started.pid === undefined) return;
  try {
    process.kill(-started.pid, 'SIGKILL');
  } catch {
    // ESRCH: every member of the group has exited already.
  }
}

function startServe(configFile: string, port: number): ChildProcess {
  const started = spawn(
    process.execPath,
    [
      '--no-node-snapshot',
      '--import',
      'tsx',
      'src/main.ts',
      'serve',
      '--config',
      configFile,
      '--port',
      String(port),
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  started.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  started.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return started;
}

async function connectWhenReady(url: string): Promise<Client> {
  return waitFor(
    async () => {
      try {
        const client = await connectClient(url, { era: 'legacy' });
        const { tools } = await client.listTools();
        if (tools.some((t) => t.name === 'every_echo')) return client;
        await client.close();
      } catch {
        // Not listening yet, or the upstream is still connecting.
      }
      return undefined;
    },
    60_000,
    `the gateway process to serve every_echo (output: ${output.join('').slice(-2000)})`,
  );
}

describe('kill -9 during a stream of calls', () => {
  it('leaves an audit row for every call the client saw succeed', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const configFile = writeConfigFile(dir, {
      listen: { host: '127.0.0.1', port },
      store: { path: dbPath },
      upstreams: { every: { ...UPSTREAMS.everythingStdio } },
    });
    child = startServe(configFile, port);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child?.once('exit', (_code, signal) => resolve(signal)),
    );
    const client = await connectWhenReady(`http://127.0.0.1:${port}/mcp`);

    const attempted: string[] = [];
    const succeeded: string[] = [];
    const killAfter = 10 + Math.floor(Math.random() * 10);
    let killed = false;
    for (let i = 0; i < 1_000; i += 1) {
      const message = `call ${i} of ${run}`;
      attempted.push(message);
      if (succeeded.length === killAfter && !killed) {
        killed = true;
        // Fired while this call is in flight: the process dies at some point of its handling.
        setTimeout(() => child?.kill('SIGKILL'), Math.floor(Math.random() * 5));
      }
      try {
        const result = await client.callTool(
          { name: 'every_echo', arguments: { message } },
          { timeout: 10_000 },
        );
        if (result.isError || !JSON.stringify(result.content).includes(message)) break;
        succeeded.push(message);
      } catch {
        break;
      }
    }
    await client.close().catch(() => {});
    expect(killed).toBe(true);
    expect(await exited).toBe('SIGKILL');
    expect(succeeded.length).toBeGreaterThanOrEqual(killAfter);

    // The killed gateway's upstream goes too (its orphan watchdog may already have ended it, leaving no group);
    // then the restart, which stops cleanly once it serves.
    killGroup(child);
    const restartPort = await freePort();
    child = startServe(configFile, restartPort);
    const stopped = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    await (await connectWhenReady(`http://127.0.0.1:${restartPort}/mcp`)).close();
    child.kill('SIGTERM');
    expect(await stopped).toBe(0);
    expect(readdirSync(dir).filter((name) => name.includes('-audit-journal-'))).toEqual([]);

    const store = openStore({ path: dbPath });
    try {
      const rows = (await auditRecords(store)).filter((r) => JSON.stringify(r.arguments).includes(run));
      const recorded = new Set(rows.map((r) => (r.arguments as { message: string }).message));
      for (const message of succeeded) expect(recorded.has(message), `audit row of "${message}"`).toBe(true);
      // Calls are sequential: at most the one in flight at the kill was recorded without an answer.
      for (const message of recorded) expect(attempted).toContain(message);
      expect(rows.length).toBeLessThanOrEqual(succeeded.length + 1);
      expect(rows.every((r) => r.outcome === 'OK' && r.alias === 'every_echo')).toBe(true);
      // The chain the dead process left is whole.
      expect(verifyAuditChain(store)).toMatchObject({ ok: true, rows: rows.length });
    } finally {
      store.close();
    }
  });
});
