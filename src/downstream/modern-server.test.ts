/**
 * The gateway's own 2026-era server, request by request: the validation ladder and params checks of its dispatcher
 * with their stable errors and HTTP statuses (a table), the result stamps the revision requires, the envelope's log
 * level, masking, abort, and the input round's capability check. The pipeline is a peer that does what each case
 * needs; each answer is read as the raw JSON-RPC message the door would send.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SERVER_INFO_META_KEY,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { CallPipeline } from '../calls/pipeline.ts';
import { compileProfiles } from '../exposure/index.ts';
import { checkInputRound, createModernServer, projectModernToolResult } from './modern-server.ts';
import { createParkedCalls } from './parked-calls.ts';
import { stubCore } from './test/stub-core.ts';

const ENVELOPE = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  [CLIENT_CAPABILITIES_META_KEY]: {},
  [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' },
};
const IDENTITY = {
  principal: { id: 'alice', source: 'api-key' as const, groups: [], scopes: [] },
  profile: compileProfiles({}).default,
  era: 'modern' as const,
};

interface Served {
  answer: Promise<{ message: Record<string, unknown>; status: number }>;
  notes: Record<string, unknown>[];
  controller: AbortController;
}

function serve(
  method: string,
  params: unknown,
  call: CallPipeline['call'] = async () => ({ content: [] }),
): Served {
  const core = stubCore(call, {
    mask: (text: string) => text.split('s3cret').join('***'),
    parked: createParkedCalls({ ttlMs: 60_000, maxParked: 4 }),
  });
  const server = createModernServer(core);
  const notes: Record<string, unknown>[] = [];
  const controller = new AbortController();
  const answer = new Promise<{ message: Record<string, unknown>; status: number }>((resolve) => {
    server.serve(
      { id: 1, method, ...(params === undefined ? {} : { params }) },
      IDENTITY,
      controller.signal,
      {
        notify: (message: JSONRPCMessage) => {
          notes.push(message as unknown as Record<string, unknown>);
          return Promise.resolve();
        },
        answer: (message, status) =>
          resolve({ message: message as unknown as Record<string, unknown>, status }),
      },
    );
  });
  return { answer, notes, controller };
}

const withEnvelope = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  ...params,
  _meta: { ...ENVELOPE, ...meta },
});

describe('the dispatcher of the 2026-era server', () => {
  it.each([
    ['an unknown method', 'tools/destroy', withEnvelope(), -32601, 404, 'Method not found'],
    ['a 2025-era method', 'initialize', withEnvelope(), -32601, 404, 'Method not found'],
    ['ping, which the 2026 revision removed', 'ping', withEnvelope(), -32601, 404, 'Method not found'],
    ['a 2025-era subscription', 'resources/subscribe', withEnvelope({ uri: 'u' }), -32601, 404, 'Method'],
    [
      'logging/setLevel, which the envelope replaced',
      'logging/setLevel',
      withEnvelope(),
      -32601,
      404,
      'Method',
    ],
    ['a prototype key as method', 'constructor', withEnvelope(), -32601, 404, 'Method not found'],
    ['listen, which the doors hold', 'subscriptions/listen', withEnvelope(), -32601, 404, 'Method not found'],
    ['params that are an array', 'tools/list', [], -32602, 200, 'params must be an object'],
    ['no envelope at all', 'tools/list', {}, -32602, 200, 'missing the required _meta envelope'],
    ['_meta without a reserved key', 'tools/list', { _meta: { progressToken: 1 } }, -32602, 200, 'missing'],
    [
      'an envelope without capabilities',
      'tools/list',
      { _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' } },
      -32602,
      200,
      `${CLIENT_CAPABILITIES_META_KEY}: missing`,
    ],
    [
      'a version that is no string',
      'tools/list',
      withEnvelope({}, { [PROTOCOL_VERSION_META_KEY]: 7 }),
      -32602,
      200,
      `${PROTOCOL_VERSION_META_KEY}: expected a string`,
    ],
    [
      'a capability that is no object',
      'tools/list',
      withEnvelope({}, { [CLIENT_CAPABILITIES_META_KEY]: { sampling: true } }),
      -32602,
      200,
      `${CLIENT_CAPABILITIES_META_KEY}.sampling: expected an object`,
    ],
    [
      'client info without a version',
      'tools/list',
      withEnvelope({}, { [CLIENT_INFO_META_KEY]: { name: 'x' } }),
      -32602,
      200,
      `${CLIENT_INFO_META_KEY}.version: expected a string`,
    ],
    [
      'a log level that is no level',
      'tools/list',
      withEnvelope({}, { [LOG_LEVEL_META_KEY]: 'loud' }),
      -32602,
      200,
      `${LOG_LEVEL_META_KEY}: expected a logging level`,
    ],
    [
      'a progress token that is an object',
      'tools/list',
      withEnvelope({}, { progressToken: {} }),
      -32602,
      200,
      'progressToken: expected a string or an integer',
    ],
    [
      'a call without a name',
      'tools/call',
      withEnvelope({ arguments: {} }),
      -32602,
      200,
      'name must be a string',
    ],
    [
      'a call with array arguments',
      'tools/call',
      withEnvelope({ name: 't', arguments: [] }),
      -32602,
      200,
      'arguments must be an object',
    ],
    ['a cursor that is a number', 'prompts/list', withEnvelope({ cursor: 1 }), -32602, 200, 'cursor must be'],
    ['a resource uri that is missing', 'resources/read', withEnvelope(), -32602, 200, 'uri must be a string'],
    [
      'a completion ref of another type',
      'completion/complete',
      withEnvelope({ ref: { type: 'ref/tool' }, argument: { name: 'a', value: 'b' } }),
      -32602,
      200,
      'ref.type must be',
    ],
    [
      'a requestState that is no string',
      'tools/call',
      withEnvelope({ name: 't', requestState: 5 }),
      -32602,
      200,
      'Invalid or expired requestState',
    ],
    ['an unknown prompt', 'prompts/get', withEnvelope({ name: 'nope' }), -32602, 200, 'Unknown prompt: nope'],
    [
      'an unknown resource',
      'resources/read',
      withEnvelope({ uri: 'x://y' }),
      -32602,
      200,
      'Unknown resource',
    ],
  ])(
    'answers %s (%s) with the error and status it names',
    async (_case, method, params, code, status, text) => {
      const { answer } = serve(method, params);
      const { message, status: got } = await answer;
      expect(message).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code } });
      expect((message.error as { message: string }).message).toContain(text);
      expect(got).toBe(status);
    },
  );

  it.each([
    ['tools/list', withEnvelope(), { tools: [], ttlMs: 0, cacheScope: 'private' }],
    ['prompts/list', withEnvelope(), { prompts: [], ttlMs: 0, cacheScope: 'private' }],
    ['resources/list', withEnvelope(), { resources: [], ttlMs: 0, cacheScope: 'private' }],
    ['resources/templates/list', withEnvelope(), { resourceTemplates: [], ttlMs: 0, cacheScope: 'private' }],
    [
      'server/discover',
      withEnvelope(),
      {
        supportedVersions: ['2026-07-28'],
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { listChanged: true },
          completions: {},
          logging: {},
        },
        ttlMs: 0,
        cacheScope: 'private',
      },
    ],
    ['tools/call', withEnvelope({ name: 't' }), { content: [] }],
  ])('stamps the %s result as the revision requires', async (method, params, fields) => {
    const { message, status } = await serve(method, params).answer;
    expect(status).toBe(200);
    expect(message.result).toEqual({
      ...fields,
      resultType: 'complete',
      _meta: { [SERVER_INFO_META_KEY]: { name: 'portcullis', version: expect.any(String) } },
    });
  });

  it('sends log messages only at or above the level the envelope names, and none without one', async () => {
    const levels = ['debug', 'info', 'warning', 'error'] as const;
    const logging: CallPipeline['call'] = async (_alias, _args, caller) => {
      for (const level of levels) caller.log?.({ level, data: level });
      return { content: [] };
    };
    const named = serve(
      'tools/call',
      withEnvelope({ name: 't' }, { [LOG_LEVEL_META_KEY]: 'warning' }),
      logging,
    );
    await named.answer;
    expect(named.notes.map((n) => (n.params as { level: string }).level)).toEqual(['warning', 'error']);
    const unnamed = serve('tools/call', withEnvelope({ name: 't' }), logging);
    await unnamed.answer;
    expect(unnamed.notes).toEqual([]);
  });

  it('relays progress under the request token', async () => {
    const served = serve(
      'tools/call',
      withEnvelope({ name: 't' }, { progressToken: 'p' }),
      async (_a, _b, caller) => {
        caller.progress?.({ progress: 1, total: 2 });
        return { content: [] };
      },
    );
    await served.answer;
    expect(served.notes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, total: 2 },
      },
    ]);
  });

  it('masks the text of an error on its way out', async () => {
    const { message } = await serve('tools/call', withEnvelope({ name: 't' }), async () => {
      throw new ProtocolError(-32602, 'bad token s3cret');
    }).answer;
    expect(message.error).toEqual({ code: -32602, message: 'bad token ***' });
  });

  it('answers a tools/call error that is no protocol error as the INTERNAL tool error, without its text', async () => {
    const thrown = serve('tools/call', withEnvelope({ name: 't' }), () => {
      throw new TypeError('internal detail');
    });
    const answered = (await thrown.answer).message;
    expect(JSON.stringify(answered)).not.toContain('internal detail');
    expect(answered.result).toMatchObject({
      isError: true,
      _meta: { 'dev.portcullis/error': { code: 'INTERNAL' } },
    });
  });

  it('does not answer a request whose client stopped waiting', async () => {
    let release!: () => void;
    const served = serve('tools/call', withEnvelope({ name: 't' }), async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { content: [] };
    });
    const settled = settledBy(served.answer);
    served.controller.abort();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled()).toBe(false);
  });
});

/** Whether `promise` has settled by the time the returned function is called. */
function settledBy(promise: Promise<unknown>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

describe('the input round check', () => {
  const elicit = { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: {} } };
  const sample = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } };
  const sampleTools = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1, tools: [] } };
  const roots = { method: 'roots/list' };
  const url = { method: 'elicitation/create', params: { mode: 'url', url: 'https://x', message: 'm' } };
  it.each([
    ['a form question to a client that elicits', { a: elicit }, { elicitation: {} }, undefined],
    ['a form question to a client that names form', { a: elicit }, { elicitation: { form: {} } }, undefined],
    ['a form question to a client that names url only', { a: elicit }, { elicitation: { url: {} } }, -32021],
    ['a url question to a client that elicits forms', { a: url }, { elicitation: {} }, -32021],
    ['a form question to a client that cannot elicit', { a: elicit }, {}, -32021],
    ['a sampling request to a client that samples', { a: sample }, { sampling: {} }, undefined],
    ['a tool sampling request to a plain sampler', { a: sampleTools }, { sampling: {} }, -32021],
    ['roots to a client without roots', { a: roots }, { sampling: {} }, -32021],
    ['a request the revision does not define', { a: { method: 'ping' } }, {}, -32603],
    ['an entry that is no request', { a: 5 }, {}, -32603],
  ])('%s', (_case, inputRequests, capabilities, code) => {
    const envelope = { protocolVersion: '2026-07-28', clientCapabilities: capabilities, logLevel: undefined };
    const run = () =>
      checkInputRound('tools/call', { resultType: 'input_required', inputRequests }, envelope);
    if (code === undefined) expect(run).not.toThrow();
    else expect(run).toThrow(expect.objectContaining({ code }));
  });

  it('refuses a round that asks nothing and carries no state, and lets a state-only one pass', () => {
    const envelope = { protocolVersion: '2026-07-28', clientCapabilities: {}, logLevel: undefined };
    expect(() => checkInputRound('tools/call', { resultType: 'input_required' }, envelope)).toThrow(
      expect.objectContaining({ code: -32603 }),
    );
    expect(() =>
      checkInputRound('tools/call', { resultType: 'input_required', requestState: 's' }, envelope),
    ).not.toThrow();
  });
});

describe('the 2026 projection of a tool result', () => {
  it.each([
    ['a result without content', { isError: false }, { isError: false, content: [] }],
    [
      'array structured content',
      { content: [], structuredContent: [1] },
      { content: [{ type: 'text', text: '[1]' }], structuredContent: [1] },
    ],
    [
      'array structured content beside a text block',
      { content: [{ type: 'text', text: 'x' }], structuredContent: [1] },
      { content: [{ type: 'text', text: 'x' }], structuredContent: [1] },
    ],
    [
      'object structured content',
      { content: [], structuredContent: { a: 1 } },
      { content: [], structuredContent: { a: 1 } },
    ],
  ])('%s', (_case, result, projected) => {
    expect(projectModernToolResult(result as never)).toEqual(projected);
  });
});
