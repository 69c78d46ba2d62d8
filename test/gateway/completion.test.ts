/**
 * `completion/complete` through Portcullis, in both eras, against server-everything over stdio: prompt arguments
 * by the prompt's namespaced name (with context from earlier arguments), resource template variables by the
 * template as listed, and a clear error for a reference that no exposed upstream serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio } });
}, 120_000);
afterAll(async () => gateway?.close());

describe.each(['legacy', 'modern'] as const)('completion/complete with a %s client', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(gateway.url, { era });
  });
  afterAll(async () => client?.close());

  it('advertises completions', () => {
    expect(client.getServerCapabilities()?.completions).toEqual({});
  });

  it('completes a prompt argument of a namespaced prompt, with the context of earlier arguments', async () => {
    const prompt = { type: 'ref/prompt' as const, name: 'every_completable-prompt' };
    const departments = await client.complete({ ref: prompt, argument: { name: 'department', value: 'S' } });
    expect(departments.completion.values).toEqual(['Sales', 'Support']);
    const names = await client.complete({
      ref: prompt,
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(names.completion.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it('completes a variable of a resource template as it is listed', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const template = resourceTemplates.find((t) => t.uriTemplate.endsWith('/text/{resourceId}'));
    expect(template?.uriTemplate).toBe('demo://resource/dynamic/text/{resourceId}');
    const ref = { type: 'ref/resource' as const, uri: template?.uriTemplate as string };
    expect(
      (await client.complete({ ref, argument: { name: 'resourceId', value: '7' } })).completion.values,
    ).toEqual(['7']);
    expect(
      (await client.complete({ ref, argument: { name: 'resourceId', value: 'x' } })).completion.values,
    ).toEqual([]);
  });

  it('refuses a prompt or resource no exposed upstream serves, naming it', async () => {
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'a', value: '' },
      }),
    ).rejects.toThrow(/Unknown prompt: completable-prompt/);
    await expect(
      client.complete({
        ref: { type: 'ref/resource', uri: 'nowhere://{x}' },
        argument: { name: 'x', value: '' },
      }),
    ).rejects.toThrow(/Unknown resource: nowhere:\/\/\{x\}/);
  });
});
