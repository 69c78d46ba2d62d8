/**
 * Issue 20, part 1: a modern (2026-07-28) upstream's `input_required` reaches a modern client through the
 * gateway's own sealed relay. The upstream is the conformance fixture as a real stdio process speaking the
 * modern era; the clients are the real SDK v2 client, answering with a scripted elicitation handler (auto mode)
 * or building each retry itself (manual mode).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ProtocolError,
  StreamableHTTPClientTransport,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { connectClient, ROOT, startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

const KEYS = { KEY_ALICE: 'alice-key-0123456789abcdef', KEY_BOB: 'bob-key-0123456789abcdef00' };
const ELICIT = 'conf_test_input_required_result_elicitation';
const MULTI_ROUND = 'conf_test_input_required_result_multi_round';
const REQUEST_STATE = 'conf_test_input_required_result_request_state';
const APPROVED_ASK = 'conf_test_input_required_result_tampered_state';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${KEY_ALICE}', '${KEY_BOB}'] },
      upstreams: {
        conf: {
          transport: 'stdio',
          command: process.execPath,
          args: ['--import', 'tsx', path.join(ROOT, 'conformance/upstream-server.ts')],
          cwd: ROOT,
          protocol: 'modern',
          tools: {
            include: ['*'],
            // This tool asks the person for approval first, then the upstream asks its own question.
            overrides: { test_input_required_result_tampered_state: { hitl: 'REQUIRED' } },
          },
        },
      },
    },
    { env: KEYS },
  );
  expect(gateway.gateway.supervisor.snapshot('conf')?.era).toBe('modern');
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

/** A modern client in manual mode: the test sees each input_required and builds the retry itself. */
async function manualClient(apiKey: string): Promise<Client> {
  const client = new Client(
    { name: 'manual-modern', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gateway.url), {
      requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
    }),
  );
  return client;
}

interface InputRequired {
  resultType: 'input_required';
  inputRequests?: Record<string, { method: string; params: { message: string } }>;
  requestState: string;
}

const call = (client: Client, name: string, extra: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: {}, ...extra } as Parameters<Client['callTool']>[0], {
    allowInputRequired: true,
  }) as Promise<unknown>;

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('');

/** The JSON-RPC error a call ends with. */
async function protocolError(promise: Promise<unknown>): Promise<ProtocolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

/**
 * A modern client in auto mode whose scripted person answers each question with the next of `contents`, noting
 * the messages it was shown in `asked`.
 */
async function scriptedClient(
  contents: Record<string, string | boolean>[],
  asked: string[],
): Promise<Client> {
  return connectClient(gateway.url, {
    era: 'modern',
    apiKey: KEYS.KEY_ALICE,
    onElicit: (params) => {
      asked.push((params as { message: string }).message);
      return { action: 'accept', content: contents[Math.min(asked.length, contents.length) - 1] ?? {} };
    },
  });
}

describe('an upstream input_required relayed to a modern client', () => {
  it("one round: the upstream question reaches the scripted person, marked as the upstream's, and the call completes", async () => {
    const asked: string[] = [];
    const client = await scriptedClient([{ name: 'Alice' }], asked);
    const result = (await client.callTool({ name: ELICIT, arguments: {} })) as CallToolResult;
    expect(text(result)).toBe('Hello, Alice!');
    expect(asked).toEqual([
      'Upstream server "conf" asks (this is not a Portcullis approval): What is your name?',
    ]);
    await client.close();
  });

  it('two rounds: each upstream question is asked in turn and the upstream sees both answers', async () => {
    const asked: string[] = [];
    const client = await scriptedClient([{ name: 'Ada' }, { color: 'blue' }], asked);
    const result = (await client.callTool({ name: MULTI_ROUND, arguments: {} })) as CallToolResult;
    expect(text(result)).toBe('Multi-round complete for Ada who likes blue');
    expect(asked.map((m) => m.replace(/^.*: (Step \d)/, '$1'))).toEqual([
      'Step 1: What is your name?',
      'Step 2: What is your favorite color?',
    ]);
    await client.close();
  });

  it("keeps the upstream's keys, and its requestState only inside the gateway's sealed state", async () => {
    const client = await manualClient(KEYS.KEY_ALICE);
    const first = (await call(client, REQUEST_STATE)) as InputRequired;
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['confirm']);
    expect(first.requestState).toMatch(/^u\.v1\./);
    // The fixture's state is plain JSON naming its kind: it must not show, in clear or as base64.
    expect(first.requestState).not.toContain('request-state');
    expect(Buffer.from(first.requestState.slice(5), 'base64url').toString('latin1')).not.toContain(
      'request-state',
    );
    const done = (await call(client, REQUEST_STATE, {
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState,
    })) as CallToolResult;
    expect(text(done)).toBe('state-ok: requestState validated');
    await client.close();
  });

  it('refuses a tampered state and a replayed one with REQUEST_STATE_INVALID', async () => {
    const client = await manualClient(KEYS.KEY_ALICE);
    const first = (await call(client, REQUEST_STATE)) as InputRequired;
    const answer = { confirm: { action: 'accept', content: { ok: true } } };
    const last = first.requestState.at(-1) === 'A' ? 'B' : 'A';
    const tampered = await protocolError(
      call(client, REQUEST_STATE, {
        inputResponses: answer,
        requestState: first.requestState.slice(0, -1) + last,
      }),
    );
    expect(tampered.code).toBe(-32602);
    expect(tampered.data).toEqual({ code: 'REQUEST_STATE_INVALID' });
    // The untouched state still opens once, and only once.
    const done = (await call(client, REQUEST_STATE, {
      inputResponses: answer,
      requestState: first.requestState,
    })) as CallToolResult;
    expect(text(done)).toBe('state-ok: requestState validated');
    const replayed = await protocolError(
      call(client, REQUEST_STATE, { inputResponses: answer, requestState: first.requestState }),
    );
    expect(replayed.data).toEqual({ code: 'REQUEST_STATE_INVALID' });
    await client.close();
  });

  it("refuses another principal's state, which stays usable by its own principal", async () => {
    const alice = await manualClient(KEYS.KEY_ALICE);
    const bob = await manualClient(KEYS.KEY_BOB);
    const first = (await call(alice, ELICIT)) as InputRequired;
    expect(Object.keys(first.inputRequests ?? {})).toEqual(['user_name']);
    const answer = { user_name: { action: 'accept', content: { name: 'Mallory' } } };
    const stolen = await protocolError(
      call(bob, ELICIT, { inputResponses: answer, requestState: first.requestState }),
    );
    expect(stolen.data).toEqual({ code: 'REQUEST_STATE_INVALID' });
    const own = (await call(alice, ELICIT, {
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState: first.requestState,
    })) as CallToolResult;
    expect(text(own)).toBe('Hello, Alice!');
    await alice.close();
    await bob.close();
  });

  it('re-asks when the retry leaves the question unanswered, and forwards only the keys it asked', async () => {
    const client = await manualClient(KEYS.KEY_ALICE);
    const first = (await call(client, ELICIT)) as InputRequired;
    const again = (await call(client, ELICIT, {
      inputResponses: { wrong_key: { action: 'accept', content: { name: 'Eve' } } },
      requestState: first.requestState,
    })) as InputRequired;
    expect(again.resultType).toBe('input_required');
    expect(Object.keys(again.inputRequests ?? {})).toEqual(['user_name']);
    expect(again.requestState).not.toBe(first.requestState);
    await client.close();
  });

  it('asks for approval first, then relays the upstream question, and asks the person for approval once', async () => {
    const asked: string[] = [];
    const client = await scriptedClient([{ ok: true }], asked);
    const result = (await client.callTool({ name: APPROVED_ASK, arguments: {} })) as CallToolResult;
    expect(text(result)).toBe('integrity-ok: state verified');
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain(APPROVED_ASK);
    expect(asked[0]).not.toContain('this is not a Portcullis approval');
    expect(asked[1]).toBe('Upstream server "conf" asks (this is not a Portcullis approval): Please confirm');
    await client.close();
  });

  it('never relays a sampling request of an upstream not trusted with sampling', async () => {
    const sampled: unknown[] = [];
    const client = await connectClient(gateway.url, {
      era: 'modern',
      apiKey: KEYS.KEY_ALICE,
      onSample: (params) => {
        sampled.push(params);
        return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm' };
      },
    });
    const result = (await client.callTool({
      name: 'conf_test_input_required_result_sampling',
      arguments: {},
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result._meta?.['dev.portcullis/error']).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(sampled).toEqual([]);
    await client.close();
  });

  it('relays the input round of a prompt', async () => {
    const client = await scriptedClient([{ context: 'release notes' }], []);
    const prompt = await client.getPrompt({ name: 'conf_test_input_required_result_prompt' });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Prompt with context: release notes' } },
    ]);
    await client.close();
  });
});
