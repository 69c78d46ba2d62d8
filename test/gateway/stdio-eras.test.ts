/**
 * `portcullis stdio` decides a connection's era from its first message (cli/stdio-eras.ts): the real SDK client of
 * each era launches the command as a desktop client would and is served in its own era, progress included, and an
 * opening that claims a revision the gateway does not speak is answered with an error rather than served.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, PROTOCOL_VERSION_META_KEY, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { writeConfigFile } from '../helpers/serve-support.ts';
import { ROOT, tempDir, UPSTREAMS, waitFor } from '../helpers/gateway-harness.ts';

const dir = tempDir('portcullis-stdio-eras-');
const configFile = writeConfigFile(dir, {
  store: { path: path.join(dir, 'portcullis.db') },
  upstreams: { mut: UPSTREAMS.mutable },
});
const COMMAND = ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'stdio', '--config', configFile];
const ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };

const clients: Client[] = [];

async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client(
    { name: `stdio-eras-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  clients.push(client);
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: COMMAND,
    cwd: ROOT,
    env: ENV,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  await client.connect(transport);
  await waitFor(
    async () => (await client.listTools()).tools.some((t) => t.name === 'mut_wait') || undefined,
    60_000,
    `mut_wait over ${era} stdio (stderr: ${stderr.join('').slice(-2000)})`,
  );
  return client;
}

let legacy: Client;
let modern: Client;
beforeAll(async () => {
  [legacy, modern] = await Promise.all([connect('legacy'), connect('modern')]);
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');

/** Writes `messages` as lines to a fresh `portcullis stdio` process and resolves with the first line it answers. */
async function firstAnswer(messages: object[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, COMMAND, { cwd: ROOT, env: ENV, stdio: ['pipe', 'pipe', 'ignore'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const answered = new Promise<Record<string, unknown>>((resolve) =>
      lines.on('line', (line) => resolve(JSON.parse(line) as Record<string, unknown>)),
    );
    child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
    return await answered;
  } finally {
    child.kill();
  }
}

describe('portcullis stdio serves each era on its own server', () => {
  it('negotiates a 2025-era version with the default client and 2026-07-28 with the pinned one', () => {
    const legacyVersion = legacy.getNegotiatedProtocolVersion();
    expect(legacyVersion).toBeDefined();
    expect(legacyVersion! < '2026-07-28').toBe(true);
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(legacy.getServerVersion()?.name).toBe(modern.getServerVersion()?.name);
  });

  it.each(['legacy', 'modern'] as const)('relays a %s call and its progress', async (era) => {
    const client = era === 'legacy' ? legacy : modern;
    const progress: number[] = [];
    const result = (await client.callTool(
      { name: 'mut_wait', arguments: { ms: 120 } },
      { onprogress: (p) => progress.push(p.progress) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe('waited 120 ms');
    expect(progress.length).toBeGreaterThan(0);
  });

  it('drops an answer sent before any request and serves the 2025-era initialize after it', async () => {
    const answer = await firstAnswer([
      { jsonrpc: '2.0', id: 99, result: {} },
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      },
    ]);
    expect(answer.id).toBe(1);
    expect(answer.result).toMatchObject({ protocolVersion: '2025-06-18' });
  }, 60_000);

  it('answers an opening whose 2026-era envelope is malformed with an invalid-params error', async () => {
    const answer = await firstAnswer([
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/list',
        params: { _meta: { [PROTOCOL_VERSION_META_KEY]: '1999-01-01' } },
      },
    ]);
    expect(answer.id).toBe(7);
    expect(answer.result).toBeUndefined();
    expect(answer.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('_meta envelope'),
    });
  }, 60_000);
});
