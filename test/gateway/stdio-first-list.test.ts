/**
 * Issue 14, defect 11: `portcullis stdio` answers the first tools/list only once its upstreams have connected or
 * failed (within a bounded wait), so a desktop client that lists once sees the upstream tools.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { writeConfigFile } from '../helpers/serve-support.ts';
import { ROOT, tempDir, UPSTREAMS } from '../helpers/gateway-harness.ts';

const dir = tempDir('portcullis-stdio-first-list-');
let client: Client | undefined;
afterAll(async () => client?.close());

describe('portcullis stdio, first tools/list', () => {
  it('lists the upstream tools on the very first request', async () => {
    const configFile = writeConfigFile(dir, {
      store: { path: path.join(dir, 'portcullis.db') },
      upstreams: { every: UPSTREAMS.everythingStdio, broken: { transport: 'stdio', command: 'false' } },
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'stdio', '--config', configFile],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'stdio-first-list-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools(undefined, { timeout: 90_000 });
    expect(tools.map((t) => t.name)).toContain('every_echo');
  }, 120_000);
});
