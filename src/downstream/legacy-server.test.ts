/**
 * The gateway's own 2025-era server, driven message by message over the SDK's in-memory pair: the params checks
 * and stable JSON-RPC errors of its dispatcher (a table), version negotiation, the session's log level,
 * cancellation, and what the session's close does to a question still waiting for the client. The pipeline is a
 * peer that does what each case needs; the client side is raw JSON-RPC so every byte of an answer can be read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CallPipeline } from '../calls/pipeline.ts';
import { MAX_REQUESTS_IN_FLIGHT } from './call-context.ts';
import { legacyServerEnd, recordingEnd, stubCore } from './test/stub-core.ts';

interface Wire {
  send(message: Record<string, unknown>): Promise<void>;
  /** Resolves with the next message the server sends that matches `pick`. */
  next(pick: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  received: Record<string, unknown>[];
  close(): Promise<void>;
}

const open: Wire[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((wire) => wire.close()));
});

async function wire(call: CallPipeline['call'] = async () => ({ content: [] })): Promise<Wire> {
  const core = stubCore(call, {
    mask: (text: string) => text.split('s3cret').join('***'),
    elicitationTimeoutMs: 60_000,
  });
  const { clientEnd, close } = await legacyServerEnd(core);
  const w: Wire = { ...(await recordingEnd(clientEnd)), close };
  open.push(w);
  return w;
}

const answerTo = (id: unknown) => (m: Record<string, unknown>) =>
  m.id === id && ('result' in m || 'error' in m);

async function request(w: Wire, id: number, method: string, params?: unknown) {
  await w.send({ id, method, ...(params === undefined ? {} : { params }) });
  return w.next(answerTo(id));
}

const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };

describe('the dispatcher of the 2025-era server', () => {
  it.each([
    ['an unknown method', 'tools/destroy', {}, -32601, 'Method not found'],
    ['a 2026-era method', 'server/discover', {}, -32601, 'Method not found'],
    ['a prototype key as method', 'constructor', {}, -32601, 'Method not found'],
    ['params that are an array', 'tools/list', [], -32602, 'params must be an object'],
    ['params that are a string', 'ping', 'x', -32602, 'params must be an object'],
    ['a call without a name', 'tools/call', { arguments: {} }, -32602, 'name must be a string'],
    [
      'a call with array arguments',
      'tools/call',
      { name: 't', arguments: [] },
      -32602,
      'arguments must be an object',
    ],
    ['a cursor that is a number', 'tools/list', { cursor: 1 }, -32602, 'cursor must be a string'],
    [
      'a prompt argument that is a number',
      'prompts/get',
      { name: 'p', arguments: { a: 1 } },
      -32602,
      'arguments.a must be a string',
    ],
    [
      'a prompt argument with a long name, named by its first 64 characters',
      'prompts/get',
      { name: 'p', arguments: { ['k'.repeat(10_000)]: 1 } },
      -32602,
      `arguments.${'k'.repeat(64)} must be a string`,
    ],
    ['a resource uri that is missing', 'resources/read', {}, -32602, 'uri must be a string'],
    [
      'a subscription uri that is an object',
      'resources/subscribe',
      { uri: {} },
      -32602,
      'uri must be a string',
    ],
    [
      'a completion ref of another type',
      'completion/complete',
      { ref: { type: 'ref/tool' }, argument: { name: 'a', value: 'b' } },
      -32602,
      'ref.type must be',
    ],
    [
      'a completion without its argument value',
      'completion/complete',
      { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a' } },
      -32602,
      'argument.value must be a string',
    ],
    [
      'a completion context argument that is a list',
      'completion/complete',
      {
        ref: { type: 'ref/resource', uri: 'u' },
        argument: { name: 'a', value: 'b' },
        context: { arguments: { x: [] } },
      },
      -32602,
      'context.arguments.x must be a string',
    ],
    ['a log level that is not one', 'logging/setLevel', { level: 'loud' }, -32602, 'level must be one of'],
    [
      'a progress token that is an object',
      'tools/list',
      { _meta: { progressToken: {} } },
      -32602,
      'progressToken must be a string or an integer',
    ],
    ['_meta that is a string', 'ping', { _meta: 'x' }, -32602, '_meta must be an object'],
    [
      'initialize without clientInfo',
      'initialize',
      { protocolVersion: '2025-06-18', capabilities: {} },
      -32602,
      'clientInfo must be an object',
    ],
    [
      'initialize with a capability that is no object',
      'initialize',
      {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: true },
        clientInfo: { name: 'a', version: '1' },
      },
      -32602,
      'capabilities.elicitation must be an object',
    ],
    [
      'initialize without a version',
      'initialize',
      { capabilities: {}, clientInfo: { name: 'a', version: '1' } },
      -32602,
      'protocolVersion must be a string',
    ],
  ])('answers %s (%s) with the error it names', async (_case, method, params, code, text) => {
    const w = await wire();
    const answer = await request(w, 1, method, params);
    expect(answer).toMatchObject({ id: 1, error: { code } });
    expect((answer.error as { message: string }).message).toContain(text);
  });

  it.each([
    ['2025-06-18', '2025-06-18'],
    ['2025-11-25', '2025-11-25'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2024-11-05'],
    ['2024-10-07', '2024-10-07'],
    ['', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
    ['1999-01-01', '2025-11-25'],
  ])('answers initialize for %s with %s and the capabilities of the session', async (asked, answered) => {
    const w = await wire();
    const answer = await request(w, 1, 'initialize', { ...INIT, protocolVersion: asked });
    expect(answer.result).toEqual({
      protocolVersion: answered,
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        completions: {},
        logging: {},
      },
      serverInfo: { name: 'portcullis', version: expect.any(String) },
    });
  });

  it('refuses a second request under an id still in flight, and answers the first', async () => {
    let release!: () => void;
    const w = await wire(async () => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { content: [{ type: 'text', text: 'first' }] };
    });
    await w.send({ id: 7, method: 'tools/call', params: { name: 't' } });
    await expect(request(w, 7, 'ping')).resolves.toMatchObject({ id: 7, error: { code: -32600 } });
    release();
    await expect(w.next((m) => m.id === 7 && 'result' in m)).resolves.toMatchObject({
      result: { content: [{ text: 'first' }] },
    });
  });

  it('refuses a request over the in-flight limit with TOO_MANY_REQUESTS, and takes one again once a call ends', async () => {
    const releases: (() => void)[] = [];
    const w = await wire(async () => {
      await new Promise<void>((resolve) => releases.push(resolve));
      return { content: [] };
    });
    for (let id = 1; id <= MAX_REQUESTS_IN_FLIGHT; id += 1)
      await w.send({ id, method: 'tools/call', params: { name: 't' } });
    const over = await request(w, 0, 'tools/call', { name: 't' });
    expect(over).toMatchObject({ id: 0, error: { code: -32603, data: { code: 'TOO_MANY_REQUESTS' } } });
    expect((over.error as { message: string }).message).toContain(`${MAX_REQUESTS_IN_FLIGHT} requests`);
    releases.shift()?.();
    await w.next(answerTo(1));
    await expect(request(w, -1, 'ping')).resolves.toMatchObject({ id: -1, result: {} });
    for (const release of releases.splice(0)) release();
  });

  it('masks a secret in the message of an error it answers', async () => {
    const w = await wire();
    const answer = await request(w, 1, 'prompts/get', { name: 'the-s3cret-prompt' });
    expect(answer).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(answer)).not.toContain('s3cret');
  });
});

describe('a tools/call on the 2025-era server', () => {
  it('relays only the log messages at or above the level the session set', async () => {
    const w = await wire(async (_alias, _args, caller) => {
      for (const level of ['debug', 'info', 'warning', 'error']) caller.log?.({ level, data: level });
      return { content: [] };
    });
    await request(w, 1, 'logging/setLevel', { level: 'warning' });
    await request(w, 2, 'tools/call', { name: 't' });
    const logged = w.received.filter((m) => m.method === 'notifications/message').map((m) => m.params);
    expect(logged).toEqual([
      { level: 'warning', data: 'warning' },
      { level: 'error', data: 'error' },
    ]);
  });

  it('aborts the call on notifications/cancelled and sends no answer', async () => {
    let aborted!: (reason: unknown) => void;
    const reason = new Promise<unknown>((resolve) => {
      aborted = resolve;
    });
    const w = await wire(async (_alias, _args, caller) => {
      caller.signal.addEventListener('abort', () => aborted(caller.signal.reason));
      await new Promise<void>((resolve) => caller.signal.addEventListener('abort', () => resolve()));
      return { content: [{ type: 'text', text: 'late' }] };
    });
    await w.send({ id: 3, method: 'tools/call', params: { name: 't' } });
    await w.send({ method: 'notifications/cancelled', params: { requestId: 3, reason: 'user stopped it' } });
    expect(await reason).toBe('user stopped it');
    // The next request is answered; the cancelled one never is.
    await request(w, 4, 'ping');
    expect(w.received.filter((m) => m.id === 3)).toEqual([]);
  });

  it('relays the progress of a call under the token the client chose', async () => {
    const w = await wire(async (_alias, _args, caller) => {
      caller.progress?.({ progress: 1, total: 2, message: 'half' });
      return { content: [] };
    });
    await request(w, 5, 'tools/call', { name: 't', _meta: { progressToken: 'tok' } });
    expect(w.received.find((m) => m.method === 'notifications/progress')?.params).toEqual({
      progressToken: 'tok',
      progress: 1,
      total: 2,
      message: 'half',
    });
  });

  it('fails a question still waiting for the client when the session closes', async () => {
    let outcome!: (value: unknown) => void;
    const ended = new Promise<unknown>((resolve) => {
      outcome = resolve;
    });
    const w = await wire(async (_alias, _args, caller) => {
      outcome(await caller.askApproval?.('Allow it?'));
      return { content: [] };
    });
    await request(w, 1, 'initialize', { ...INIT, capabilities: { elicitation: {} } });
    await w.send({ id: 2, method: 'tools/call', params: { name: 't' } });
    const asked = await w.next((m) => m.method === 'elicitation/create');
    // The question goes out under an id of the gateway's own, with the pre-mode `{}` read as form support.
    expect(asked).toMatchObject({ id: 0, params: { mode: 'form', message: 'Allow it?' } });
    await w.close();
    expect(await ended).toBe('disconnect');
  });

  it('routes the client answer of a question back to the call that asked', async () => {
    const w = await wire(async (_alias, _args, caller) => ({
      content: [{ type: 'text', text: String(await caller.askApproval?.('Allow it?')) }],
    }));
    await request(w, 1, 'initialize', { ...INIT, capabilities: { elicitation: { form: {} } } });
    await w.send({ id: 2, method: 'tools/call', params: { name: 't' } });
    const asked = await w.next((m) => m.method === 'elicitation/create');
    // An answer to an id nobody asked under is dropped.
    await w.send({ id: 99, result: { action: 'decline' } });
    await w.send({ id: asked.id, result: { action: 'accept', content: {} } });
    await expect(w.next(answerTo(2))).resolves.toMatchObject({ result: { content: [{ text: 'accept' }] } });
  });
});
