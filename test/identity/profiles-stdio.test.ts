/**
 * `portcullis stdio --profile NAME` serves one profile's tools and prompts, as a desktop client launches it; the
 * audit rows name the stdio principal and the profile. An unknown profile stops the command with status 2.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { runCli } from '../../src/cli/index.ts';
import { openStore } from '../../src/store/index.ts';
import { auditRecords, writeConfigFile } from '../helpers/serve-support.ts';
import { ROOT, tempDir, UPSTREAMS } from '../helpers/gateway-harness.ts';

const dir = tempDir('portcullis-stdio-profile-');
const dbPath = path.join(dir, 'portcullis.db');
let configFile: string;
let client: Client;
const stderr: string[] = [];

beforeAll(async () => {
  configFile = writeConfigFile(dir, {
    store: { path: dbPath },
    tools: { bundled: false },
    upstreams: { every: UPSTREAMS.everythingStdio },
    profiles: { 'echo-only': { tools: { include: ['every_echo'] }, prompts: { exclude: ['*'] } } },
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ...['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'stdio'],
      ...['--config', configFile, '--profile', 'echo-only'],
    ],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: 'stdio-profile-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);
afterAll(async () => client?.close());

describe('portcullis stdio --profile', () => {
  it("lists and calls only the profile's tools and prompts", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['every_echo']);
    expect((await client.listPrompts()).prompts).toEqual([]);
    const echoed = (await client.callTool({
      name: 'every_echo',
      arguments: { message: 'p' },
    })) as CallToolResult;
    expect(echoed.isError).toBeFalsy();
    const refused = await client
      .callTool({ name: 'every_get-sum', arguments: { a: 1, b: 2 } })
      .then((result) => JSON.stringify(result))
      .catch((error: Error) => error.message);
    expect(refused).toContain('Unknown tool: every_get-sum');
  });

  it('records the stdio principal and the profile', async () => {
    await client.close();
    const store = openStore({ path: dbPath });
    try {
      const rows = await auditRecords(store);
      expect(rows.map((r) => [r.principal, r.profile, r.alias, r.outcome])).toEqual([
        ['stdio', 'echo-only', 'every_echo', 'OK'],
        ['stdio', 'echo-only', 'every_get-sum', 'ERROR'],
      ]);
    } finally {
      store.close();
    }
  });

  it('stops with status 2 on an unknown profile, naming the configured ones', async () => {
    const errors: string[] = [];
    const io = { stdout: () => {}, stderr: (text: string) => errors.push(text), cwd: dir };
    expect(await runCli(['stdio', '--config', configFile, '--profile', 'nope'], io)).toBe(2);
    expect(errors.join('')).toContain('unknown profile "nope" (configured: echo-only)');
  });
});
