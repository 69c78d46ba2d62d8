/**
 * The gateway's own HTTP+SSE link (sse-link.ts) through the real connection code (connectUpstream), against a real
 * scripted server on 127.0.0.1 (test/http-link-upstream.ts). server-everything's SSE mode is covered by
 * test/upstream/legacy-http-sse.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PortcullisError } from '../errors/index.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './http-link-support.ts';
import { SseLink } from './sse-link.ts';
import {
  connectLink,
  failure,
  startScriptedUpstream,
  waitUntil,
  type ScriptedOptions,
} from './test/http-link-upstream.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function scripted(mode: 'http' | 'sse', options: Partial<ScriptedOptions> = {}) {
  const upstream = await startScriptedUpstream(mode, { maxBytes: DEFAULT_MAX_MESSAGE_BYTES, ...options });
  cleanups.push(() => upstream.close());
  return upstream;
}

const connect = (url: string, protocol: 'legacy' | 'modern' | 'auto' = 'auto') =>
  connectLink('sse', url, protocol, cleanups);

describe('SseLink', () => {
  it('connects through the endpoint event, with the configured headers on the stream and every POST', async () => {
    const upstream = await scripted('sse');
    // legacy: a connection handed over by the auto probe is not told the version (era-probe.ts).
    const { connection } = await connect(upstream.url, 'legacy');
    expect(connection.era).toBe('legacy');
    const result = await connection.callTool('echo', {}, {});
    expect(result.content).toEqual([{ type: 'text', text: 'called echo' }]);
    const [stream, ...posts] = upstream.seen;
    expect(stream).toMatchObject({ method: 'GET', path: '/sse' });
    expect(stream?.headers.accept).toBe('text/event-stream');
    expect(posts.length).toBeGreaterThan(2);
    for (const post of posts) expect(post).toMatchObject({ method: 'POST', path: '/messages' });
    expect(upstream.seen.every((request) => request.headers.authorization === 'Bearer sse-token')).toBe(true);
    // After the handshake every POST names the negotiated version.
    const afterHandshake = posts.slice(posts.findIndex((post) => post.rpc === 'notifications/initialized'));
    for (const post of afterHandshake) expect(post.headers['mcp-protocol-version']).toBe('2025-06-18');
  });

  it('refuses an endpoint on another origin, and sends it nothing', async () => {
    const elsewhere = await scripted('http');
    const upstream = await scripted('sse', { endpoint: `${elsewhere.origin}/messages` });
    const error = await failure(connect(upstream.url));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.message).toContain(`SSE endpoint on another origin (${elsewhere.origin}`);
    expect(elsewhere.seen).toEqual([]);
    await waitUntil(() => upstream.openStreams() === 0, 'the stream to close');
  });

  it('drops the link with reason message-too-large when an event passes the cap', async () => {
    const upstream = await scripted('sse');
    const { connection, closes } = await connect(upstream.url);
    const error = await failure(connection.callTool('huge-event', {}, {}));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(error.reason).toBe('message-too-large');
    await waitUntil(() => closes.length === 1, 'the close');
    expect(closes[0]?.message).toContain(`larger than ${DEFAULT_MAX_MESSAGE_BYTES} bytes`);
  });

  it('closes the link when the server ends the stream', async () => {
    const upstream = await scripted('sse');
    const { connection, closes } = await connect(upstream.url);
    upstream.sseEnd();
    await waitUntil(() => closes.length === 1, 'the close');
    const error = await failure(connection.callTool('echo', {}, {}));
    expect(error.code).toBe('UPSTREAM_UNAVAILABLE');
  });

  it('aborts the stream and every request in flight on close()', async () => {
    const upstream = await scripted('sse');
    const { connection } = await connect(upstream.url);
    const call = connection.callTool('endless', {}, {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    await waitUntil(() => upstream.seen.some((request) => request.rpc === 'tools/call'), 'the call');
    await connection.close();
    const error = await call;
    expect(error).toBeInstanceOf(PortcullisError);
    expect((error as PortcullisError).code).toBe('UPSTREAM_UNAVAILABLE');
    await waitUntil(() => upstream.openStreams() === 0, 'the streams to close');
  });

  it('names a URL that answers no event stream', async () => {
    const notSse = await scripted('http');
    const error = await failure(connect(notSse.url));
    expect(error.message).toMatch(/the upstream \(SSE stream\) answered HTTP 405 Method Not Allowed/);
  });

  it('refuses a send before the endpoint is known', async () => {
    const link = new SseLink({ url: new URL('http://127.0.0.1:9/sse'), headers: {} });
    await expect(link.send({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow('Not connected');
  });
});
