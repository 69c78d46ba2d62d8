/**
 * Issue 2, "it must show" 2: Portcullis in front of real npm MCP servers (server-everything over stdio and over
 * Streamable HTTP, server-filesystem over stdio) and a real stdio fixture, driven by the real SDK client in both
 * protocol eras.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  startEverythingHttp,
  startGateway,
  tempDir,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
let everythingHttp: Awaited<ReturnType<typeof startEverythingHttp>>;
const files = tempDir('portcullis-files-');
writeFileSync(path.join(files, 'hello.txt'), 'hello from the filesystem upstream\n');

beforeAll(async () => {
  everythingHttp = await startEverythingHttp();
  gateway = await startGateway({
    upstreams: {
      every: UPSTREAMS.everythingStdio,
      everyhttp: { transport: 'http', url: everythingHttp.url },
      files: UPSTREAMS.filesystem(files),
      mut: UPSTREAMS.mutable,
    },
  });
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await everythingHttp?.stop();
});

describe.each(['legacy', 'modern'] as const)('through /mcp with a %s client', (era) => {
  let client: Client;
  const elicitations: unknown[] = [];

  beforeAll(async () => {
    client = await connectClient(gateway.url, {
      era,
      onElicit: (params) => {
        elicitations.push(params);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };
      },
    });
    expect(client.getProtocolEra()).toBe(era);
  });
  afterAll(async () => client?.close());

  it('lists aliased tools with annotations and outputSchema intact', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['every_echo', 'everyhttp_echo', 'files_read_text_file', 'mut_wait'])
      expect(names).toContain(name);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const structured = tools.find((t) => t.name === 'every_get-structured-content');
    expect(structured?.outputSchema).toBeDefined();
    expect(structured?.annotations).toBeDefined();
    const read = tools.find((t) => t.name === 'files_read_text_file');
    expect(read?.annotations?.readOnlyHint).toBe(true);
  });

  it('calls echo on the stdio and the HTTP upstream', async () => {
    for (const name of ['every_echo', 'everyhttp_echo']) {
      const result = await client.callTool({ name, arguments: { message: `hi ${era}` } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain(`hi ${era}`);
    }
  });

  it('reads a file through server-filesystem', async () => {
    const result = await client.callTool({
      name: 'files_read_text_file',
      arguments: { path: path.join(files, 'hello.txt') },
    });
    expect(JSON.stringify(result.content)).toContain('hello from the filesystem upstream');
  });

  it('passes structuredContent through', async () => {
    const result = await client.callTool({
      name: 'every_get-structured-content',
      arguments: { location: 'New York' },
    });
    expect(result.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('relays progress of a long-running upstream tool with the client token', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'every_trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it('cancels a long-running call and the upstream sees the cancellation', async () => {
    const before = (await client.callTool({ name: 'mut_stats', arguments: {} })).structuredContent as {
      cancelled: number;
    };
    const controller = new AbortController();
    const pending = client.callTool(
      { name: 'mut_wait', arguments: { ms: 20_000 } },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    controller.abort('test cancels');
    await expect(pending).rejects.toThrow();
    await waitFor(
      async () => {
        const after = (await client.callTool({ name: 'mut_stats', arguments: {} })).structuredContent as {
          cancelled: number;
        };
        return after.cancelled > before.cancelled;
      },
      10_000,
      'the upstream to record the cancellation',
    );
  });

  it('answers an upstream-initiated elicitation from the client that made the call', async () => {
    const count = elicitations.length;
    const result = await client.callTool({ name: 'every_trigger-elicitation-request', arguments: {} });
    expect(elicitations.length).toBe(count + 1);
    expect(JSON.stringify(result.content)).toContain('Ada Lovelace');
  });
});

describe('list_changed', () => {
  it.each(['legacy', 'modern'] as const)(
    'reaches a %s client when an upstream tool list changes',
    async (era) => {
      const client = await connectClient(gateway.url, { era });
      let changes = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        changes += 1;
      });
      if (era === 'modern') await client.listen({ toolsListChanged: true });
      const listener = await connectClient(gateway.url, { era: 'legacy' });
      await listener.callTool({ name: 'mut_mutate', arguments: { action: 'add' } });
      await waitFor(() => changes > 0, 10_000, 'tools/list_changed');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('mut_extra');
      await listener.callTool({ name: 'mut_mutate', arguments: { action: 'remove' } });
      await waitFor(
        async () => !(await client.listTools()).tools.some((t) => t.name === 'mut_extra'),
        10_000,
        'removal',
      );
      await listener.close();
      await client.close();
    },
  );
});
