/**
 * 2025-era sessions belong to the principal that opened them: another key's requests on that session id are
 * "session not found", and one principal that opens sessions up to its quota cannot lock another one out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${KEY_ALICE}', '${KEY_BOB}'] },
      http: { maxSessions: 10, maxSessionsPerPrincipal: 3 },
      tools: { bundled: false },
    },
    { env: { KEY_ALICE: ALICE, KEY_BOB: BOB } },
  );
}, 60_000);
afterAll(async () => gateway?.close());

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function post(key: string, body: string, sessionId?: string) {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-protocol-version': '2025-06-18',
      ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, sessionId: response.headers.get('mcp-session-id') };
}

async function closeSession(key: string, sessionId: string) {
  await fetch(gateway.url, {
    method: 'DELETE',
    headers: {
      authorization: `Bearer ${key}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    },
  });
}

describe('legacy sessions and principals', () => {
  it("refuses another principal's requests on a session id as an unknown session", async () => {
    const opened = await post(ALICE, initialize);
    expect(opened.status).toBe(200);
    const id = opened.sessionId as string;
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });

    const asBob = await post(BOB, list, id);
    expect(asBob.status).toBe(404);
    expect(asBob.text).toContain('SESSION_NOT_FOUND');

    const asAlice = await post(ALICE, list, id);
    expect(asAlice.status).toBe(200);
    await closeSession(ALICE, id);
  });

  it('caps the sessions of one principal without locking out another', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const opened = await post(ALICE, initialize);
      expect(opened.status).toBe(200);
      ids.push(opened.sessionId as string);
    }
    const fourth = await post(ALICE, initialize);
    expect(fourth.status).toBe(429);
    expect(fourth.text).toContain('TOO_MANY_SESSIONS');
    expect(fourth.text).toContain('3');

    const bob = await connectClient(gateway.url, { era: 'legacy', apiKey: BOB });
    expect((await bob.listTools()).tools).toBeDefined();
    await bob.close();

    // Closing one of Alice's sessions gives her room again.
    await closeSession(ALICE, ids.pop() as string);
    const again = await post(ALICE, initialize);
    expect(again.status).toBe(200);
    ids.push(again.sessionId as string);
    for (const id of ids) await closeSession(ALICE, id);
  });
});
