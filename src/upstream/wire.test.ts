import { InMemoryTransport, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/v4';
import { createWire, MAX_UPSTREAM_REQUESTS_ANSWERING, type WireRequestOptions } from './wire.ts';

/**
 * The gateway's own JSON-RPC session (wire.ts) against a real SDK server over the SDK's in-memory pair:
 * ids, answers, errors, progress, timeouts, cancellation and the close.
 */
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
  let closes = 0;
  const wire = createWire(clientEnd, {
    onRequest: async () => ({}),
    onNotification: () => {},
    admitNotification: () => true,
    onClose: () => (closes += 1),
    onError: () => {},
  });
  await wire.start();
  await wire.request(
    'initialize',
    { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire-test', version: '1' } },
    { timeoutMs: 5000 },
  );
  await wire.notify('notifications/initialized');
  const call = (name: string, args: Record<string, unknown>, options: WireRequestOptions, meta?: object) =>
    wire.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) }, options);
  return {
    server,
    wire,
    call,
    seen,
    get closes() {
      return closes;
    },
  };
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

describe('createWire', () => {
  it('answers a request with its result and forwards _meta', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const meta = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const result = await peer.call('echo', { message: 'hi' }, { timeoutMs: 5000 }, meta);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    expect(peer.seen.metas.at(-1)).toMatchObject(meta);
    expect(peer.wire.pending).toBe(0);
  });

  it('keeps concurrent requests apart by their ids', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const [listed, ...echoed] = await Promise.all([
      peer.wire.request('tools/list', undefined, { timeoutMs: 5000 }),
      ...['a', 'b', 'c'].map((m) => peer.call('echo', { message: m }, { timeoutMs: 5000 })),
    ]);
    expect((listed as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual([
      'count',
      'echo',
      'hang',
    ]);
    expect(echoed.map((r) => (r as { content: unknown }).content)).toEqual(
      ['a', 'b', 'c'].map((text) => [{ type: 'text', text }]),
    );
  });

  it('turns a JSON-RPC error into a ProtocolError with its code and message', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const failure = await peer.wire
      .request('prompts/get', { name: 'no-such-prompt' }, { timeoutMs: 5000 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect(peer.wire.pending).toBe(0);
  });

  it('cancels upstream when the caller aborts, and rejects with the abort reason', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const controller = new AbortController();
    const call = peer.call('hang', {}, { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort('the person stopped it'), 20);
    await expect(call).rejects.toBe('the person stopped it');
    await waitFor(() => peer.seen.cancelled === 1);
    expect(peer.wire.pending).toBe(0);
  });

  it('times out with the SDK timeout error and cancels upstream', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const failure = await peer.call('hang', {}, { timeoutMs: 30 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
    await waitFor(() => peer.seen.cancelled === 1);
  });

  it('fails requests in flight with ConnectionClosed when the transport closes, and reports the close once', async () => {
    const peer = await connected();
    const call = peer.call('hang', {}, { timeoutMs: 60_000 }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await peer.server.close();
    const failure = await call;
    expect(failure).toBeInstanceOf(SdkError);
    expect((failure as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    expect(peer.closes).toBe(1);
    const after = await peer
      .call('echo', { message: 'x' }, { timeoutMs: 5000 })
      .catch((error: unknown) => error);
    expect((after as SdkError).code).toBe(SdkErrorCode.NotConnected);
  });

  it('rejects at once when the signal is already aborted, sending nothing', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const controller = new AbortController();
    controller.abort('too late');
    await expect(
      peer.call('echo', { message: 'x' }, { timeoutMs: 5000, signal: controller.signal }),
    ).rejects.toBe('too late');
    expect(peer.seen.metas).toHaveLength(0);
  });

  it('relays progress in arrival order, the last one before the answer, with no token without onProgress', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    const seen: string[] = [];
    const result = await peer.call(
      'count',
      { to: 3, everyMs: 5 },
      {
        timeoutMs: 5000,
        onProgress: (p) => seen.push(`${p.progress}/${p.total} ${p.message}`),
      },
    );
    seen.push('answer');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'counted to 3' }] });
    expect(seen).toEqual(['1/3 step 1', '2/3 step 2', '3/3 step 3', 'answer']);
    await peer.call('count', { to: 2, everyMs: 1 }, { timeoutMs: 5000 });
    // The request id is the progress token, and only a request that asked for progress sends one.
    expect(peer.seen.tokens).toEqual([expect.any(Number), undefined]);
  });

  it('restarts the timeout on each progress, within the total cap', async () => {
    const peer = await connected();
    cleanup = () => peer.wire.close();
    // The clock is fake from here: every wait below is the test's own step, never a race with real time.
    vi.useFakeTimers();
    try {
      let steps = 0;
      const counted = peer.call(
        'count',
        { to: 8, everyMs: 25 },
        { timeoutMs: 80, maxTotalTimeoutMs: 60_000, onProgress: () => (steps += 1) },
      );
      // Eight steps 25 ms apart take 175 ms: past the 80 ms timeout, but each progress restarts it.
      await vi.advanceTimersByTimeAsync(200);
      await expect(counted).resolves.toMatchObject({ content: [{ type: 'text', text: 'counted to 8' }] });
      expect(steps).toBe(8);
      const capped = peer
        .call(
          'count',
          { to: 1000, everyMs: 10 },
          { timeoutMs: 80, maxTotalTimeoutMs: 120, onProgress: () => {} },
        )
        .catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(130);
      const error = await capped;
      expect(error).toBeInstanceOf(SdkError);
      expect((error as SdkError).code).toBe(SdkErrorCode.RequestTimeout);
      expect((error as Error).message).toBe('Maximum total timeout exceeded');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what a hostile upstream sends the session', () => {
  /** The session on one end of an in-memory pair, the raw upstream on the other; what the upstream hears is kept. */
  async function rawPeer(onRequest: (method: string) => Promise<unknown> = async () => ({ ok: true })) {
    const [clientEnd, upstream] = InMemoryTransport.createLinkedPair();
    const heard: Record<string, unknown>[] = [];
    const notified: string[] = [];
    let onAnswer: (message: Record<string, unknown>) => void = () => {};
    upstream.onmessage = (message) => {
      heard.push(message as Record<string, unknown>);
      onAnswer(message as Record<string, unknown>);
    };
    await upstream.start();
    const wire = createWire(clientEnd, {
      onRequest: (method) => onRequest(method),
      onNotification: (method) => void notified.push(method),
      admitNotification: () => true,
      onClose: () => {},
      onError: () => {},
    });
    await wire.start();
    cleanup = () => wire.close();
    const send = (message: object) => upstream.send({ jsonrpc: '2.0', ...message } as never);
    const upstreamOnAnswer = (handle: (message: Record<string, unknown>) => void) => {
      onAnswer = handle;
    };
    return { wire, heard, notified, send, upstreamOnAnswer };
  }

  it.each<[string, object, Record<string, unknown> | undefined]>([
    [
      'params that are not an object',
      { id: 1, method: 'elicitation/create', params: [1, 2] },
      { id: 1, error: { code: -32602, message: 'params must be an object' } },
    ],
    ['a request the gateway answers', { id: 'r', method: 'ping' }, { id: 'r', result: { ok: true } }],
    ['a fractional id (no request id)', { id: 1.5, method: 'ping' }, undefined],
    ['an answer to a request never sent', { id: 99, result: {} }, undefined],
  ])('%s', async (_name, message, answer) => {
    const peer = await rawPeer();
    await peer.send(message);
    await peer.send({ method: 'notifications/tools/list_changed' });
    await waitFor(() => peer.notified.length === 1);
    expect(peer.heard).toEqual(answer === undefined ? [] : [{ jsonrpc: '2.0', ...answer }]);
  });

  it('refuses a second request under an id still being answered, and answers the first once', async () => {
    let release: (value: unknown) => void = () => {};
    const peer = await rawPeer(() => new Promise((resolve) => (release = resolve)));
    await peer.send({ id: 7, method: 'elicitation/create', params: {} });
    await peer.send({ id: 7, method: 'elicitation/create', params: {} });
    await waitFor(() => peer.heard.length === 1);
    expect(peer.heard[0]).toMatchObject({ id: 7, error: { code: -32600 } });
    release({ action: 'decline' });
    await waitFor(() => peer.heard.length === 2);
    expect(peer.heard[1]).toEqual({ jsonrpc: '2.0', id: 7, result: { action: 'decline' } });
  });

  it('refuses a request over the limit of requests being answered at once, alone', async () => {
    const releases: ((value: unknown) => void)[] = [];
    const peer = await rawPeer(() => new Promise((resolve) => releases.push(resolve)));
    for (let id = 1; id <= MAX_UPSTREAM_REQUESTS_ANSWERING; id += 1)
      await peer.send({ id, method: 'elicitation/create', params: {} });
    await peer.send({ id: 0, method: 'elicitation/create', params: {} });
    await waitFor(() => peer.heard.length === 1);
    expect(peer.heard[0]).toMatchObject({ id: 0, error: { code: -32603 } });
    expect((peer.heard[0]?.error as { message: string }).message).toContain(
      `${MAX_UPSTREAM_REQUESTS_ANSWERING} of its requests`,
    );
    for (const release of releases.splice(0)) release({ action: 'decline' });
    await waitFor(() => peer.heard.length === 1 + MAX_UPSTREAM_REQUESTS_ANSWERING);
  });

  it('takes a request id again as soon as its answer has gone out', async () => {
    const peer = await rawPeer();
    peer.upstreamOnAnswer((message) => {
      if (message.id === 5 && peer.heard.length === 1) void peer.send({ id: 5, method: 'ping' });
    });
    await peer.send({ id: 5, method: 'ping' });
    await waitFor(() => peer.heard.length === 2);
    expect(peer.heard).toEqual([
      { jsonrpc: '2.0', id: 5, result: { ok: true } },
      { jsonrpc: '2.0', id: 5, result: { ok: true } },
    ]);
  });

  it('does not answer a request the upstream cancelled', async () => {
    let release: (value: unknown) => void = () => {};
    const peer = await rawPeer(() => new Promise((resolve) => (release = resolve)));
    await peer.send({ id: 'q', method: 'elicitation/create', params: {} });
    await peer.send({ method: 'notifications/cancelled', params: { requestId: 'q' } });
    release({ action: 'accept' });
    await peer.send({ method: 'notifications/tools/list_changed' });
    await waitFor(() => peer.notified.length === 1);
    expect(peer.heard).toEqual([]);
  });
});
