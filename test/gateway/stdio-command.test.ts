/**
 * Issue 2: `portcullis stdio` serves the same governed tool set over stdio. The real SDK client launches the
 * command as a desktop client would; upstreams are server-everything and a fixture that changes its tools.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createAuditLog } from '../../src/audit/index.ts';
import { openStore } from '../../src/store/index.ts';
import { writeConfigFile } from '../helpers/serve-support.ts';
import { ROOT, tempDir, UPSTREAMS, waitFor } from '../helpers/gateway-harness.ts';

const dir = tempDir('portcullis-stdio-command-');
const dbPath = path.join(dir, 'portcullis.db');
let client: Client;
const stderr: string[] = [];
const listChanges: string[] = [];

beforeAll(async () => {
  const configFile = writeConfigFile(dir, {
    store: { path: dbPath },
    upstreams: { every: UPSTREAMS.everythingStdio, mut: UPSTREAMS.mutable },
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'stdio', '--config', configFile],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: 'stdio-command-test', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    listChanges.push('tools');
  });
  await client.connect(transport);
  await waitFor(
    async () => {
      const { tools } = await client.listTools();
      return ['every_echo', 'mut_mutate'].every((name) => tools.some((t) => t.name === name)) || undefined;
    },
    60_000,
    `portcullis stdio to list every_echo and mut_mutate (stderr: ${stderr.join('').slice(-2000)})`,
  );
}, 120_000);
afterAll(async () => client?.close());

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');

describe('portcullis stdio', () => {
  it('lists the aliased upstream tools with their annotations and the bundled local tools', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['every_echo', 'every_get-sum', 'mut_mutate', 'base64']));
    expect(tools.find((t) => t.name === 'mut_stats')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('calls an upstream tool and a local tool', async () => {
    const echoed = (await client.callTool({
      name: 'every_echo',
      arguments: { message: 'over stdio' },
    })) as CallToolResult;
    expect(text(echoed)).toBe('Echo: over stdio');
    const encoded = (await client.callTool({
      name: 'base64',
      arguments: { mode: 'encode', text: 'portcullis' },
    })) as CallToolResult;
    expect(encoded.isError).toBeFalsy();
    expect(text(encoded)).toContain('cG9ydGN1bGxpcw==');
  });

  it('serves the upstream prompts under their namespaced names', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('every_simple-prompt');
    const prompt = await client.getPrompt({ name: 'every_simple-prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);
  });

  it('tells the client when an upstream changes its tools', async () => {
    const before = listChanges.length;
    await client.callTool({ name: 'mut_mutate', arguments: { action: 'add' } });
    await waitFor(
      async () => listChanges.length > before || undefined,
      20_000,
      'tools/list_changed over stdio',
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('mut_extra');
  });

  it('leaves an audit row per call and prompt read in the store once it exits', async () => {
    await client.close();
    const store = openStore({ path: dbPath });
    try {
      const { entries } = createAuditLog(store).query({ order: 'asc', limit: 100 });
      expect(entries.map((e) => [e.record.principal, e.record.alias, e.record.outcome])).toEqual([
        ['stdio', 'every_echo', 'OK'],
        ['stdio', 'base64', 'OK'],
        ['stdio', 'every_simple-prompt', 'OK'],
        ['stdio', 'mut_mutate', 'OK'],
      ]);
    } finally {
      store.close();
    }
  });
});
