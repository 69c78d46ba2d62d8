/**
 * How a POST's answer leaves /mcp over real HTTP: a call that sends progress answers with an event stream whose
 * events arrive as they happen, the progress long before the answer; a 2025-era call that streams nothing is
 * answered with one application/json body (real SDK client, real stdio upstreams).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio, mut: UPSTREAMS.mutable } });
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

describe('answers to a 2025-era SDK client', () => {
  it('are JSON for a call that streams nothing, and an event stream carrying progress for one that asks for it', async () => {
    // The content type of each POST answer, by the JSON-RPC method it answers.
    const answers: { method: string; contentType: string | null }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST' && typeof init.body === 'string') {
        const { method } = JSON.parse(init.body) as { method?: string };
        if (method !== undefined) answers.push({ method, contentType: response.headers.get('content-type') });
      }
      return response;
    };
    const client = new Client({ name: 'answers', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { fetch: recording }));
    try {
      const quick = await client.callTool({ name: 'mut_wait', arguments: { ms: 0 } });
      expect(quick.content).toEqual([{ type: 'text', text: 'waited 0 ms' }]);
      expect(answers.filter((a) => a.method === 'tools/call')).toEqual([
        { method: 'tools/call', contentType: 'application/json' },
      ]);
      expect(answers.find((a) => a.method === 'initialize')?.contentType).toBe('application/json');

      const progress: number[] = [];
      const slow = await client.callTool(
        { name: 'mut_wait', arguments: { ms: 200 } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      expect(slow.content).toEqual([{ type: 'text', text: 'waited 200 ms' }]);
      expect(progress.length).toBeGreaterThan(0);
      expect(answers.filter((a) => a.method === 'tools/call').at(-1)?.contentType).toBe('text/event-stream');
    } finally {
      await client.close();
    }
  });
});
