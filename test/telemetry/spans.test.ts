/**
 * Issue 5, "it must show" 5: OpenTelemetry spans of real calls (docs/operations.md, "Telemetry"). With an
 * in-memory exporter:
 * the SERVER span of a legacy and of a modern tools/call carries the MCP and GenAI semantic-convention attributes,
 * the upstream and risk context and the approval decision event; the upstream call is a CLIENT child span; and the
 * W3C trace context reaches the upstream in `_meta` (a fixture upstream echoes the `_meta` it got), continuing a
 * trace the client started. With an OTLP endpoint: a tools/call span arrives at a receiver on 127.0.0.1.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { ATTR, EVENT } from '../../src/telemetry/index.ts';
import {
  connectClient,
  ROOT,
  startGateway,
  UPSTREAMS,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';
import { auditRecords, resultText } from '../helpers/serve-support.ts';

const META_UPSTREAM = {
  transport: 'stdio',
  command: process.execPath,
  args: ['--import', 'tsx', path.join(ROOT, 'test/helpers/meta-echo-server.ts')],
  cwd: ROOT,
};
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[0-9a-f]$/;

describe('spans in memory', () => {
  const exporter = new InMemorySpanExporter();
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway(
      {
        upstreams: {
          every: {
            ...UPSTREAMS.everythingStdio,
            tools: { include: ['*'], overrides: { echo: { hitl: 'REQUIRED' } } },
          },
          meta: META_UPSTREAM,
        },
      },
      { deps: { telemetry: { spanExporter: exporter } } },
    );
  }, 120_000);
  afterAll(async () => gateway?.close());

  // Request spans end just after the answer has left: wait for that before reading them.
  const finished = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return exporter.getFinishedSpans();
  };
  const childrenOf = async (parent: ReadableSpan) =>
    (await finished()).filter(
      (s) =>
        s.parentSpanContext?.spanId === parent.spanContext().spanId &&
        s.spanContext().traceId === parent.spanContext().traceId,
    );

  describe.each(['legacy', 'modern'] as const)('a %s client', (era) => {
    let client: Client;
    const prompts: unknown[] = [];

    beforeAll(async () => {
      client = await connectClient(gateway.url, {
        era,
        onElicit: (params) => {
          prompts.push(params);
          // server-everything's own question wants its form filled in; approval prompts have no fields.
          const fields = (params as { requestedSchema?: { properties?: object } }).requestedSchema
            ?.properties;
          return fields && 'email' in fields
            ? { action: 'accept', content: { name: 'Ada', check: true, email: 'ada@example.com' } }
            : { action: 'accept', content: {} };
        },
      });
      expect(client.getProtocolEra()).toBe(era);
    });
    afterAll(async () => client?.close());

    it('an approved tools/call: request span, approval event, upstream child span', async () => {
      const message = `span ${era} ${randomUUID()}`;
      const before = new Set((await finished()).map((s) => s.spanContext().spanId));
      const result = (await client.callTool({
        name: 'every_echo',
        arguments: { message },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      expect(resultText(result)).toContain(message);
      expect(prompts.length).toBeGreaterThan(0);

      const fresh = (await finished()).filter((s) => !before.has(s.spanContext().spanId));
      const requests = fresh.filter((s) => s.name === 'tools/call every_echo' && s.kind === SpanKind.SERVER);
      // Legacy asks in-call: one request. Modern asks with input_required: a first round, then the retry.
      expect(requests).toHaveLength(era === 'legacy' ? 1 : 2);
      const approved = requests.filter((s) => s.events.some((e) => e.name === EVENT.approval));
      expect(approved).toHaveLength(1);
      const span = approved[0] as ReadableSpan;

      expect(span.attributes).toMatchObject({
        [ATTR.mcpMethodName]: 'tools/call',
        [ATTR.genAiToolName]: 'every_echo',
        [ATTR.genAiOperationName]: 'execute_tool',
        [ATTR.mcpProtocolVersion]: client.getNegotiatedProtocolVersion(),
        [ATTR.mcpOrigin]: 'upstream',
        [ATTR.mcpUpstreamId]: 'every',
        [ATTR.mcpUpstreamTool]: 'echo',
        [ATTR.mcpCompositionHitl]: 'REQUIRED',
        [ATTR.outcome]: 'ok',
      });
      expect(span.attributes[ATTR.mcpProtocolVersion]).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      expect(span.attributes[ATTR.jsonrpcRequestId]).toEqual(expect.any(String));
      expect(span.attributes[ATTR.mcpRiskLevel]).toMatch(/^L[0-5]$/);
      expect(span.attributes[ATTR.mcpSessionId]).toBe(
        era === 'legacy' ? client.transport?.sessionId : undefined,
      );
      if (era === 'legacy') expect(span.attributes[ATTR.mcpSessionId]).toEqual(expect.any(String));
      // Arguments and results stay off spans unless configured.
      expect(JSON.stringify(span.attributes)).not.toContain(message);

      const event = span.events.find((e) => e.name === EVENT.approval);
      expect(event?.attributes).toMatchObject({
        [ATTR.approvalDecision]: 'ask',
        [ATTR.approvalMode]: 'REQUIRED',
        [ATTR.approvalElicitation]: 'accept',
      });

      const children = await childrenOf(span);
      expect(children).toHaveLength(1);
      expect(children[0]).toMatchObject({ name: 'tools/call echo', kind: SpanKind.CLIENT });
      expect(children[0]?.attributes).toMatchObject({
        [ATTR.mcpMethodName]: 'tools/call',
        [ATTR.genAiOperationName]: 'execute_tool',
        [ATTR.genAiToolName]: 'echo',
        [ATTR.mcpUpstreamId]: 'every',
        [ATTR.mcpUpstreamTool]: 'echo',
        [ATTR.mcpUpstreamTransport]: 'stdio',
      });
      if (era === 'modern') {
        const round = requests.find((s) => s !== span) as ReadableSpan;
        expect(round.attributes[ATTR.outcome]).toBe('input_required');
        expect(await childrenOf(round)).toHaveLength(0);
      }

      const row = (await auditRecords(gateway.gateway)).find((r) =>
        JSON.stringify(r.arguments).includes(message),
      );
      expect(row?.traceId).toBe(span.spanContext().traceId);
      expect(row?.risk?.final).toBe(span.attributes[ATTR.mcpRiskLevel]);
    });

    it('a call that waits for an upstream question: its approval and upstream-request events stay in the trace', async () => {
      const before = new Set((await finished()).map((s) => s.spanContext().spanId));
      const result = (await client.callTool({
        name: 'every_trigger-elicitation-request',
        arguments: {},
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      await waitFor(
        async () =>
          (await finished()).some(
            (s) => !before.has(s.spanContext().spanId) && s.name === EVENT.upstreamRequest,
          ) || era === 'legacy',
        10_000,
        'the approval span of the parked call',
      );
      const fresh = (await finished()).filter((s) => !before.has(s.spanContext().spanId));
      const requests = fresh.filter(
        (s) => s.name === 'tools/call every_trigger-elicitation-request' && s.kind === SpanKind.SERVER,
      );
      const events = (span: ReadableSpan) => span.events.filter((e) => e.name === EVENT.approval);
      const answered = {
        [ATTR.upstreamRequestKind]: 'elicitation',
        [ATTR.upstreamRequestOutcome]: 'accept',
      };
      if (era === 'legacy') {
        // Legacy asks on the call's own stream: one request span carries the events.
        expect(requests).toHaveLength(1);
        expect(events(requests[0] as ReadableSpan)).toHaveLength(1);
        expect(
          requests[0]?.events.filter((e) => e.name === EVENT.upstreamRequest).map((e) => e.attributes),
        ).toEqual([answered]);
        return;
      }
      // Modern: the first round answers input_required and its span ends while the upstream call is parked; the
      // call's approval event then gets a span of its own, in that first round's trace.
      const first = requests.find((s) => s.attributes[ATTR.outcome] === 'input_required') as ReadableSpan;
      expect(first).toBeDefined();
      const own = fresh.filter((s) => s.name === EVENT.approval);
      expect(own).toHaveLength(1);
      expect(own[0]?.spanContext().traceId).toBe(first.spanContext().traceId);
      expect(own[0]?.events.map((e) => e.name)).toEqual([EVENT.approval]);
      expect(own[0]?.attributes[ATTR.approvalDecision]).toBe('allow');
      const asked = fresh.filter((s) => s.name === EVENT.upstreamRequest);
      expect(asked.map((s) => [s.spanContext().traceId, s.attributes])).toEqual([
        [first.spanContext().traceId, answered],
      ]);
    });

    it('the upstream receives the execution span as traceparent in _meta', async () => {
      const before = new Set((await finished()).map((s) => s.spanContext().spanId));
      const result = (await client.callTool({ name: 'meta_meta', arguments: {} })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const meta = JSON.parse(resultText(result)) as { traceparent?: string };
      const [, traceId, parentId] = TRACEPARENT.exec(meta.traceparent ?? '') ?? [];

      const fresh = (await finished()).filter((s) => !before.has(s.spanContext().spanId));
      const request = fresh.find((s) => s.name === 'tools/call meta_meta' && s.kind === SpanKind.SERVER);
      const execution = fresh.find((s) => s.name === 'tools/call meta' && s.kind === SpanKind.CLIENT);
      expect(request).toBeDefined();
      expect(execution?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
      expect(traceId).toBe(request?.spanContext().traceId);
      expect(parentId).toBe(execution?.spanContext().spanId);
    });

    it("continues the client's trace from the traceparent it sends in _meta", async () => {
      const clientTrace = randomBytes(16).toString('hex');
      const clientSpan = randomBytes(8).toString('hex');
      const result = (await client.callTool({
        name: 'meta_meta',
        arguments: {},
        _meta: { traceparent: `00-${clientTrace}-${clientSpan}-01` },
      })) as CallToolResult;
      const [, upstreamTrace, upstreamParent] =
        TRACEPARENT.exec((JSON.parse(resultText(result)) as { traceparent?: string }).traceparent ?? '') ??
        [];

      const request = (await finished()).find(
        (s) => s.name === 'tools/call meta_meta' && s.spanContext().traceId === clientTrace,
      );
      expect(request?.parentSpanContext?.spanId).toBe(clientSpan);
      expect(request?.kind).toBe(SpanKind.SERVER);
      expect(upstreamTrace).toBe(clientTrace);
      expect(upstreamParent).not.toBe(clientSpan);
      const execution = (await childrenOf(request as ReadableSpan))[0];
      expect(upstreamParent).toBe(execution?.spanContext().spanId);
    });
  });
});

/** One POST received by the OTLP receiver. */
interface Received {
  path: string;
  contentType: string;
  body: string;
}

function startOtlpReceiver(): Promise<{ server: Server; endpoint: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'] ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, endpoint: `http://127.0.0.1:${port}`, received });
    });
  });
}

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

function otlpSpans(received: Received[]): OtlpSpan[] {
  return received
    .filter((r) => r.path === '/v1/traces')
    .flatMap(
      (r) =>
        (JSON.parse(r.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans,
    )
    .flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
}

describe('spans over OTLP/HTTP', () => {
  it('a tools/call span reaches a receiver on 127.0.0.1', async () => {
    const receiver = await startOtlpReceiver();
    const gateway = await startGateway({
      upstreams: { every: UPSTREAMS.everythingStdio },
      telemetry: { otlp: { endpoint: receiver.endpoint }, serviceName: 'portcullis-e2e' },
    });
    try {
      expect(gateway.gateway.telemetry.enabled).toBe(true);
      const client = await connectClient(gateway.url, { era: 'legacy' });
      const result = (await client.callTool({
        name: 'every_echo',
        arguments: { message: 'over otlp' },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      await client.close();
      // The OTLP exporter batches; shutting telemetry down flushes it.
      await gateway.gateway.telemetry.shutdown();
      const span = await waitFor(
        () => otlpSpans(receiver.received).find((s) => s.name === 'tools/call every_echo'),
        15_000,
        'the tools/call span at the receiver',
      );
      const attrs = Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
      expect(attrs).toMatchObject({
        [ATTR.mcpMethodName]: 'tools/call',
        [ATTR.genAiToolName]: 'every_echo',
        [ATTR.genAiOperationName]: 'execute_tool',
        [ATTR.mcpUpstreamId]: 'every',
      });
      expect(receiver.received.find((r) => r.path === '/v1/traces')?.contentType).toContain('json');
      const row = (await auditRecords(gateway.gateway)).find((r) => r.alias === 'every_echo');
      expect(row?.traceId).toBe(span.traceId);
      expect(
        otlpSpans(receiver.received).some((s) => s.name === 'tools/call echo' && s.traceId === span.traceId),
      ).toBe(true);
    } finally {
      await gateway.close();
      receiver.server.closeAllConnections();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    }
  });
});
