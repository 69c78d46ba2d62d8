/**
 * Every `prompts/get` and `resources/read` runs in a SERVER span and leaves an audit row carrying its trace id, as a
 * tool call does: who asked, through which
 * profile, which upstream answered, how it ended (OK, the response scan's RESPONSE_WITHHELD, or a name the caller
 * may not read, refused by the gateway) and what the response scan found. Real gateway on a port, real SDK client
 * in both eras, a real stdio upstream (test/fixtures/injecting-server.ts), spans in an in-memory exporter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { AuditRecord } from '../../src/audit/index.ts';
import {
  connectClient,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const exporter = new InMemorySpanExporter();
let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway(
    {
      guards: { responseScan: { mode: 'enforce' } },
      upstreams: { inj: UPSTREAMS.injecting },
    },
    { env: { FIXTURE_SECRET: 'surface-audit-secret' }, deps: { telemetry: { spanExporter: exporter } } },
  );
});
afterAll(async () => {
  await gateway.close();
});

/** The audit rows of `alias`, newest first. */
async function rowsOf(alias: string, count: number): Promise<AuditRecord[]> {
  return waitFor(async () => {
    const query = new URLSearchParams({ alias, order: 'desc' });
    const response = await fetch(gateway.url.replace(/\/mcp$/, `/admin/api/audit?${query}`));
    const { entries } = (await response.json()) as { entries: { record: AuditRecord }[] };
    return entries.length >= count ? entries.map((e) => e.record) : undefined;
  });
}

describe.each(['legacy', 'modern'] as const)('prompt and resource reads, %s era', (era) => {
  const nth = era === 'legacy' ? 1 : 2;

  it('records an answered prompt and resource with the upstream that answered', async () => {
    const client = await connectClient(gateway.url, { era });
    await client.getPrompt({ name: 'inj_forecast' });
    await client.readResource({ uri: 'notes://honest' });
    await client.close();
    const [prompt] = await rowsOf('inj_forecast', nth);
    expect(prompt).toMatchObject({
      origin: 'prompt',
      upstreamId: 'inj',
      profile: 'default',
      outcome: 'OK',
      approval: { mode: null, decision: 'allow' },
      arguments: {},
      risk: null,
    });
    expect(prompt?.responseScan).toBeUndefined();
    const [resource] = await rowsOf('notes://honest', nth);
    expect(resource).toMatchObject({ origin: 'resource', upstreamId: 'inj', outcome: 'OK' });
    const spans = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    for (const [name, row] of [
      ['prompts/get inj_forecast', prompt],
      ['resources/read notes://honest', resource],
    ] as const) {
      expect(row?.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spans.some((s) => s.name === name && s.spanContext().traceId === row?.traceId)).toBe(true);
    }
  });

  it('records a withheld answer with RESPONSE_WITHHELD and what the scan found', async () => {
    const client = await connectClient(gateway.url, { era });
    await expect(client.getPrompt({ name: 'inj_forecast_injected' })).rejects.toThrow();
    await expect(client.readResource({ uri: 'notes://injected' })).rejects.toThrow();
    await client.close();
    for (const alias of ['inj_forecast_injected', 'notes://injected']) {
      const [row] = await rowsOf(alias, nth);
      expect(row).toMatchObject({ outcome: 'ERROR', errorCode: 'RESPONSE_WITHHELD', upstreamId: 'inj' });
      expect(row?.responseScan?.action).toBe('withheld');
      expect(row?.responseScan?.findings.length).toBeGreaterThan(0);
      // The scan's event is on the read's own SERVER span, in the row's trace.
      const span = exporter
        .getFinishedSpans()
        .find((s) => s.kind === SpanKind.SERVER && s.spanContext().traceId === row?.traceId);
      expect(span?.events.map((e) => e.name)).toContain('mcp.response_scan');
    }
  });

  it('records a name or URI the caller may not read as refused by the gateway', async () => {
    const client = await connectClient(gateway.url, { era });
    await expect(client.getPrompt({ name: `probe_${era}` })).rejects.toThrow();
    await expect(client.readResource({ uri: `secret://${era}` })).rejects.toThrow();
    await client.close();
    const [prompt] = await rowsOf(`probe_${era}`, 1);
    expect(prompt).toMatchObject({
      origin: 'prompt',
      upstreamId: null,
      outcome: 'ERROR',
      errorCode: 'UNKNOWN_PROMPT',
      approval: { decision: 'deny', ruleId: 'gateway:UNKNOWN_PROMPT' },
    });
    const [resource] = await rowsOf(`secret://${era}`, 1);
    expect(resource).toMatchObject({ origin: 'resource', upstreamId: null, errorCode: 'UNKNOWN_RESOURCE' });
  });
});

it('keeps the audit chain whole with prompt and resource rows in it', async () => {
  const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/audit/verify'));
  expect(await response.json()).toMatchObject({ ok: true });
});
