/**
 * Issue 20: the gateway hands each request's trace down the call path (`caller.trace`) instead of making it the
 * active async context, so a traced call enters no context (AsyncLocalStorage stays off and costs nothing per
 * promise). The spans are what they were: the SERVER span with the risk context, its CLIENT child, the log
 * lines' trace id, and the response scan's event on the request span. Real gateway on a port, real SDK client
 * in both eras, a real stdio upstream (test/fixtures/injecting-server.ts), an in-memory exporter.
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ATTR } from '../../src/telemetry/index.ts';
import { connectClient, startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

describe('a traced tools/call with the trace handed down', () => {
  const exporter = new InMemorySpanExporter();
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway(
      { guards: { responseScan: { mode: 'advisory' } }, upstreams: { inj: UPSTREAMS.injecting } },
      { env: { FIXTURE_SECRET: `handed-${process.pid}` }, deps: { telemetry: { spanExporter: exporter } } },
    );
  }, 120_000);
  afterAll(async () => gateway?.close());
  afterEach(() => vi.restoreAllMocks());

  const finished = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return exporter.getFinishedSpans();
  };

  describe.each(['legacy', 'modern'] as const)('a %s client', (era) => {
    let client: Client;
    beforeAll(async () => {
      client = await connectClient(gateway.url, { era });
    });
    afterAll(async () => client?.close());

    it('enters no async context, and its spans, events and log lines carry the request trace', async () => {
      const entered = vi.spyOn(AsyncLocalStorageContextManager.prototype, 'with');
      const before = new Set((await finished()).map((s) => s.spanContext().spanId));
      const result = (await client.callTool({
        name: 'inj_weather_injected',
        arguments: {},
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const fresh = (await finished()).filter((s) => !before.has(s.spanContext().spanId));
      expect(entered).not.toHaveBeenCalled();

      const request = fresh.find(
        (s) => s.name === 'tools/call inj_weather_injected' && s.kind === SpanKind.SERVER,
      ) as ReadableSpan;
      expect(request).toBeDefined();
      expect(request.attributes).toMatchObject({
        [ATTR.genAiToolName]: 'inj_weather_injected',
        [ATTR.mcpOrigin]: 'upstream',
        [ATTR.mcpUpstreamId]: 'inj',
        [ATTR.outcome]: 'ok',
      });
      expect(request.attributes[ATTR.mcpRiskLevel]).toMatch(/^L[0-5]$/);
      // The response scan reports on the request span it was handed, not on a span of its own.
      const scan = request.events.find((e) => e.name === 'mcp.response_scan');
      expect(scan?.attributes).toMatchObject({ 'portcullis.response_scan.action': 'annotated' });
      expect(fresh.filter((s) => s.name === 'mcp.response_scan')).toEqual([]);

      const execution = fresh.find((s) => s.kind === SpanKind.CLIENT);
      expect(execution?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
      expect(execution?.spanContext().traceId).toBe(request.spanContext().traceId);

      const traceId = request.spanContext().traceId;
      const lines = gateway.logs
        .flatMap((line) => line.split('\n'))
        .filter((line) => line.includes(traceId))
        .map((line) => (JSON.parse(line) as { event: string }).event);
      expect(lines).toEqual(expect.arrayContaining(['mcp.tool.start', 'mcp.tool.done', 'mcp.response.scan']));
    });
  });
});
