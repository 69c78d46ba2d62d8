/**
 * How a POST's answer leaves /mcp over real HTTP: a call that sends progress answers with an event stream whose
 * events arrive as they happen, the progress long before the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
let session: string;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(body: unknown) {
  return fetch(gateway.url, {
    method: 'POST',
    headers: { ...HEADERS, ...(session ? { 'mcp-session-id': session } : {}) },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio } });
  const opened = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  session = opened.headers.get('mcp-session-id') as string;
  await opened.text();
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).text();
}, 120_000);
afterAll(async () => gateway?.close());

describe('answers of POST /mcp', () => {
  it('streams a call that sends progress, each event as it happens', async () => {
    const response = await post({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'every_trigger-long-running-operation',
        arguments: { duration: 1, steps: 4 },
        _meta: { progressToken: 'p-1' },
      },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // The first progress arrives while the call still runs, long before its answer.
    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain('notifications/progress');
    expect(first).not.toContain('"id":3');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += decoder.decode(chunk.value);
    expect(rest).toContain('"id":3');
  });
});
