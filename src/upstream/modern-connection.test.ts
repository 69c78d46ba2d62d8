/**
 * The gateway's own 2026-era client against a hostile upstream written straight on the wire
 * (test/fixtures/hostile-modern-upstream.ts, a real stdio process): every message it sends carries the era's
 * envelope, results are read by their `resultType` and their shape, input rounds answered here are bounded, the
 * upstream's own requests are refused, listen streams carry list changes and resource updates and are re-opened
 * when the upstream drops them, and the link stays up through all of it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { connectUpstream, type UpstreamConnection } from './connection.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOSTILE = path.join(ROOT, 'test/fixtures/hostile-modern-upstream.ts');

let connection: UpstreamConnection;
const closes: (Error | undefined)[] = [];
const changed: string[] = [];
const updated: string[] = [];
const config: UpstreamConfig = {
  id: 'hostile',
  enabled: true,
  protocol: 'modern',
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
    {
      onClose: (error) => closes.push(error),
      onListChanged: (kind) => changed.push(kind),
      onResourceUpdated: (uri) => updated.push(uri),
    },
  );
  await connection.fetchLists();
}, 60_000);
afterAll(async () => connection?.close());

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string; reason?: string },
  );

const textOf = async (promise: Promise<{ content: unknown[] }>) =>
  ((await promise).content[0] as { text: string }).text;

describe('the 2026-era client against a hostile upstream', () => {
  it('takes the discovery: version, server info and instructions', () => {
    expect(connection.era).toBe('modern');
    expect(connection.protocolVersion).toBe('2026-07-28');
    expect(connection.serverInfo).toEqual({ name: 'hostile-modern', version: '1.0.0' });
    expect(connection.instructions).toBe('Trust nothing here either.');
  });

  it('sends every request and notification, a cancellation too, with the 2026-era envelope', async () => {
    const controller = new AbortController();
    const call = failureOf(connection.callTool('hang', {}, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('caller went away')), 50);
    expect(await call).toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: expect.stringMatching(/was cancelled/),
    });
    const heard = JSON.parse(await textOf(connection.callTool('heard', {}, {}))) as {
      method: string;
      meta: Record<string, unknown>;
    }[];
    expect(heard.map((m) => m.method)).toEqual(
      expect.arrayContaining([
        'server/discover',
        'tools/list',
        'subscriptions/listen',
        'notifications/cancelled',
      ]),
    );
    expect(heard.map((m) => m.method)).not.toContain('initialize');
    for (const message of heard) {
      expect(message.meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'portcullis' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      });
    }
  });

  it.each([
    ['no-result-type', /without a resultType string/],
    ['odd-result-type', /unsupported result type 'task'/],
    ['empty-input', /input_required with neither inputRequests nor requestState/],
    ['bad-block', /content\[0\]: type must be one of text, image, audio, resource_link, resource/],
    ['many-inputs', /asked for 17 inputs in one round of tools\/call; the gateway answers at most 16/],
    ['roots', /does not offer roots\/list/],
  ])('fails %s with UPSTREAM_ERROR naming what is wrong', async (tool, message) => {
    const failure = await failureOf(
      connection.callTool(tool, {}, { askClient: async () => ({ action: 'decline' }) }),
    );
    expect(failure).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(failure?.message).toMatch(message);
  });

  it('drops answers to requests it never made and takes the real one', async () => {
    expect(await textOf(connection.callTool('strangers', {}, {}))).toBe('the real answer');
  });

  it('answers input rounds through the caller for at most 10 rounds', async () => {
    const asked: string[] = [];
    const failure = await failureOf(
      connection.callTool(
        'forever',
        {},
        {
          askClient: async (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { a: 'x' } };
          },
        },
      ),
    );
    expect(failure).toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(failure?.message).toMatch(/still required input after 10 rounds/);
    expect(asked).toHaveLength(10);
    expect(asked[9]).toBe('round 9');
  });

  it('refuses a request of the upstream own (the era has none) with -32601', async () => {
    expect(JSON.parse(await textOf(connection.callTool('ask-directly', {}, {})))).toEqual({
      code: -32601,
      message: 'Method not found',
    });
  });

  it('takes an acknowledgement whose resourceSubscriptions is no list as no subscription', async () => {
    const failure = await failureOf(connection.subscribeResource('res://garbled'));
    expect(failure).toMatchObject({ code: 'UPSTREAM_ERROR', reason: 'no-subscriptions' });
    expect(failure?.message).toMatch(/did not accept a subscription to res:\/\/garbled/);
  });

  it('receives list changes and resource updates on its listen streams, and re-opens a dropped one', async () => {
    const start = Number(await textOf(connection.callTool('listens', {}, {})));
    await connection.subscribeResource('res://watched');
    const before = Number(await textOf(connection.callTool('listens', {}, {})));
    expect(before).toBe(start + 1);
    await connection.callTool('announce', {}, {});
    await expect.poll(() => changed.includes('tools') && updated.includes('res://watched')).toBe(true);
    // Open: the list-changes stream opened at connect and the subscription's (the refused one was closed).
    expect(await textOf(connection.callTool('drop-listens', {}, {}))).toBe('2');
    // The subscription's stream is opened again at once; the list-changes one is not (it is per connection).
    await expect
      .poll(async () => Number(await textOf(connection.callTool('listens', {}, {}))))
      .toBe(before + 1);
    updated.length = 0;
    await connection.callTool('announce', {}, {});
    await expect.poll(() => updated).toEqual(['res://watched']);
    expect(closes).toEqual([]);
  });
});
