/**
 * Issue 15 item 6 through the real gateway and server-filesystem: an `anyArg` deny rule sees a path wherever it
 * sits in the arguments (here inside `read_multiple_files`' `paths` list, where no single pointer reaches), and
 * in its normalized form (`public/../secrets`), while other calls still run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const files = tempDir('portcullis-argrules-');
mkdirSync(path.join(files, 'secrets'));
mkdirSync(path.join(files, 'public'));
writeFileSync(path.join(files, 'secrets', 'key.txt'), 'the secret key');
writeFileSync(path.join(files, 'public', 'a.txt'), 'public text');
let gateway: RunningGateway;
let client: Client;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: { files: UPSTREAMS.filesystem(files) },
    approval: {
      rules: [
        {
          id: 'no-secrets-anywhere',
          match: { upstream: 'files', anyArg: '**/secrets/**' },
          decision: 'deny',
          reason: 'the secrets folder is off limits',
        },
      ],
    },
  });
  client = await connectClient(gateway.url, { era: 'legacy' });
}, 120_000);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('anyArg deny rule in front of server-filesystem', () => {
  it('refuses a secret path hidden in a list, in its dot-dot form', async () => {
    const result = await call('files_read_multiple_files', {
      paths: [path.join(files, 'public', 'a.txt'), `${files}/public/../secrets/key.txt`],
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('the secrets folder is off limits');
    expect(text(result)).not.toContain('the secret key');
  });

  it('refuses a single path in its dot-dot form', async () => {
    const result = await call('files_read_text_file', { path: `${files}/public/../secrets/key.txt` });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('the secret key');
  });

  it('still runs calls that touch no secret', async () => {
    const result = await call('files_read_multiple_files', { paths: [path.join(files, 'public', 'a.txt')] });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('public text');
  });
});
