/**
 * Issue 14, defect 1: a stdio upstream that exits, stalls or dies while it connects must never take the gateway
 * down. Each broken upstream is reported `down` with its reason and its last stderr lines, logged at `warn`,
 * while a healthy server-everything beside it keeps answering.
 */
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  startGateway,
  tempDir,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
  pidWith,
} from '../helpers/gateway-harness.ts';

const node = process.execPath;
// Short enough for a quick test, long enough for a healthy upstream to start on a loaded machine.
const CONNECT_TIMEOUT_MS = 15_000;

const text = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

/** Every upstream that cannot connect, by the way it fails. */
const BROKEN = {
  exitsAtOnce: { transport: 'stdio', command: 'false' },
  missingScript: { transport: 'stdio', command: node, args: ['/nonexistent/portcullis-missing-server.js'] },
  missingCommand: { transport: 'stdio', command: 'portcullis-no-such-command-4b1d' },
  crashes: {
    transport: 'stdio',
    command: node,
    args: ['-e', "console.error('boom: WIDGET_API_KEY is not set'); process.exit(3)"],
  },
  neverAnswers: { transport: 'stdio', command: node, args: ['-e', 'setInterval(() => {}, 1000)'] },
  tooSlow: {
    transport: 'stdio',
    command: 'sh',
    args: [
      '-c',
      `sleep 120; exec "$0" "$@"`,
      ...[UPSTREAMS.everythingStdio.command, ...UPSTREAMS.everythingStdio.args],
    ],
  },
} as const;

describe('stdio upstreams that fail while connecting', () => {
  let gateway: RunningGateway;
  let client: Client;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  const dir = tempDir('portcullis-connect-failure-');
  const marker = `--portcullis-test-marker=${randomUUID()}`;
  // While this file exists the mutable fixture exits at start, so its restarts fail.
  const refuseFile = path.join(dir, 'refuse');

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    gateway = await startGateway(
      {
        upstreams: {
          // Legacy: no era probe, so the healthy ones connect well within the short connect timeout.
          every: { ...UPSTREAMS.everythingStdio, protocol: 'legacy' },
          ...BROKEN,
          mut: {
            ...UPSTREAMS.mutable,
            protocol: 'legacy',
            args: [...UPSTREAMS.mutable.args, marker, `--refuse-start-if=${refuseFile}`],
          },
        },
      },
      { deps: { connectTimeoutMs: CONNECT_TIMEOUT_MS } },
    );
    client = await connectClient(gateway.url, { era: 'legacy' });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays up, keeps the healthy upstream answering, and reports each broken one down with its reason', async () => {
    const supervisor = gateway.gateway.supervisor;
    await waitFor(
      () => {
        if (uncaught.length > 0) throw uncaught[0];
        return Object.keys(BROKEN).every((id) => supervisor.snapshot(id)?.lastError !== undefined);
      },
      40_000,
      `every broken upstream to be reported down (${JSON.stringify(supervisor.snapshots().map((s) => [s.id, s.state, s.lastError, s.lastStderr]))})`,
    );
    // Past the connect timeout of the stalled ones and their first restart (the crash came a moment after).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(uncaught).toEqual([]);

    await waitFor(() => supervisor.snapshot('every')?.state === 'connected', 60_000, 'every connected');
    const echo = await client.callTool({ name: 'every_echo', arguments: { message: 'still serving' } });
    expect(text(echo)).toContain('still serving');

    for (const id of Object.keys(BROKEN)) {
      const snapshot = supervisor.snapshot(id);
      expect(snapshot?.lastError, id).toBeTruthy();
      expect(snapshot?.lastError, id).not.toMatch(/before initialization/);
    }
    expect(supervisor.snapshot('missingCommand')?.lastError).toMatch(/ENOENT/);
    expect(supervisor.snapshot('neverAnswers')?.lastError).toMatch(/within 15000 ms/);
    expect(supervisor.snapshot('tooSlow')?.lastError).toMatch(/within 15000 ms/);
    expect(supervisor.snapshot('crashes')?.lastStderr).toContain('boom: WIDGET_API_KEY is not set');
    expect(supervisor.snapshot('missingScript')?.lastStderr?.join('\n')).toMatch(/Cannot find module/);

    // The operator sees it at warn, with the reason and the child's last words.
    const downs = gateway.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.event === 'upstream.down');
    const crashed = downs.find((entry) => entry.upstream === 'crashes');
    expect(crashed?.level).toBe('warn');
    expect(crashed?.stderr).toEqual(expect.arrayContaining(['boom: WIDGET_API_KEY is not set']));
    expect(downs.every((entry) => entry.level === 'warn')).toBe(true);

    // The admin API lists the broken server with its last stderr lines.
    const response = await fetch(`http://127.0.0.1:${gateway.port}/admin/api/servers`);
    expect(response.status).toBe(200);
    const { servers } = (await response.json()) as {
      servers: { id: string; state: string; lastError: string | null; lastStderr: string[] }[];
    };
    const listed = servers.find((s) => s.id === 'crashes');
    expect(listed?.state).toBe('down');
    expect(listed?.lastStderr).toContain('boom: WIDGET_API_KEY is not set');
    expect(servers.find((s) => s.id === 'every')?.state).toBe('connected');
  }, 120_000);

  it('stays up when a running upstream dies and its restart fails', async () => {
    const supervisor = gateway.gateway.supervisor;
    await waitFor(() => supervisor.snapshot('mut')?.state === 'connected', 30_000, 'mut connected');
    const pid = pidWith(marker);
    expect(pid).toBeDefined();
    writeFileSync(refuseFile, 'stay down');
    process.kill(pid as number, 'SIGKILL');
    await waitFor(
      () => {
        if (uncaught.length > 0) throw uncaught[0];
        return supervisor.snapshot('mut')?.lastStderr?.some((line) => line.includes('refusing to start'));
      },
      20_000,
      'a failed restart of mut',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(uncaught).toEqual([]);
    expect(supervisor.snapshot('mut')?.state).not.toBe('connected');
    const echo = await client.callTool({
      name: 'every_echo',
      arguments: { message: 'after the restart failed' },
    });
    expect(text(echo)).toContain('after the restart failed');
  }, 120_000);
});
