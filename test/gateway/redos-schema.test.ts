/**
 * Issue 14, defect 4: an upstream's schema must not freeze the event loop. The real gateway runs as its own
 * process (`portcullis serve`, so a frozen gateway fails this test instead of freezing it) in front of
 * server-everything and test/fixtures/upstream-redos-schema.ts, whose schemas carry catastrophic patterns.
 * Adversarial arguments and results are refused promptly while server-everything's echo keeps answering, and
 * tools whose patterns cannot run in linear time are withheld with a reason an operator can read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, freePort, ROOT, tempDir, UPSTREAMS, waitFor } from '../helpers/gateway-harness.ts';
import { writeConfigFile } from '../helpers/serve-support.ts';

const REDOS = {
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/upstream-redos-schema.ts')],
  cwd: ROOT,
};
/** A generous bound that only a frozen event loop misses. */
const ECHO_BOUND_MS = 2_000;

let child: ChildProcess | undefined;
let base = '';
const output: string[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const dir = tempDir('portcullis-redos-');
  const port = await freePort();
  const configFile = writeConfigFile(dir, {
    listen: { host: '127.0.0.1', port },
    store: { path: path.join(dir, 'portcullis.db') },
    upstreams: { every: { ...UPSTREAMS.everythingStdio }, redos: REDOS },
  });
  child = spawn(
    process.execPath,
    ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'serve', '--config', configFile],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  base = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      try {
        const client = await connectClient(`${base}/mcp`, { era: 'legacy' });
        const names = (await client.listTools()).tools.map((t) => t.name);
        await client.close();
        return names.includes('every_echo') && names.includes('redos_match_a');
      } catch {
        return false;
      }
    },
    90_000,
    `the gateway process to serve both upstreams (output: ${output.join('').slice(-2000)})`,
  );
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  // Started in its own process group: end the gateway and its stdio upstreams together.
  if (child?.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

async function client(era: 'legacy' | 'modern'): Promise<Client> {
  const connected = await connectClient(`${base}/mcp`, { era });
  clients.push(connected);
  return connected;
}

/** Echo calls on server-everything, one after another, each within the bound, until `done` settles. */
async function echoWhile(done: Promise<unknown>, client: Client): Promise<number> {
  let settled = false;
  void done.finally(() => (settled = true)).catch(() => {});
  let answered = 0;
  do {
    const result = await client.callTool(
      { name: 'every_echo', arguments: { message: `still here ${answered}` } },
      { timeout: ECHO_BOUND_MS },
    );
    expect(JSON.stringify(result.content)).toContain(`still here ${answered}`);
    answered += 1;
  } while (!settled);
  return answered;
}

/** The outcome of a call as text: the tool result, or the error it was refused with. */
async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    return JSON.stringify(await call);
  } catch (error) {
    return `rejected: ${(error as Error).message}`;
  }
}

describe.each(['legacy', 'modern'] as const)('a ReDoS schema upstream (%s era)', (era) => {
  it('refuses a catastrophic pattern argument promptly while echo keeps answering', async () => {
    const caller = await client(era);
    const other = await client(era);
    const adversarial = outcomeOf(
      caller.callTool(
        { name: 'redos_match_a', arguments: { text: `${'a'.repeat(40)}!` } },
        { timeout: 20_000 },
      ),
    );
    const echoes = await echoWhile(adversarial, other);
    const outcome = await adversarial;
    expect(outcome).toContain('INVALID_ARGUMENTS');
    expect(outcome).toContain('must match pattern');
    expect(echoes).toBeGreaterThanOrEqual(1);

    const valid = await caller.callTool({ name: 'redos_match_a', arguments: { text: 'aaaa' } });
    expect(JSON.stringify(valid.content)).toContain('length 4');
  });

  it('refuses an adversarial property name under a nested-quantifier patternProperties key', async () => {
    const caller = await client(era);
    const other = await client(era);
    const adversarial = outcomeOf(
      caller.callTool(
        { name: 'redos_keyed', arguments: { [`${'a'.repeat(40)}!`]: 'x' } },
        { timeout: 20_000 },
      ),
    );
    await echoWhile(adversarial, other);
    expect(await adversarial).toContain('INVALID_ARGUMENTS');
    const valid = await caller.callTool({ name: 'redos_keyed', arguments: { aaa: 'x', aaaa: 'y' } });
    expect(JSON.stringify(valid.content)).toContain('keys 2');
  });

  it('checks a result against a catastrophic outputSchema pattern promptly', async () => {
    const caller = await client(era);
    const other = await client(era);
    const report = outcomeOf(caller.callTool({ name: 'redos_report', arguments: {} }, { timeout: 20_000 }));
    await echoWhile(report, other);
    const outcome = await report;
    // The upstream's own result breaks its own output schema: refused, never relayed.
    expect(outcome).not.toContain('"structuredContent"');
    expect(outcome.toLowerCase()).toMatch(/output schema|outputschema|structured content/);
    // The upstream stays connected for everyone.
    const after = await caller.callTool({ name: 'redos_match_a', arguments: { text: 'a' } });
    expect(JSON.stringify(after.content)).toContain('length 1');
  });
});

describe('tools whose patterns cannot run in linear time', () => {
  it('are withheld with a readable reason, and calls to them answer as unknown', async () => {
    const caller = await client('legacy');
    const names = (await caller.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['redos_match_a', 'redos_keyed', 'redos_report']));
    expect(names).not.toContain('redos_backref');
    expect(names).not.toContain('redos_lookahead');

    const response = await fetch(`${base}/admin/api/tools`);
    const tools = ((await response.json()) as { tools: Record<string, unknown>[] }).tools;
    const backref = tools.find((t) => t.alias === 'redos_backref');
    expect(backref).toMatchObject({ exposed: false, withheldReason: 'input-schema-unusable' });
    expect(backref?.withheldDetail).toBe(
      'input schema uses a regular expression feature that cannot run in linear time: "^(\\w+) \\1$" (invalid escape sequence: `\\1`)',
    );
    expect(tools.find((t) => t.alias === 'redos_lookahead')?.withheldDetail).toContain('`(?=`');
    expect(tools.find((t) => t.alias === 'redos_match_a')).toMatchObject({
      exposed: true,
      withheldDetail: null,
    });

    const log = output.join('');
    expect(log).toMatch(/gateway\.tool_withheld.*redos_backref.*cannot run in linear time/);

    const refused = await outcomeOf(caller.callTool({ name: 'redos_backref', arguments: { words: 'a a' } }));
    expect(refused).toMatch(/rejected: .*redos_backref/);
  });

  it('an outputSchema RE2 cannot run fails only that call; the upstream stays up', async () => {
    const caller = await client('legacy');
    const outcome = await outcomeOf(caller.callTool({ name: 'redos_report_backref', arguments: {} }));
    expect(outcome).toContain('UPSTREAM_ERROR');
    expect(outcome).toContain('cannot run in linear time');
    const after = await caller.callTool({ name: 'redos_match_a', arguments: { text: 'aa' } });
    expect(JSON.stringify(after.content)).toContain('length 2');
  });
});
