/**
 * A 2026-era stdio connection served by the gateway's own 2026-era server, driven message by message over the SDK's
 * in-memory pair: how it is pinned (or refuses its opening), what it refuses once pinned, cancellation of a running
 * request, and its listen subscriptions (acknowledgement, filtered and stamped changes, cancel, the complete result
 * at close). The pipeline is a peer that does what each case needs.
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallPipeline } from '../calls/pipeline.ts';
import { compileProfiles } from '../exposure/index.ts';
import { MAX_REQUESTS_IN_FLIGHT } from './call-context.ts';
import { connectModern, type ModernConnection } from './modern-connection.ts';
import { createModernServer } from './modern-server.ts';
import { createParkedCalls } from './parked-calls.ts';
import { recordingEnd, stubCore, type RecordingEnd } from './test/stub-core.ts';

const V = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SUB = 'io.modelcontextprotocol/subscriptionId';

type Message = Record<string, unknown>;

interface Connection extends RecordingEnd {
  connection: ModernConnection;
}

const open: ModernConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

async function connect(call: CallPipeline['call'] = async () => ({ content: [] })): Promise<Connection> {
  const core = stubCore(call, { parked: createParkedCalls({ ttlMs: 60_000, maxParked: 4 }) });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const connection = connectModern(serverEnd, createModernServer(core), {
    principal: { id: 'stdio', source: 'anonymous', groups: [], scopes: [] },
    profile: compileProfiles({}).default,
    era: 'modern',
  });
  open.push(connection);
  await serverEnd.start();
  return { ...(await recordingEnd(clientEnd)), connection };
}

const answerTo = (id: unknown) => (m: Message) => m.id === id && ('result' in m || 'error' in m);
const modern = (params: Message = {}) => ({ ...params, _meta: { ...ENVELOPE } });

describe('the opening of a 2026-era connection', () => {
  it.each([
    ['a request without a claim', 'tools/list', {}, -32022, 'did not name a protocol version'],
    [
      'a 2025-era initialize',
      'initialize',
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      -32022,
      '2025-06-18',
    ],
    [
      'an envelope without capabilities',
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': V } },
      -32602,
      'clientCapabilities: missing',
    ],
    [
      'an envelope naming another revision',
      'tools/list',
      { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      -32022,
      'Unsupported protocol version',
    ],
  ])('refuses %s and stays open for the next opening', async (_case, method, params, code, text) => {
    const c = await connect();
    await c.send({ id: 1, method, params });
    const refused = await c.next(answerTo(1));
    expect(refused).toMatchObject({ error: { code } });
    expect(JSON.stringify(refused.error)).toContain(text);
    await c.send({ id: 2, method: 'tools/list', params: modern() });
    expect(await c.next(answerTo(2))).toMatchObject({ result: { tools: [], resultType: 'complete' } });
  });
});

describe('a pinned 2026-era connection', () => {
  it('refuses a 2025-era initialize and a request without its envelope', async () => {
    const c = await connect();
    await c.send({ id: 1, method: 'server/discover', params: modern() });
    expect(await c.next(answerTo(1))).toMatchObject({ result: { supportedVersions: [V] } });
    await c.send({
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    });
    expect(await c.next(answerTo(2))).toMatchObject({ error: { code: -32022 } });
    await c.send({ id: 3, method: 'tools/list', params: {} });
    expect(await c.next(answerTo(3))).toMatchObject({ error: { code: -32602 } });
  });

  it('refuses an id still in flight, and does not answer a request the client cancelled', async () => {
    let signal!: AbortSignal;
    const c = await connect(async (_alias, _args, caller) => {
      signal = caller.signal;
      await new Promise((resolve) => caller.signal.addEventListener('abort', resolve));
      return { content: [] };
    });
    await c.send({ id: 1, method: 'tools/call', params: modern({ name: 't' }) });
    await c.send({ id: 1, method: 'tools/list', params: modern() });
    expect(await c.next(answerTo(1))).toMatchObject({ error: { code: -32600 } });
    await c.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'enough' } });
    await c.send({ id: 2, method: 'tools/list', params: modern() });
    await c.next(answerTo(2));
    expect(signal.aborted).toBe(true);
    expect(c.received.filter(answerTo(1))).toHaveLength(1);
  });

  it('refuses one request too many with TOO_MANY_REQUESTS and serves the rest', async () => {
    const release: (() => void)[] = [];
    const c = await connect(async () => {
      await new Promise<void>((resolve) => release.push(resolve));
      return { content: [] };
    });
    for (let id = 1; id <= MAX_REQUESTS_IN_FLIGHT; id += 1)
      await c.send({ id, method: 'tools/call', params: modern({ name: 't' }) });
    await c.send({ id: 'over', method: 'tools/list', params: modern() });
    expect(await c.next(answerTo('over'))).toMatchObject({
      error: { code: -32603, data: { code: 'TOO_MANY_REQUESTS' } },
    });
    while (release.length < MAX_REQUESTS_IN_FLIGHT) await new Promise((resolve) => setImmediate(resolve));
    for (const done of release) done();
    await c.next(answerTo(MAX_REQUESTS_IN_FLIGHT));
    await c.send({ id: 'after', method: 'tools/list', params: modern() });
    expect(await c.next(answerTo('after'))).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('acknowledges a listen filter, sends only the changes it follows, stamped, until it is cancelled', async () => {
    const c = await connect();
    await c.send({
      id: 'l',
      method: 'subscriptions/listen',
      params: modern({ notifications: { toolsListChanged: true } }),
    });
    const ack = await c.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toEqual({ notifications: { toolsListChanged: true }, _meta: { [SUB]: 'l' } });
    c.connection.listChanged('prompts');
    c.connection.listChanged('tools');
    const change = await c.next((m) => m.method === 'notifications/tools/list_changed');
    expect(change.params).toEqual({ _meta: { [SUB]: 'l' } });
    expect(c.received.some((m) => m.method === 'notifications/prompts/list_changed')).toBe(false);
    await c.send({ method: 'notifications/cancelled', params: { requestId: 'l' } });
    await c.send({ id: 2, method: 'tools/list', params: modern() });
    await c.next(answerTo(2));
    c.connection.listChanged('tools');
    await c.send({ id: 3, method: 'tools/list', params: modern() });
    await c.next(answerTo(3));
    expect(c.received.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
  });

  it('ends each open subscription with its complete result when it closes', async () => {
    const c = await connect();
    await c.send({
      id: 'l',
      method: 'subscriptions/listen',
      params: modern({ notifications: { promptsListChanged: true } }),
    });
    await c.next((m) => m.method === 'notifications/subscriptions/acknowledged');
    await c.connection.close();
    expect(c.received.find(answerTo('l'))).toMatchObject({
      result: { resultType: 'complete', _meta: { [SUB]: 'l' } },
    });
  });

  it('refuses a listen or a request whose id an open subscription holds, and frees the id when it ends', async () => {
    const c = await connect();
    const listen = {
      id: 'l',
      method: 'subscriptions/listen',
      params: modern({ notifications: { toolsListChanged: true } }),
    };
    const acks = () => c.received.filter((m) => m.method === 'notifications/subscriptions/acknowledged');
    let sync = 0;
    // Messages are served in order: once a later tools/list is answered, what came before it has been answered too.
    const settle = async () => {
      sync += 1;
      await c.send({ id: `sync-${sync}`, method: 'tools/list', params: modern() });
      await c.next(answerTo(`sync-${sync}`));
    };
    await c.send(listen);
    await c.send(listen);
    await c.send({ id: 'l', method: 'tools/list', params: modern() });
    await settle();
    expect(acks()).toHaveLength(1);
    expect(
      c.received.filter(answerTo('l')).map((m) => (m.error as { code?: number } | undefined)?.code),
    ).toEqual([-32600, -32600]);
    c.connection.listChanged('tools');
    await settle();
    expect(c.received.filter((m) => m.method === 'notifications/tools/list_changed')).toHaveLength(1);
    await c.send({ method: 'notifications/cancelled', params: { requestId: 'l' } });
    await c.send(listen);
    await settle();
    expect(acks()).toHaveLength(2);
  });

  it('answers a listen whose filter follows nothing at once with its complete result', async () => {
    const c = await connect();
    await c.send({ id: 'e', method: 'subscriptions/listen', params: modern({ notifications: {} }) });
    expect(await c.next(answerTo('e'))).toMatchObject({
      result: { resultType: 'complete', _meta: { [SUB]: 'e' } },
    });
  });

  it('refuses a listen request whose filter is not one', async () => {
    const c = await connect();
    await c.send({ id: 1, method: 'subscriptions/listen', params: modern({ notifications: [] }) });
    expect(await c.next(answerTo(1))).toMatchObject({ error: { code: -32602 } });
  });
});
