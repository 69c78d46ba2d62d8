/**
 * The 2025-era session table with two principals: a session answers only the principal that opened it, quotas
 * are per principal, and idle sessions are swept on the injected clock. Real SDK transports and servers; only
 * the clock and the sweep timer are the test's.
 */
import { Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEGACY_KEEP_ALIVE_MS } from './legacy-transport.ts';
import { createLegacySessions, type LegacySessionOptions, type SessionCaller } from './legacy-sessions.ts';

const URL_ = 'http://127.0.0.1/mcp';
const VERSION = '2025-06-18';

function table(over: Partial<LegacySessionOptions> = {}) {
  const clock = { now: 1_000 };
  const sweeps: (() => void)[] = [];
  const keepAlives: (() => void)[] = [];
  const events: { event: string; fields: Record<string, unknown> }[] = [];
  const opened: { principal: string; sessionId: string }[] = [];
  const sessions = createLegacySessions({
    createServer: (caller, sessionId) => {
      opened.push({ principal: caller.principal.id, sessionId });
      const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      return server;
    },
    idleTimeoutMs: 10_000,
    maxSessions: 10,
    maxSessionsPerPrincipal: 5,
    now: () => clock.now,
    every: (run, ms) => {
      sweeps.push(run);
      if (ms === LEGACY_KEEP_ALIVE_MS) keepAlives.push(run);
      return () => {};
    },
    log: (event, fields) => events.push({ event, fields }),
    ...over,
  });
  const sweep = () => sweeps.forEach((run) => run());
  const keepAlive = () => keepAlives.forEach((run) => run());
  return { sessions, clock, sweep, keepAlive, events, opened };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

function request(method: 'POST' | 'DELETE', body: unknown, sessionId?: string): Request {
  return new Request(URL_, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
}

/** `who` is a principal id, or `id@profile` for a profile other than `default`. */
function callerOf(who: string): SessionCaller {
  const [id = who, profile = 'default'] = who.split('@');
  return { principal: { id, source: 'api-key', groups: [], scopes: [] }, profile: { name: profile } };
}

async function send(
  sessions: ReturnType<typeof table>['sessions'],
  who: string,
  method: 'POST' | 'DELETE',
  body: unknown,
  sessionId?: string,
) {
  const response = await sessions.handle(request(method, body, sessionId), body, callerOf(who));
  return { status: response.status, text: await response.text(), id: response.headers.get('mcp-session-id') };
}

async function open(sessions: ReturnType<typeof table>['sessions'], principal: string): Promise<string> {
  const answer = await send(sessions, principal, 'POST', initialize);
  expect(answer.status).toBe(200);
  expect(answer.id).toBeTruthy();
  return answer.id ?? '';
}

describe('legacy sessions belong to the principal that opened them', () => {
  it("answers another principal's request on a session id as an unknown session", async () => {
    const { sessions, opened } = table();
    const id = await open(sessions, 'alice');
    expect(opened).toEqual([{ principal: 'alice', sessionId: id }]);

    const asBob = await send(sessions, 'bob', 'POST', toolsList, id);
    expect(asBob.status).toBe(404);
    expect(asBob.text).toContain('SESSION_NOT_FOUND');
    expect(asBob.text).not.toContain('"tools"');

    const asAlice = await send(sessions, 'alice', 'POST', toolsList, id);
    expect(asAlice.status).toBe(200);
    expect(asAlice.text).toContain('"tools":[]');
    await sessions.close();
  });

  it("answers the owner's request on another profile's endpoint as an unknown session", async () => {
    const { sessions } = table();
    const id = await open(sessions, 'alice@readonly');
    const elsewhere = await send(sessions, 'alice', 'POST', toolsList, id);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toContain('SESSION_NOT_FOUND');
    expect((await send(sessions, 'alice@readonly', 'POST', toolsList, id)).status).toBe(200);
    await sessions.close();
  });

  it('does not let another principal close a session, and lets its owner close it', async () => {
    const { sessions, events } = table();
    const id = await open(sessions, 'alice');

    expect((await send(sessions, 'bob', 'DELETE', undefined, id)).status).toBe(404);
    expect(sessions.size).toBe(1);

    expect((await send(sessions, 'alice', 'DELETE', undefined, id)).status).toBe(200);
    await Promise.resolve();
    expect(sessions.size).toBe(0);
    // The SDK transport closes itself on DELETE; either path ends the session once.
    expect(events.filter((e) => e.event === 'session.closed' && e.fields['session'] === id)).toHaveLength(1);
    expect((await send(sessions, 'alice', 'POST', toolsList, id)).status).toBe(404);
    await sessions.close();
  });

  it('counts the quota per principal: one at its limit does not lock out another', async () => {
    const { sessions, events } = table({ maxSessionsPerPrincipal: 2 });
    const first = await open(sessions, 'alice');
    await open(sessions, 'alice');
    const third = await send(sessions, 'alice', 'POST', initialize);
    expect(third.status).toBe(429);
    expect(third.text).toContain('TOO_MANY_SESSIONS');
    expect(events).toContainEqual({
      event: 'session.quota_reached',
      fields: { principal: 'alice', limit: 2 },
    });

    await open(sessions, 'bob');
    expect(sessions.size).toBe(3);

    // A closed session gives its slot back to its principal.
    expect((await send(sessions, 'alice', 'DELETE', undefined, first)).status).toBe(200);
    await Promise.resolve();
    await open(sessions, 'alice');
    await sessions.close();
    expect(sessions.size).toBe(0);
  });

  it('refuses a new session past the table-wide bound with 503', async () => {
    const { sessions } = table({ maxSessions: 1 });
    await open(sessions, 'alice');
    const refused = await send(sessions, 'bob', 'POST', initialize);
    expect(refused.status).toBe(503);
    await sessions.close();
  });

  it('asks for initialize when a request carries no session id', async () => {
    const { sessions } = table();
    const answer = await send(sessions, 'alice', 'POST', toolsList);
    expect(answer.status).toBe(400);
    expect(sessions.size).toBe(0);
  });
});

describe('the idle sweep', () => {
  it('closes a session idle past the timeout on the injected clock, and only then', async () => {
    const { sessions, clock, sweep, events } = table();
    const idle = await open(sessions, 'alice');
    clock.now += 6_000;
    const busy = await open(sessions, 'bob');

    clock.now += 4_001;
    sweep();
    await Promise.resolve();
    expect(sessions.size).toBe(1);
    expect(events).toContainEqual({ event: 'session.closed', fields: { session: idle, reason: 'idle' } });
    expect((await send(sessions, 'alice', 'POST', toolsList, idle)).status).toBe(404);
    expect((await send(sessions, 'bob', 'POST', toolsList, busy)).status).toBe(200);
    await sessions.close();
  });
});

describe('the keep-alive sweep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is one timer for the whole table, however many sessions are open', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const sessions = createLegacySessions({
      createServer: () => new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } }),
      idleTimeoutMs: 10_000,
      maxSessions: 10,
      maxSessionsPerPrincipal: 10,
    });
    // The idle sweep and the keep-alive sweep.
    expect(vi.getTimerCount()).toBe(2);
    for (let i = 0; i < 5; i += 1) await open(sessions, 'alice');
    expect(sessions.size).toBe(5);
    expect(vi.getTimerCount()).toBe(2);
    await sessions.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("turns a call still pending after two of the table's sweeps into a stream that carries its answer", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { sessions, keepAlive } = table({
      createServer: () => {
        const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/call', async () => {
          await held;
          return { content: [{ type: 'text', text: 'done' }] };
        });
        return server;
      },
    });
    const id = await open(sessions, 'alice');
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } };
    let answered = false;
    const pending = sessions.handle(request('POST', call, id), call, callerOf('alice')).then((response) => {
      answered = true;
      return response;
    });
    await new Promise((resolve) => setImmediate(resolve));
    keepAlive();
    await new Promise((resolve) => setImmediate(resolve));
    // One sweep only marks the call: the answer may still come as plain JSON.
    expect(answered).toBe(false);
    keepAlive();
    const response = await pending;
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    release();
    const text = await response.text();
    expect(text).toContain('"id":3');
    expect(text).toContain('done');
    await sessions.close();
  });
});
