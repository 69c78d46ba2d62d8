/**
 * Issue 20 follow-up: every round of an upstream's relayed `input_required` is audited, a multi-round call is
 * counted once by rate limits, and the question a relayed round asks the client to show is response-scanned.
 * Real parts: the gateway on a real port with a SQLite store, the conformance fixture and the asking fixture as
 * modern stdio upstreams, the SDK v2 client (a scripted person, or manual mode building each retry), the audit
 * records read back through the audit repository, and `portcullis audit verify` as an operator runs it. Only the
 * clock is fixed (the rate limit's minute never runs out under load).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ProtocolError,
  StreamableHTTPClientTransport,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import type { AuditRecord } from '../../src/audit/index.ts';
import {
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';
import { runCli } from '../errors/run-cli.ts';
import { auditRecords, writeConfigFile } from '../helpers/serve-support.ts';

const ELICIT = 'conf_test_input_required_result_elicitation';
const MULTI_ROUND = 'conf_test_input_required_result_multi_round';
const ROOTS = 'conf_test_input_required_result_list_roots';
const SAMPLING = 'conf_test_input_required_result_sampling';
const INJECTED = 'ask_ask_injected';
const HONEST = 'ask_ask_honest';
const ROOTS_ANYWAY = 'ask_ask_roots';
const ASK_AGAIN = 'ask_ask_again';
const SAMPLING_INJECTED = 'ask_ask_sampling_injected';

const dir = tempDir('portcullis-relay-audit-');
const dbPath = path.join(dir, 'portcullis.db');
const stdio = (file: string) => ({
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, file)],
  cwd: ROOT,
  protocol: 'modern',
});
let gateway: RunningGateway | undefined;

beforeAll(async () => {
  const fixed = Date.now();
  gateway = await startGateway(
    {
      store: { path: dbPath },
      upstreams: {
        conf: { ...stdio('conformance/upstream-server.ts'), tools: { include: ['*'] } },
        ask: { ...stdio('test/fixtures/asking-server.ts'), sampling: true },
      },
      approval: {
        rules: [
          { id: 'multi-twice', match: { alias: MULTI_ROUND }, rateLimit: { calls: 2, per: '1m' } },
          { id: 'again-twice', match: { alias: ASK_AGAIN }, rateLimit: { calls: 2, per: '1m' } },
        ],
      },
      guards: { responseScan: { mode: 'enforce' } },
      // The sampling review refuses a request that looks like prompt injection.
      poisoning: 'block',
    },
    { deps: { now: () => fixed } },
  );
  expect(gateway.gateway.supervisor.snapshot('conf')?.era).toBe('modern');
  expect(gateway.gateway.supervisor.snapshot('ask')?.era).toBe('modern');
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

const running = (): RunningGateway => {
  if (!gateway) throw new Error('the gateway is closed');
  return gateway;
};

/** The audit rows of `alias`, oldest first, read back from the SQLite store. */
async function rows(alias: string): Promise<AuditRecord[]> {
  return (await auditRecords(running().gateway)).filter((r) => r.alias === alias);
}

const summary = (r: AuditRecord) => ({
  outcome: r.outcome,
  errorCode: r.errorCode,
  upstreamRequests: r.upstreamRequests,
});

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');
const codeOf = (result: CallToolResult) =>
  (result._meta?.['dev.portcullis/error'] as { code?: string } | undefined)?.code;

/** A modern client in auto mode whose scripted person accepts each question with `content`, noting it in `asked`. */
function scriptedClient(content: Record<string, string>, asked: string[]): Promise<Client> {
  return connectClient(running().url, {
    era: 'modern',
    onElicit: (params) => {
      asked.push((params as { message: string }).message);
      return { action: 'accept', content };
    },
  });
}

/** A modern client in manual mode (it builds each retry itself), declaring `capabilities`. */
async function manualClient(capabilities: Record<string, unknown>): Promise<Client> {
  const client = new Client(
    { name: 'manual-modern', version: '1.0.0' },
    {
      capabilities,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(running().url)));
  return client;
}

describe('relayed upstream rounds in the audit log', () => {
  it('writes one row per round of a two-round call, and counts the call once against a rate limit of 2', async () => {
    const client = await connectClient(running().url, {
      era: 'modern',
      onElicit: (params) => ({
        action: 'accept',
        content: (params as { message: string }).message.includes('name')
          ? { name: 'Ada' }
          : { color: 'blue' },
      }),
    });
    for (let i = 0; i < 2; i += 1) {
      const done = (await client.callTool({ name: MULTI_ROUND, arguments: {} })) as CallToolResult;
      expect(text(done)).toBe('Multi-round complete for Ada who likes blue');
    }
    const limited = (await client.callTool({ name: MULTI_ROUND, arguments: {} })) as CallToolResult;
    expect(codeOf(limited)).toBe('RATE_LIMITED');
    await client.close();
    const call = [
      { outcome: 'INPUT_REQUIRED', errorCode: undefined, upstreamRequests: undefined },
      {
        outcome: 'INPUT_REQUIRED',
        errorCode: undefined,
        upstreamRequests: [{ kind: 'elicitation', outcome: 'accept' }],
      },
      { outcome: 'OK', errorCode: undefined, upstreamRequests: [{ kind: 'elicitation', outcome: 'accept' }] },
    ];
    const written = await rows(MULTI_ROUND);
    expect(written.map(summary)).toEqual([
      ...call,
      ...call,
      { outcome: 'ERROR', errorCode: 'RATE_LIMITED', upstreamRequests: undefined },
    ]);
    expect(written.slice(0, 6).every((r) => r.approval.decision === 'allow')).toBe(true);
  });

  it('records a round the client abandons at once: the upstream ran', async () => {
    const client = await manualClient({ elicitation: { form: {} } });
    const first = (await client.callTool(
      { name: ELICIT, arguments: { left: 'behind' } },
      {
        allowInputRequired: true,
      },
    )) as unknown as { resultType: string };
    expect(first.resultType).toBe('input_required');
    await client.close();
    const written = (await rows(ELICIT)).filter((r) => (r.arguments as { left?: string }).left === 'behind');
    expect(written.map(summary)).toEqual([
      { outcome: 'INPUT_REQUIRED', errorCode: undefined, upstreamRequests: undefined },
    ]);
    expect(written[0]).toMatchObject({ origin: 'upstream', upstreamId: 'conf' });
  });

  it('records a round the client cannot answer (roots it did not declare) as UPSTREAM_ERROR', async () => {
    const client = await manualClient({ elicitation: { form: {} } });
    const refused = (await client.callTool(
      { name: ROOTS_ANYWAY, arguments: {} },
      { allowInputRequired: true },
    )) as CallToolResult;
    expect(codeOf(refused)).toBe('UPSTREAM_ERROR');
    expect(text(refused)).toContain('which this client did not declare');
    await client.close();
    expect((await rows(ROOTS_ANYWAY)).map(summary)).toEqual([
      { outcome: 'ERROR', errorCode: 'UPSTREAM_ERROR', upstreamRequests: undefined },
    ]);
  });

  it("notes the client's roots answer", async () => {
    const client = new Client(
      { name: 'roots-modern', version: '1.0.0' },
      { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(running().url)));
    const done = (await client.callTool({ name: ROOTS, arguments: {} })) as CallToolResult;
    expect(text(done)).toBe('Found 1 root(s)');
    await client.close();
    expect((await rows(ROOTS)).map(summary)).toEqual([
      { outcome: 'INPUT_REQUIRED', errorCode: undefined, upstreamRequests: undefined },
      { outcome: 'OK', errorCode: undefined, upstreamRequests: [{ kind: 'roots', outcome: 'answered' }] },
    ]);
  });

  it.each([
    ['the review refuses (prompt injection)', SAMPLING_INJECTED, 'Portcullis refused the sampling request'],
    ['of an upstream not trusted with sampling', SAMPLING, 'do not declare the required capability'],
  ])('records a sampling request %s as UPSTREAM_ERROR, never sampled', async (_why, tool, says) => {
    const sampled: unknown[] = [];
    const client = await connectClient(running().url, {
      era: 'modern',
      onSample: (params) => {
        sampled.push(params);
        return { role: 'assistant', content: { type: 'text', text: 'a summary' }, model: 'm' };
      },
    });
    const refused = (await client.callTool({ name: tool, arguments: {} })) as CallToolResult;
    expect(codeOf(refused)).toBe('UPSTREAM_ERROR');
    expect(text(refused)).toContain(says);
    expect(sampled).toEqual([]);
    await client.close();
    expect((await rows(tool)).map(summary)).toEqual([
      { outcome: 'ERROR', errorCode: 'UPSTREAM_ERROR', upstreamRequests: undefined },
    ]);
  });
});

describe('guards.responseScan on a relayed round (enforce)', () => {
  it('withholds an upstream question carrying injection: never shown, recorded with its finding', async () => {
    const asked: string[] = [];
    const client = await scriptedClient({ name: 'Ada' }, asked);
    const withheld = (await client.callTool({ name: INJECTED, arguments: {} })) as CallToolResult;
    expect(withheld.isError).toBe(true);
    expect(codeOf(withheld)).toBe('RESPONSE_WITHHELD');
    expect(text(withheld)).not.toContain('id_rsa');
    expect(asked).toEqual([]);
    await client.close();
    const [row, ...more] = await rows(INJECTED);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ outcome: 'ERROR', errorCode: 'RESPONSE_WITHHELD' });
    expect(row?.responseScan).toMatchObject({ mode: 'enforce', action: 'withheld' });
    expect(row?.responseScan?.findings.map((f) => f.field)).toContain('inputRequests/who/params/message');
  });

  it('relays an honest question, scanned clean', async () => {
    const asked: string[] = [];
    const client = await scriptedClient({ name: 'Ada' }, asked);
    const done = (await client.callTool({ name: HONEST, arguments: {} })) as CallToolResult;
    expect(text(done)).toBe('greeted');
    expect(asked).toEqual([
      'Upstream server "ask" asks (this is not a Portcullis approval): What is your name?',
    ]);
    await client.close();
    expect((await rows(HONEST)).map((r) => [r.outcome, r.responseScan])).toEqual([
      ['INPUT_REQUIRED', undefined],
      ['OK', undefined],
    ]);
  });

  it("withholds a prompt's relayed question carrying injection with RESPONSE_WITHHELD", async () => {
    const asked: string[] = [];
    const client = await scriptedClient({ name: 'Ada' }, asked);
    const error = await client.getPrompt({ name: 'ask_ask_injected_prompt' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).data).toMatchObject({
      code: 'RESPONSE_WITHHELD',
      reason: 'response-injection',
    });
    expect(asked).toEqual([]);
    await client.close();
    const [row, ...more] = await rows('ask_ask_injected_prompt');
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      origin: 'prompt',
      upstreamId: 'ask',
      outcome: 'ERROR',
      errorCode: 'RESPONSE_WITHHELD',
    });
    expect(row?.responseScan).toMatchObject({ mode: 'enforce', action: 'withheld' });
  });
});

describe('rate limits on a call kept going round after round', () => {
  it('counts a relayed call again after 16 uncounted rounds', async () => {
    const client = await manualClient({ elicitation: { form: {} } });
    type Round = CallToolResult & { resultType?: string; requestState?: string };
    const round = (requestState?: string) =>
      client.callTool(
        {
          name: ASK_AGAIN,
          arguments: {},
          ...(requestState === undefined ? {} : { requestState, inputResponses: {} }),
        } as Parameters<Client['callTool']>[0],
        { allowInputRequired: true },
      ) as Promise<Round>;
    // Counted once (1 of 2); each retry leaves the question unanswered, so the upstream asks again.
    let answer = await round();
    for (let retry = 1; retry <= 15; retry += 1) {
      expect(answer.resultType).toBe('input_required');
      answer = await round(answer.requestState);
    }
    // The 16th retry is counted (2 of 2), and so the 32nd would be; a new call is now limited.
    expect(answer.resultType).toBe('input_required');
    answer = await round(answer.requestState);
    expect(answer.resultType).toBe('input_required');
    const limited = await round();
    expect(codeOf(limited)).toBe('RATE_LIMITED');
    await client.close();
    const written = await rows(ASK_AGAIN);
    expect(written.map((r) => r.outcome)).toEqual([...Array<string>(17).fill('INPUT_REQUIRED'), 'ERROR']);
  });
});

describe('the console overview after relayed rounds', () => {
  it('counts a relayed call once, not once per round', async () => {
    const written = await auditRecords(running().gateway);
    // Tool calls only: admin actions and prompt reads (relayed prompt rounds included) are not calls.
    const toolCall = (r: (typeof written)[number]) => ['upstream', 'local', 'unresolved'].includes(r.origin);
    const finished = written.filter((r) => toolCall(r) && r.outcome !== 'INPUT_REQUIRED');
    expect(finished.length).toBeLessThan(written.length);
    const response = await fetch(running().url.replace(/\/mcp$/, '/admin/api/overview'));
    const overview = (await response.json()) as { calls: number; errors: number };
    expect(overview.calls).toBe(finished.length);
    expect(overview.errors).toBe(finished.filter((r) => r.outcome === 'ERROR').length);
  });
});

describe('the audit chain after relayed rounds', () => {
  it('still verifies with `portcullis audit verify`', async () => {
    const written = (await auditRecords(running().gateway)).length;
    await running().close();
    gateway = undefined;
    writeConfigFile(dir, { store: { path: 'portcullis.db' } });
    const result = await runCli(['audit', 'verify', '--config', path.join(dir, 'portcullis.yaml')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^audit chain ok: ${written} records, head ${written}:`));
  }, 60_000);
});
