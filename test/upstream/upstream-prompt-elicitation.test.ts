/**
 * An upstream spoken to in the 2025 era asks its client (elicitation/create) during a prompts/get of a 2026-era
 * caller. The prompt is not a call the question can be routed to, so the gateway declines it upstream, even while
 * another caller's tool call is parked on that upstream, and the link stays up; a link that drops anyway comes
 * back with backoff. The upstream is the conformance fixture as a real stdio process in the legacy era; the
 * clients are the real SDK v2 client in the 2026 era.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type GetPromptResult,
} from '@modelcontextprotocol/client';
import {
  connectClient,
  ROOT,
  startGateway,
  waitFor,
  type RunningGateway,
  pidWith,
} from '../helpers/gateway-harness.ts';

const PROMPT = 'conf_test_input_required_result_prompt';
const ASKING_TOOL = 'conf_test_input_required_result_elicitation';
const SIMPLE_TOOL = 'conf_test_simple_text';

let gateway: RunningGateway;

/** A stdio upstream running `script` (from the repository root), spoken to in the 2025 era. */
const legacyStdio = (script: string, ...extra: string[]) => ({
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, script), ...extra],
  cwd: ROOT,
  protocol: 'legacy',
  tools: { include: ['*'] },
});

beforeAll(async () => {
  gateway = await startGateway({ upstreams: { conf: legacyStdio('conformance/upstream-server.ts') } });
  expect(gateway.gateway.supervisor.snapshot('conf')?.era).toBe('legacy');
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

/** The gateway's log events of one name. */
const events = (name: string) =>
  gateway.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.event === name);

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');
const promptText = (result: GetPromptResult) =>
  result.messages.map((m) => ('text' in m.content ? m.content.text : '')).join('');

/** A 2026-era client that builds each retry itself: an input round it gets back stays unanswered. */
async function manualClient(): Promise<Client> {
  const client = new Client(
    { name: 'manual-modern', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  return client;
}

/** The upstream is connected, lists its tools to a fresh client, and answers a call. */
async function expectServing(): Promise<void> {
  expect(gateway.gateway.supervisor.snapshot('conf')?.state).toBe('connected');
  const client = await connectClient(gateway.url, { era: 'modern' });
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([SIMPLE_TOOL, ASKING_TOOL]));
  const result = (await client.callTool({ name: SIMPLE_TOOL, arguments: {} })) as CallToolResult;
  expect(text(result)).toContain('This is a simple text response for testing.');
  await client.close();
}

/** A 2026-era client that can elicit: its scripted person accepts any question, noting it in `asked`. */
const askableClient = (asked: unknown[]) =>
  connectClient(gateway.url, {
    era: 'modern',
    onElicit: (params) => {
      asked.push(params);
      return { action: 'accept', content: { context: 'from the client' } };
    },
  });

describe('an upstream elicitation during a legacy-hop prompts/get', () => {
  it('is declined upstream and the link stays up, the prompt answering at once', async () => {
    const asked: unknown[] = [];
    const client = await askableClient(asked);
    const result = await client.getPrompt({ name: PROMPT });
    // The caller of a prompt is never asked on the legacy hop: the upstream hears a decline.
    expect(asked).toEqual([]);
    expect(promptText(result)).toBe('Input refused: decline');
    expect(events('upstream.elicitation_declined').at(-1)?.reason).toBe('caller-cannot-elicit');
    await client.close();
    expect(events('upstream.down')).toEqual([]);
    await expectServing();
  }, 60_000);

  it("is not routed to another caller's parked tool call, and the link stays up", async () => {
    // Another caller's tool call is parked on the upstream: its question went out as an input round that this
    // client never answers, so the upstream's call stays in flight.
    const parked = await manualClient();
    const round = (await parked.callTool(
      { name: ASKING_TOOL, arguments: {} },
      { allowInputRequired: true },
    )) as {
      resultType?: string;
    };
    expect(round.resultType).toBe('input_required');

    const asked: unknown[] = [];
    const client = await askableClient(asked);
    // Before the fix the prompt's question went to the parked call and the prompt never answered; the
    // client's timeout (a bound only) then cancelled it and the gateway closed the upstream link.
    const result = await client.getPrompt({ name: PROMPT }, { timeout: 20_000 });
    expect(asked).toEqual([]);
    expect(promptText(result)).toBe('Input refused: decline');
    expect(events('upstream.elicitation_declined').at(-1)?.reason).toBe('ambiguous-caller');
    expect(events('upstream.down')).toEqual([]);
    await expectServing();
    await client.close();
    await parked.close();
  }, 60_000);
});

describe('a prompt its client cancels on a legacy-hop upstream', () => {
  let slow: RunningGateway;
  const marker = `slow-prompt-${process.pid}-${Date.now()}`;
  const slowEvents = (name: string) =>
    slow.logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((e) => e.event === name);
  const promptStats = async (client: Client) =>
    JSON.parse(
      text((await client.callTool({ name: 'slow_prompt_stats', arguments: {} })) as CallToolResult),
    ) as { started: number; cancelled: number };

  beforeAll(async () => {
    slow = await startGateway({
      upstreams: { slow: legacyStdio('test/fixtures/slow-prompt-server.ts', marker) },
    });
  }, 120_000);

  afterAll(async () => {
    await slow?.close();
  });

  it('fails that prompt alone: the link stays up and the upstream sees the cancellation', async () => {
    const client = await connectClient(slow.url, { era: 'modern' });
    const controller = new AbortController();
    const held = client.getPrompt({ name: 'slow_hold' }, { signal: controller.signal }).then(
      () => 'answered',
      () => 'rejected',
    );
    await waitFor(
      async () => (await promptStats(client)).started === 1,
      30_000,
      'the prompt to start upstream',
    );
    controller.abort();
    expect(await held).toBe('rejected');
    await waitFor(async () => (await promptStats(client)).cancelled === 1, 30_000, 'the upstream to see it');
    // Before the fix the cancelled prompt counted as a dead link: upstream.down, a new child, lists emptied.
    expect(slowEvents('upstream.down')).toEqual([]);
    expect(slowEvents('upstream.connected')).toHaveLength(1);
    expect(slow.gateway.supervisor.snapshot('slow')?.state).toBe('connected');
    await client.close();
  }, 90_000);

  it('comes back with backoff after its child is killed, and serves its tools again', async () => {
    await waitFor(() => slow.gateway.supervisor.snapshot('slow')?.state === 'connected', 60_000, 'slow up');
    const before = slowEvents('upstream.connected').length;
    const pid = pidWith(marker);
    expect(pid).toBeDefined();
    process.kill(pid as number, 'SIGKILL');
    await waitFor(() => slowEvents('upstream.down').length > 0, 30_000, 'slow down');
    await waitFor(() => slowEvents('upstream.connected').length > before, 60_000, 'slow reconnected');
    expect(pidWith(marker)).not.toBe(pid);
    const client = await connectClient(slow.url, { era: 'modern' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('slow_prompt_stats');
    expect(await promptStats(client)).toEqual({ started: 0, cancelled: 0 });
    await client.close();
  }, 90_000);
});
