import {
  Client,
  InMemoryTransport,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { attachDirectToolCalls, DIRECT_ID_PREFIX } from './direct-tool-call.ts';

/** A real SDK server and client over the SDK's in-memory pair, the direct caller on the client's end. */
async function connected() {
  const seen = { cancelled: 0, metas: [] as unknown[], tokens: [] as unknown[] };
  const server = new McpServer({ name: 'direct-test', version: '1.0.0' });
  server.registerTool(
    'echo',
    { inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      seen.metas.push(ctx.mcpReq._meta);
      return { content: [{ type: 'text', text: message }] };
    },
  );
  server.registerTool('hang', { inputSchema: z.object({}) }, async (_args, ctx) => {
    await new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve()));
    seen.cancelled += 1;
    return { content: [{ type: 'text', text: 'cancelled' }], isError: true };
  });
  server.registerTool(
    'count',
    { inputSchema: z.object({ to: z.number(), everyMs: z.number() }) },
    async ({ to, everyMs }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      seen.tokens.push(token);
      for (let i = 1; i <= to; i++) {
        if (i > 1) await new Promise((resolve) => setTimeout(resolve, everyMs));
        if (ctx.mcpReq.signal.aborted)
          return { content: [{ type: 'text', text: 'cancelled' }], isError: true };
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: to, message: `step ${i}` },
          });
        }
      }
      // The last progress goes out just before the answer, as many servers do.
      return { content: [{ type: 'text', text: `counted to ${to}` }] };
    },
  );
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'direct-test-client', version: '1.0.0' });
  await client.connect(clientEnd);
  const direct = attachDirectToolCalls(clientEnd);
  return { server, client, clientEnd, serverEnd, direct, seen };
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('attachDirectToolCalls', () => {
  it('answers a call with the tool result and forwards _meta', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const meta = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const result = await peer.direct.call('echo', { message: 'hi' }, { timeoutMs: 5000, meta });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(peer.seen.metas.at(-1)).toMatchObject(meta);
    expect(peer.direct.pending).toBe(0);
  });

  it("leaves the SDK client's own requests and answers alone, also while direct calls run", async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const [listed, ...echoed] = await Promise.all([
      peer.client.listTools(),
      ...['a', 'b', 'c'].map((m) => peer.direct.call('echo', { message: m }, { timeoutMs: 5000 })),
    ]);
    expect(listed.tools.map((t) => t.name).sort()).toEqual(['count', 'echo', 'hang']);
    expect(echoed.map((r) => r.content)).toEqual(['a', 'b', 'c'].map((text) => [{ type: 'text', text }]));
  });

  it('turns a JSON-RPC error into a ProtocolError with its code and message', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const failure = await peer.direct.call('no-such-tool', {}, { timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(-32602);
    expect((failure as Error).message).toContain('no-such-tool');
    expect(peer.direct.pending).toBe(0);
  });

  it('cancels upstream when the caller aborts, and rejects with the abort reason', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const controller = new AbortController();
    const call = peer.direct.call('hang', {}, { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort('the person stopped it'), 20);
    await expect(call).rejects.toBe('the person stopped it');
    await waitFor(() => peer.seen.cancelled === 1);
    expect(peer.direct.pending).toBe(0);
  });

  it('times out with the SDK timeout error and cancels upstream', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const failure = await peer.direct.call('hang', {}, { timeoutMs: 30 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
    await waitFor(() => peer.seen.cancelled === 1);
  });

  it('fails calls in flight with ConnectionClosed when the transport closes, and the client still hears of it', async () => {
    const peer = await connected();
    let clientClosed = false;
    peer.client.onclose = () => {
      clientClosed = true;
    };
    const call = peer.direct.call('hang', {}, { timeoutMs: 60_000 }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await peer.server.close();
    const failure = await call;
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    expect(clientClosed).toBe(true);
  });

  it('rejects an answer that is not a tool result instead of passing it on', async () => {
    const [clientEnd, rawServer] = InMemoryTransport.createLinkedPair();
    rawServer.onmessage = (message) => {
      const request = message as JSONRPCMessage & { id?: string | number; method?: string };
      if (request.method === 'initialize') {
        void rawServer.send({
          jsonrpc: '2.0',
          id: request.id as number,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'raw', version: '1' },
          },
        });
      } else if (typeof request.id === 'string' && request.id.startsWith(DIRECT_ID_PREFIX)) {
        void rawServer.send({ jsonrpc: '2.0', id: request.id, result: { content: 'not a list' } });
      }
    };
    await rawServer.start();
    const client = new Client({ name: 'direct-test-client', version: '1.0.0' });
    await client.connect(clientEnd);
    cleanup = () => client.close();
    const direct = attachDirectToolCalls(clientEnd);
    const failure = await direct.call('echo', {}, { timeoutMs: 5000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as Error).message).toMatch(/not a tool result/);
  });

  it('rejects at once when the signal is already aborted, sending nothing', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const controller = new AbortController();
    controller.abort('too late');
    await expect(
      peer.direct.call('echo', { message: 'x' }, { timeoutMs: 5000, signal: controller.signal }),
    ).rejects.toBe('too late');
    expect(peer.seen.metas).toHaveLength(0);
  });

  it('relays progress in arrival order, the last one before the answer, with no token without onProgress', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    const seen: string[] = [];
    const result = await peer.direct.call(
      'count',
      { to: 3, everyMs: 5 },
      {
        timeoutMs: 5000,
        onProgress: (p) => seen.push(`${p.progress}/${p.total} ${p.message}`),
      },
    );
    seen.push('answer');
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(seen).toEqual(['1/3 step 1', '2/3 step 2', '3/3 step 3', 'answer']);
    const quiet = await peer.direct.call('count', { to: 2, everyMs: 1 }, { timeoutMs: 5000 });
    expect(quiet.content).toEqual([{ type: 'text', text: 'counted to 2' }]);
    // The call id is the progress token, and only a call that asked for progress sends one.
    expect(peer.seen.tokens).toEqual([
      expect.stringMatching(new RegExp(`^${DIRECT_ID_PREFIX}\\d+$`)),
      undefined,
    ]);
  });

  it('restarts the timeout on each progress, within the total cap', async () => {
    const peer = await connected();
    cleanup = () => peer.client.close();
    let steps = 0;
    // 8 steps 25 ms apart take ~175 ms: longer than the 80 ms timeout, but progress keeps the call alive.
    const result = await peer.direct.call(
      'count',
      { to: 8, everyMs: 25 },
      { timeoutMs: 80, onProgress: () => (steps += 1) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 8' }]);
    expect(steps).toBe(8);
    const capped = await peer.direct
      .call(
        'count',
        { to: 1000, everyMs: 10 },
        { timeoutMs: 80, maxTotalTimeoutMs: 120, onProgress: () => {} },
      )
      .catch((error: unknown) => error);
    expect(capped).toBeInstanceOf(SdkError);
    expect((capped as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
    expect((capped as Error).message).toBe('Maximum total timeout exceeded');
  });
});
