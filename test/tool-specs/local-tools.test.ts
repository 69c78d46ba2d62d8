/**
 * Issue 4, "it must show" 5: the bundled pure-compute tools called through /mcp end to end with the SDK client
 * in both eras; a user spec directory published and reloaded without restart; nothing private leaves the
 * gateway; and `portcullis spec test` on a broken spec prints the pointer and the code.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const userDir = tempDir('portcullis-user-specs-');
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ tools: { dir: userDir } });
}, 120_000);
afterAll(async () => gateway?.close());

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');

describe.each(['legacy', 'modern'] as const)('bundled catalog tools through /mcp (%s client)', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(gateway.url, { era });
  });
  afterAll(async () => client?.close());

  it('lists the active pure-compute tools, never drafts and never private fields', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['base64', 'hashText', 'jsonQuery', 'textStats', 'csvToJson', 'generateUuid'])
      expect(names).toContain(name);
    for (const draft of ['experimentalThing', 'getUpbitTicker', 'readTextFile', 'writeTextFile'])
      expect(names).not.toContain(draft);
    const serialized = JSON.stringify(tools);
    for (const secret of [
      '"code"',
      'staticVariables',
      'sandboxOverrides',
      'toolSafety',
      'testValue',
      '"draft"',
    ]) {
      expect(serialized).not.toContain(secret);
    }
    expect(tools.find((t) => t.name === 'base64')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
  });

  it('runs base64 in the sandbox', async () => {
    const result = await client.callTool({
      name: 'base64',
      arguments: { text: 'hello world', mode: 'encode' },
    });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('aGVsbG8gd29ybGQ=');
  });

  it('hashes with crypto.subtle and matches node:crypto', async () => {
    const result = await client.callTool({
      name: 'hashText',
      arguments: { text: 'portcullis', algorithm: 'SHA-256', encoding: 'hex' },
    });
    expect(text(result)).toContain(createHash('sha256').update('portcullis').digest('hex'));
  });

  it('queries JSON and converts CSV', async () => {
    const query = await client.callTool({
      name: 'jsonQuery',
      arguments: { json: '{"items":[{"name":"a"},{"name":"b"}]}', path: '$.items[*].name' },
    });
    expect(text(query)).toContain('"a"');
    expect(text(query)).toContain('"b"');
    const csv = await client.callTool({
      name: 'csvToJson',
      arguments: { csv: 'name,city\n"Kim, Minji",Seoul', header: true },
    });
    expect(text(csv)).toContain('Kim, Minji');
  });

  it('answers invalid arguments with a tool error', async () => {
    const result = await client.callTool({ name: 'base64', arguments: { text: 42 } });
    expect(result.isError).toBe(true);
  });
});

describe('the user spec directory', () => {
  it('publishes a spec dropped in the directory without a restart, and withdraws a removed one', async () => {
    const client = await connectClient(gateway.url, { era: 'legacy' });
    let changes = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes += 1;
    });
    const spec = {
      name: 'shout',
      description: 'Returns the given text in upper case, for tests of the user spec directory.',
      params: [
        { name: 'text', type: 'STRING', required: true, description: 'Text to shout', testValue: 'hi' },
      ],
      codeType: 'Javascript',
      code: 'return text.toUpperCase() + "!";',
      draft: false,
    };
    writeFileSync(path.join(userDir, 'shout.json'), JSON.stringify(spec, null, 2));
    await waitFor(
      async () => (await client.listTools()).tools.some((t) => t.name === 'shout'),
      15_000,
      'shout to be published',
    );
    expect(changes).toBeGreaterThan(0);
    const result = await client.callTool({ name: 'shout', arguments: { text: 'portcullis' } });
    expect(text(result)).toBe('PORTCULLIS!');
    writeFileSync(path.join(userDir, 'shout.json'), JSON.stringify({ ...spec, draft: true }, null, 2));
    await waitFor(
      async () => !(await client.listTools()).tools.some((t) => t.name === 'shout'),
      15_000,
      'shout to be withdrawn',
    );
    await client.close();
  });
});

describe('portcullis spec test', () => {
  it('prints the code and the JSON pointer of a broken spec', async () => {
    const file = path.join(tempDir(), 'broken.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'broken',
        description: 'A spec whose required parameter has no testValue.',
        params: [
          { name: 'a', type: 'STRING', required: false },
          { name: 'b', type: 'STRING', required: true },
        ],
        code: 'return b;',
      }),
    );
    const outcome = await new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'spec', 'test', file],
        { cwd: ROOT },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (status) => resolve({ status, out }));
    });
    expect(outcome.status).not.toBe(0);
    expect(outcome.out).toContain('SPEC_INVARIANT');
    expect(outcome.out).toContain('/params/1/testValue');
  }, 60_000);
});
