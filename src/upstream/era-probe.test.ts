/**
 * `protocol: auto` against real stdio servers of each kind: the SDK's probe decides, the gateway's own client
 * takes a 2025-era server and the SDK client a 2026-era one (adopting the probe's discovery). A server that
 * answers the probe with -32601, one that exits on it and one that stays silent are all 2025-era servers.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { connectUpstream } from './connection.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A 2025-era server that only knows `initialize` and `ping`; before `initialize` it either exits on any
 * other request (`exit`, as servers built on SDKs that terminate on one do) or ignores it (`silent`).
 */
const PICKY_SERVER = `
const mode = process.argv[1];
let initialized = false;
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
  if (m.method === 'initialize') {
    initialized = true;
    return answer({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'picky-' + mode, version: '1' } });
  }
  if (!initialized) { if (mode === 'exit') process.exit(0); return; }
  if (m.method === 'ping') return answer({});
});`;

function stdio(id: string, command: string, args: string[]): UpstreamConfig {
  return {
    id,
    enabled: true,
    protocol: 'auto',
    callTimeoutMs: 10_000,
    sampling: false,
    transport: 'stdio',
    command,
    args,
    env: {},
    cwd: ROOT,
  };
}

const EVENTS = { onClose: () => {}, onListChanged: () => {} };

/**
 * The connect deadline of a case: 4 s for the silent server, whose probe (given half of it) must time out quickly;
 * 20 s for the others, so a slow start under load (the conformance fixture runs through tsx) never turns an
 * answering server into a silent one.
 */
const deadlineFor = (config: UpstreamConfig) => (config.id === 'silent' ? 4_000 : 20_000);

const EVERYTHING = stdio('everything', process.execPath, [
  path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  'stdio',
]);
const CONFORMANCE = stdio('conformance', process.execPath, [
  '--import',
  'tsx',
  path.join(ROOT, 'conformance/upstream-server.ts'),
]);
const HOSTILE = stdio('hostile', process.execPath, [
  '--import',
  'tsx',
  path.join(ROOT, 'test/fixtures/hostile-legacy-upstream.ts'),
]);

describe('protocol: auto', () => {
  it.each([
    ['server-everything', EVERYTHING, 'legacy', /^2025-/, 'mcp-servers/everything'],
    [
      'the conformance fixture (both eras)',
      stdio('conformance', process.execPath, [
        '--import',
        'tsx',
        path.join(ROOT, 'conformance/upstream-server.ts'),
      ]),
      'modern',
      /^2026-07-28$/,
      undefined,
    ],
    ['a server answering the probe with -32601', HOSTILE, 'legacy', /^2025-/, 'hostile-legacy'],
    [
      'a server that exits on the probe',
      stdio('exits', process.execPath, ['-e', PICKY_SERVER, 'exit']),
      'legacy',
      /^2025-/,
      'picky-exit',
    ],
    [
      'a server silent to the probe',
      stdio('silent', process.execPath, ['-e', PICKY_SERVER, 'silent']),
      'legacy',
      /^2025-/,
      'picky-silent',
    ],
  ])(
    'connects %s in the era it speaks',
    async (_name, config, era, version, serverName) => {
      const connection = await connectUpstream(config, { inheritedEnv: {} }, EVENTS, deadlineFor(config));
      try {
        expect(connection.era).toBe(era);
        expect(connection.protocolVersion).toMatch(version);
        if (serverName !== undefined) expect(connection.serverInfo?.name).toBe(serverName);
        // The link answers: ping on a 2025-era link, server/discover on a 2026-era one.
        await connection.probe(5_000);
      } finally {
        await connection.close();
      }
    },
    30_000,
  );

  it.each([
    ['server-everything', EVERYTHING, 1],
    ['a server answering the probe with -32601', HOSTILE, 1],
    ['the conformance fixture (2026 era)', CONFORMANCE, 1],
    ['a server that exits on the probe', stdio('exits', process.execPath, ['-e', PICKY_SERVER, 'exit']), 2],
    ['a server silent to the probe', stdio('silent', process.execPath, ['-e', PICKY_SERVER, 'silent']), 2],
  ])(
    'links %s on the process that answered the probe, or else on a new one',
    async (_name, config, processes) => {
      const pids: number[] = [];
      const watchdog = { watch: (pid: number) => void pids.push(pid), unwatch: () => {}, close: () => {} };
      const connection = await connectUpstream(
        config,
        { inheritedEnv: {}, watchdog },
        EVENTS,
        deadlineFor(config),
      );
      try {
        expect(new Set(pids).size).toBe(processes);
        await connection.probe(5_000);
      } finally {
        await connection.close();
      }
    },
    30_000,
  );

  it('keeps a verdict whose probe cost a process of its own across connects, and forgets it when one fails', async () => {
    const memo = { legacy: false };
    const processesOf = async (config: UpstreamConfig) => {
      const pids: number[] = [];
      const watchdog = { watch: (pid: number) => void pids.push(pid), unwatch: () => {}, close: () => {} };
      const connection = await connectUpstream(config, { inheritedEnv: {}, watchdog }, EVENTS, 20_000, memo);
      await connection.close();
      return new Set(pids).size;
    };
    // A server that answered the probe on its own process leaves nothing to keep.
    expect(await processesOf(EVERYTHING)).toBe(1);
    expect(memo.legacy).toBe(false);
    const exits = stdio('exits', process.execPath, ['-e', PICKY_SERVER, 'exit']);
    expect(await processesOf(exits)).toBe(2);
    expect(memo.legacy).toBe(true);
    // The next connect goes straight to the 2025-era handshake, on one process.
    expect(await processesOf(exits)).toBe(1);
    const gone = stdio('gone', process.execPath, ['-e', 'process.exit(3)']);
    await expect(connectUpstream(gone, { inheritedEnv: {} }, EVENTS, 20_000, memo)).rejects.toThrow(
      /could not be connected/,
    );
    expect(memo.legacy).toBe(false);
    expect(await processesOf(exits)).toBe(2);
  }, 60_000);
});
