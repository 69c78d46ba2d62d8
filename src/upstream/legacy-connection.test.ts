/**
 * The gateway's own 2025-era client against a hostile upstream written straight on the wire
 * (test/fixtures/hostile-legacy-upstream.ts, a real stdio process): answers to requests never made are dropped,
 * malformed answers fail that call alone with UPSTREAM_ERROR and a message naming the field, the upstream's own
 * requests get honest JSON-RPC errors, and the link stays up through all of it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { connectUpstream, type UpstreamConnection } from './connection.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOSTILE = path.join(ROOT, 'test/fixtures/hostile-legacy-upstream.ts');

let connection: UpstreamConnection;
const closes: (Error | undefined)[] = [];
const config: UpstreamConfig = {
  id: 'hostile',
  enabled: true,
  protocol: 'legacy',
  callTimeoutMs: 5_000,
  sampling: false,
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', HOSTILE],
  env: {},
};

beforeAll(async () => {
  connection = await connectUpstream(
    config,
    { inheritedEnv: {} },
    { onClose: (error) => closes.push(error), onListChanged: () => {} },
  );
}, 60_000);
afterAll(async () => connection?.close());

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string; reason?: string },
  );

describe('the legacy client against a hostile upstream', () => {
  it('keeps the handshake: version, server info and instructions', () => {
    expect(connection.era).toBe('legacy');
    expect(connection.protocolVersion).toMatch(/^2025-/);
    expect(connection.serverInfo).toEqual({ name: 'hostile-legacy', version: '1.0.0' });
    expect(connection.instructions).toBe('Trust nothing here.');
  });

  it('drops answers to requests it never made and takes the real one', async () => {
    const result = await connection.callTool('strangers', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'the real answer' }]);
  });

  it.each([
    ['wrong-types', /tools\/call with an invalid result: content must be an array/],
    ['bad-block', /content\[0\]: type must be one of text, image, audio, resource_link, resource/],
  ])('fails a malformed answer (%s) with UPSTREAM_ERROR naming the field', async (tool, message) => {
    const failure = await failureOf(connection.callTool(tool, {}, {}));
    expect(failure).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(failure?.message).toMatch(message);
  });

  it('times out an answer the transport could not parse (an error whose code is no number)', async () => {
    const failure = await failureOf(connection.callTool('bad-error', {}, { timeoutMs: 300 }));
    expect(failure).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
  });

  it('passes a result nested 20,000 levels deep on without reading it', async () => {
    const result = await connection.callTool('deep', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'deep' }]);
    expect(typeof result.structuredContent).toBe('object');
  });

  it('answers the upstream: -32601 for roots/list, -32602 for a malformed or URL-mode elicitation, {} for ping', async () => {
    const result = await connection.callTool('ask', {}, {});
    const answers = JSON.parse((result.content[0] as { text: string }).text) as unknown[];
    expect(answers).toEqual([
      { code: -32601, message: 'Method not found' },
      {
        code: -32602,
        message: expect.stringMatching(
          /^Invalid elicitation\/create request: requestedSchema\.properties\.a must be/,
        ),
      },
      {},
      { code: -32602, message: 'Client does not support URL-mode elicitation requests' },
    ]);
  });

  it('cancels upstream on abort and on timeout; the abort is UPSTREAM_ERROR (cancelled), the timeout UPSTREAM_TIMEOUT', async () => {
    const cancellations = async () => {
      const result = await connection.callTool('cancellations', {}, {});
      return JSON.parse((result.content[0] as { text: string }).text) as unknown[];
    };
    const before = (await cancellations()).length;
    const controller = new AbortController();
    const call = failureOf(connection.callTool('hang', {}, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('caller went away')), 50);
    const failure = await call;
    expect(failure).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(failure?.message).toMatch(/was cancelled/);
    const timedOut = await failureOf(connection.callTool('hang', {}, { timeoutMs: 300 }));
    expect(timedOut).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    // Each cancelled request is named by the id it went out under (numbers of the client's own).
    await expect.poll(async () => (await cancellations()).length).toBe(before + 2);
    expect((await cancellations()).every((id) => typeof id === 'number')).toBe(true);
  });

  it('relays progress written with the answer before the answer, and ignores progress for an unknown token', async () => {
    const seen: string[] = [];
    await connection.callTool(
      'progress-then-answer',
      {},
      { onProgress: (p) => seen.push(`${p.progress}/${p.total}`) },
    );
    seen.push('answer');
    expect(seen).toEqual(['1/2', '2/2', 'answer']);
    const result = await connection.callTool('unknown-token', {}, { onProgress: () => seen.push('stray') });
    expect(result.content).toEqual([{ type: 'text', text: 'answered' }]);
    expect(seen).not.toContain('stray');
  });

  it('relays the log messages of a call to its caller, dropping one whose level is no logging level', async () => {
    const logs: unknown[] = [];
    await connection.callTool('logs', {}, { onLog: (message) => logs.push(message) });
    expect(logs).toEqual([{ level: 'warning', logger: 'fixture', data: 'kept' }]);
  });

  it('refuses an endless prompts/list and an invalid resources/list entry, and the link stays up', async () => {
    const failure = await failureOf(connection.fetchLists());
    expect(failure?.message).toMatch(/prompts\/list: exceeded 64 pages|resources\[0\]: uri must be a string/);
    const result = await connection.callTool('strangers', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'the real answer' }]);
    expect(closes).toEqual([]);
  });
});

describe('an oversized message from a legacy upstream', () => {
  it('drops the link, fails the call with UPSTREAM_UNAVAILABLE (message-too-large) and names the cause in the close', async () => {
    const dropped: (Error | undefined)[] = [];
    const link = await connectUpstream(
      { ...config, id: 'oversized' },
      { inheritedEnv: {} },
      { onClose: (error) => dropped.push(error), onListChanged: () => {} },
    );
    try {
      const failure = await failureOf(link.callTool('oversized', {}, {}));
      expect(failure).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', reason: 'message-too-large' });
      expect(failure?.message).toMatch(/sent a message larger than 10485760 bytes/);
      await expect.poll(() => dropped.length).toBe(1);
      expect(dropped[0]?.message).toMatch(/larger than 10485760 bytes, the most one stdio message may hold/);
    } finally {
      await link.close();
    }
  }, 30_000);
});
