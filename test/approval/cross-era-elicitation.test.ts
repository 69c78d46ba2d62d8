/**
 * Issue 5, "it must show" 2: a modern-era (2026-07-28) client reaches a legacy upstream's server-to-client
 * elicitation through Portcullis. server-everything's `trigger-elicitation-request` asks the client mid-call; the
 * gateway turns that into input_required rounds, the client's answer travels back upstream, and the answer's
 * content appears in the tool result. Only the calling client is asked.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ElicitResult } from '@modelcontextprotocol/client';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';
import { auditRecords, resultText } from '../helpers/serve-support.ts';

let gateway: RunningGateway;
const clients: Client[] = [];

beforeAll(async () => {
  gateway = await startGateway({ upstreams: { every: UPSTREAMS.everythingStdio } });
}, 120_000);
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await gateway?.close();
});

async function modernClient(onElicit: (params: unknown) => ElicitResult): Promise<Client> {
  const client = await connectClient(gateway.url, { era: 'modern', onElicit });
  clients.push(client);
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

interface ElicitParams {
  message: string;
  requestedSchema: { properties: Record<string, unknown> };
}

describe('upstream elicitation answered by a modern client', () => {
  it('carries the question to the caller and the answer back into the result', async () => {
    const name = `Grace Hopper ${randomUUID()}`;
    const email = 'grace@example.com';
    const asked: ElicitParams[] = [];
    const bystanderAsked: unknown[] = [];
    const bystander = await connectClient(gateway.url, {
      era: 'legacy',
      onElicit: (params) => {
        bystanderAsked.push(params);
        return { action: 'accept', content: { name: 'not me', check: false, email: 'no@example.com' } };
      },
    });
    clients.push(bystander);
    const client = await modernClient((params) => {
      asked.push(params as ElicitParams);
      return { action: 'accept', content: { name, check: true, email } };
    });

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('every_trigger-elicitation-request');
    const result = await client.callTool({ name: 'every_trigger-elicitation-request', arguments: {} });

    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toContain(name);
    expect(resultText(result)).toContain(email);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toBe(
      'Upstream server "every" asks (this is not a Portcullis approval): Please provide inputs for the following fields:',
    );
    expect(Object.keys(asked[0]?.requestedSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['name', 'check', 'email']),
    );
    expect(bystanderAsked).toHaveLength(0);

    const rows = (await auditRecords(gateway.gateway)).filter(
      (r) => r.alias === 'every_trigger-elicitation-request',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      origin: 'upstream',
      upstreamId: 'every',
      upstreamTool: 'trigger-elicitation-request',
      outcome: 'OK',
      sessionId: null,
      // Tracing is off in this gateway: no trace id is invented.
      traceId: null,
      upstreamRequests: [{ kind: 'elicitation', outcome: 'accept' }],
    });
  });

  it('carries a decline back to the upstream, which reports it', async () => {
    let asked = 0;
    const client = await modernClient(() => {
      asked += 1;
      return { action: 'decline' };
    });
    const result = await client.callTool({ name: 'every_trigger-elicitation-request', arguments: {} });
    expect(asked).toBe(1);
    expect(resultText(result)).toMatch(/declin/i);
    expect(resultText(result)).not.toContain('Grace Hopper');
  });

  it.each(['legacy', 'modern'] as const)(
    'declines upstream for a %s caller whose client cannot elicit, and says so in the audit row',
    async (era) => {
      const client = await connectClient(gateway.url, { era });
      clients.push(client);
      const result = await client.callTool({ name: 'every_trigger-elicitation-request', arguments: {} });
      expect(resultText(result)).toMatch(/declin/i);
      expect(gateway.logs.some((line) => line.includes('"upstream.elicitation_declined"'))).toBe(true);
      const rows = (await auditRecords(gateway.gateway)).filter(
        (r) => r.alias === 'every_trigger-elicitation-request',
      );
      expect(rows.at(-1)?.upstreamRequests).toEqual([{ kind: 'elicitation', outcome: 'refused' }]);
    },
  );
});
