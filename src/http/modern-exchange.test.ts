/**
 * The HTTP exchange of one 2026-era request at the endpoint: a plain JSON answer when nothing streams before it, an
 * SSE stream from the first notification on with the answer as its last event, and an exchange the client or the
 * endpoint's close ends: the call's signal is aborted and it is never answered (499). The 2026-era server here is
 * the test's peer, so each case decides what the request sends and when.
 */
import { describe, expect, it } from 'vitest';
import type { ModernReply, ModernServer } from '../downstream/index.ts';
import { compileProfiles } from '../exposure/index.ts';
import { createMcpEndpoint } from './mcp-endpoint.ts';

const V = '2026-07-28';
const PRINCIPAL = { id: 'alice', source: 'api-key' as const, groups: [], scopes: [] };

/** An endpoint whose 2026-era server hands each request to `serve`. */
function endpoint(serve: (signal: AbortSignal, reply: ModernReply) => void) {
  const modern: ModernServer = { serve: (_request, _identity, signal, reply) => serve(signal, reply) };
  return createMcpEndpoint({
    modern,
    createLegacyServer: () => {
      throw new Error('no 2025-era traffic here');
    },
    maxBodyBytes: 1_000_000,
    sessionIdleTimeoutMs: 60_000,
    maxSessions: 10,
    maxSessionsPerPrincipal: 10,
    maxRequestsPerPrincipal: 10,
  });
}

function post(signal?: AbortSignal): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'mcp-protocol-version': V, 'mcp-method': 'tools/list' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': V,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
    ...(signal === undefined ? {} : { signal }),
  });
}

const ANSWER = { jsonrpc: '2.0', id: 1, result: { tools: [] } } as const;
const PROGRESS = {
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: 1 },
};

describe('the HTTP exchange of a 2026-era request', () => {
  it('answers one JSON body with the status the server gives when nothing streams first', async () => {
    const door = endpoint((_signal, reply) => reply.answer(ANSWER, 404));
    const response = await door.handle(post(), PRINCIPAL, compileProfiles({}).default);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(ANSWER);
    await door.close();
  });

  it('streams from the first notification on, the answer as the last event', async () => {
    const door = endpoint((_signal, reply) => {
      void reply.notify(PROGRESS as never);
      setImmediate(() => reply.answer(ANSWER, 200));
    });
    const response = await door.handle(post(), PRINCIPAL, compileProfiles({}).default);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as unknown);
    expect(events).toEqual([PROGRESS, ANSWER]);
    await door.close();
  });

  it("aborts the call and answers nothing when the client's request is aborted", async () => {
    let signal!: AbortSignal;
    const door = endpoint((given) => (signal = given));
    const client = new AbortController();
    const pending = door.handle(post(client.signal), PRINCIPAL, compileProfiles({}).default);
    client.abort();
    const response = await pending;
    expect(signal.aborted).toBe(true);
    expect(response.status).toBe(499);
    await door.close();
  });

  it('aborts every call still running when the endpoint closes', async () => {
    let signal!: AbortSignal;
    const door = endpoint((given) => (signal = given));
    const pending = door.handle(post(), PRINCIPAL, compileProfiles({}).default);
    await new Promise((resolve) => setImmediate(resolve));
    await door.close();
    expect(signal.aborted).toBe(true);
    expect((await pending).status).toBe(499);
  });
});
