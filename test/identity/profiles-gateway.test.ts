/**
 * Issue 18, "it must show" 2: two principals in two groups on two profiles, through a real gateway, a real
 * upstream (server-everything) and real SDK clients of both eras. Each lists and calls only its own profile's
 * tools (the other profile's tool is "unknown tool"), an approval rule on one group asks only that group, and
 * every audit row names its principal and profile. A principal outside a profile gets 403; an unknown profile 404.
 *
 * The principals are named API keys with groups; OAuth principals carry the same facts from their tokens
 * (test/identity/oauth-e2e.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/index.ts';
import type { Client, ElicitResult } from '@modelcontextprotocol/client';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';
import { auditRecords, resultText } from '../helpers/serve-support.ts';

const PEOPLE = [
  { key: 'alice-token', name: 'alice', groups: ['team-a'], scopes: ['mcp'] },
  { key: 'bob-token', name: 'bob', groups: ['team-b'], scopes: ['mcp'] },
  { key: 'carol-token', name: 'carol', groups: ['visitors'], scopes: [] },
];

let gateway: RunningGateway;
const clients: Client[] = [];
const asked: { who: string; message: string }[] = [];

beforeAll(async () => {
  gateway = await startGateway({
    auth: { apiKeys: PEOPLE },
    upstreams: { every: UPSTREAMS.everythingStdio },
    tools: { bundled: false },
    profiles: {
      alpha: {
        tools: { include: ['every_echo', 'every_get-*'], exclude: ['every_get-sum', 'every_get-env'] },
        prompts: { include: ['every_simple-prompt'] },
        resources: { include: ['nothing-at-all'] },
        principals: { groups: ['team-a'] },
      },
      beta: {
        tools: { include: ['every_get-sum'], upstreams: ['every'] },
        prompts: { exclude: ['*'] },
        principals: { groups: ['team-b'] },
      },
    },
    approval: { rules: [{ id: 'team-a-asks', match: { group: 'team-a' }, decision: 'ask' }] },
  });
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await gateway?.close();
});

const endpoint = (profile: string) => gateway.url.replace(/\/mcp$/, `/mcp/${profile}`);

async function client(who: 'alice' | 'bob', profile: string, era: 'legacy' | 'modern'): Promise<Client> {
  const onElicit = (params: unknown): ElicitResult => {
    asked.push({ who, message: (params as { message: string }).message });
    return { action: 'accept', content: {} };
  };
  const connected = await connectClient(endpoint(profile), { era, apiKey: `${who}-token`, onElicit });
  clients.push(connected);
  return connected;
}

/** The error a tools/call answers with, whether thrown as a protocol error or returned as a tool error. */
async function callError(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  try {
    const result = await c.callTool({ name, arguments: args });
    return result.isError ? resultText(result) : `no error: ${resultText(result)}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe.each(['legacy', 'modern'] as const)('two teams on two profiles (%s era)', (era) => {
  it('lists and calls only the tools of the caller’s profile; the other one’s tool is unknown', async () => {
    const alice = await client('alice', 'alpha', era);
    const bob = await client('bob', 'beta', era);
    expect(alice.getProtocolEra()).toBe(era);

    const aliceTools = (await alice.listTools()).tools.map((t) => t.name);
    expect(aliceTools).toContain('every_echo');
    expect(aliceTools).toContain('every_get-tiny-image');
    expect(aliceTools).not.toContain('every_get-sum');
    expect(aliceTools).not.toContain('every_get-env');
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual(['every_get-sum']);

    const before = asked.length;
    const echoed = await alice.callTool({ name: 'every_echo', arguments: { message: `hi ${era}` } });
    expect(resultText(echoed)).toContain(`hi ${era}`);
    expect(asked.slice(before)).toEqual([{ who: 'alice', message: expect.stringContaining('every_echo') }]);

    const sum = await bob.callTool({ name: 'every_get-sum', arguments: { a: 2, b: 3 } });
    expect(sum.isError).toBeFalsy();
    expect(resultText(sum)).toContain('5');
    // The rule names team-a: Bob's call ran without anyone being asked.
    expect(asked.slice(before).map((a) => a.who)).toEqual(['alice']);

    expect(await callError(alice, 'every_get-sum', { a: 1, b: 1 })).toContain('Unknown tool: every_get-sum');
    expect(await callError(bob, 'every_echo', { message: 'x' })).toContain('Unknown tool: every_echo');
    // A tool of no profile at all reads exactly the same.
    expect(await callError(bob, 'every_no-such-tool', {})).toContain('Unknown tool: every_no-such-tool');
  });

  it('filters prompts and resources by profile on list and on use', async () => {
    const alice = await client('alice', 'alpha', era);
    const bob = await client('bob', 'beta', era);
    expect((await alice.listPrompts()).prompts.map((p) => p.name)).toEqual(['every_simple-prompt']);
    expect((await bob.listPrompts()).prompts).toEqual([]);
    await expect(bob.getPrompt({ name: 'every_simple-prompt' })).rejects.toThrow(/Unknown prompt/);
    expect((await alice.getPrompt({ name: 'every_simple-prompt' })).messages.length).toBeGreaterThan(0);

    expect((await alice.listResources()).resources).toEqual([]);
    const shown = (await bob.listResources()).resources;
    expect(shown.length).toBeGreaterThan(0);
    const uri = shown[0]?.uri ?? '';
    await expect(alice.readResource({ uri })).rejects.toThrow(/Unknown resource/);
    expect((await bob.readResource({ uri })).contents.length).toBeGreaterThan(0);
  });
});

describe('the door of a profile', () => {
  const post = (path: string, token: string) =>
    fetch(endpoint(path), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('answers 403 PROFILE_FORBIDDEN to a principal outside the profile', async () => {
    for (const [profile, token] of [
      ['alpha', 'bob-token'],
      ['beta', 'alice-token'],
      ['alpha', 'carol-token'],
    ] as const) {
      const response = await post(profile, token);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({
        error: { code: -32600, data: { code: 'PROFILE_FORBIDDEN' } },
      });
    }
  });

  it('answers 404 PROFILE_NOT_FOUND to an unknown profile, after authentication', async () => {
    const response = await post('gamma', 'alice-token');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, data: { code: 'PROFILE_NOT_FOUND' } },
    });
    expect((await post('gamma', 'nobody')).status).toBe(401);
  });

  it('serves everything on /mcp to everyone while no default profile is configured', async () => {
    const carol = await connectClient(gateway.url, { era: 'modern', apiKey: 'carol-token' });
    clients.push(carol);
    const names = (await carol.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['every_echo', 'every_get-sum', 'every_get-env']));
  });
});

describe('the audit log of two teams', () => {
  it('names the principal and the profile of every call', async () => {
    const rows = (await auditRecords(gateway.gateway)).filter((r) => r.origin !== 'admin');
    const seen = new Set(rows.map((r) => `${r.principal} ${r.profile} ${r.alias} ${r.outcome}`));
    expect(seen).toEqual(
      new Set([
        'key:alice alpha every_echo OK',
        'key:bob beta every_get-sum OK',
        'key:alice alpha every_get-sum ERROR',
        'key:bob beta every_echo ERROR',
        'key:bob beta every_no-such-tool ERROR',
        // Prompt and resource reads have rows too: one outside the caller's profile is refused as unknown.
        'key:alice alpha every_simple-prompt OK',
        'key:bob beta every_simple-prompt ERROR',
        'key:bob beta demo://resource/static/document/architecture.md OK',
        'key:alice alpha demo://resource/static/document/architecture.md ERROR',
      ]),
    );
    // Both eras wrote their own rows: two of each.
    expect(rows).toHaveLength(18);
    const refused = rows.flatMap((r) =>
      (r.origin === 'prompt' || r.origin === 'resource') && r.outcome === 'ERROR'
        ? [`${r.origin} ${r.upstreamId} ${r.errorCode} ${r.approval.decision}`]
        : [],
    );
    expect(new Set(refused)).toEqual(
      new Set(['prompt null UNKNOWN_PROMPT deny', 'resource null UNKNOWN_RESOURCE deny']),
    );
    const echo = rows.find((r) => r.alias === 'every_echo' && r.outcome === 'OK');
    expect(echo?.approval).toMatchObject({ decision: 'ask', ruleId: 'team-a-asks', elicitation: 'accept' });
    const sum = rows.find((r) => r.alias === 'every_get-sum' && r.outcome === 'OK');
    expect(sum?.approval.decision).toBe('allow');
  });

  it('filters the audit by profile in the admin API', async () => {
    const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/audit?profile=beta&limit=100'), {
      headers: { authorization: 'Bearer alice-token' },
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { entries: AuditEntry[] };
    // Bob's three tool calls and two reads, in both eras.
    expect(page.entries).toHaveLength(10);
    expect(new Set(page.entries.map((e) => `${e.record.principal} ${e.record.profile}`))).toEqual(
      new Set(['key:bob beta']),
    );
  });
});
