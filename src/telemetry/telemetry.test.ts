import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { MetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortcullisError } from '../errors/index.ts';
import type { CallRecord } from '../calls/index.ts';
import type { ExposedTool } from '../exposure/index.ts';
import { createMasker } from '../secrets/index.ts';
import { executionTargetOf } from './describe.ts';
import type { ToolCallFacts, ToolFacts } from './facts.ts';
import { createLogger } from './logger.ts';
import { createDeferredQueue, createTelemetry, type Telemetry } from './telemetry.ts';
import { traceContextFromMeta } from './trace-context.ts';

// Compile-time check: the gateway's CallRecord of an ended call (not a relayed round) and ExposedTool are
// accepted as they are.
export const recordFits = (record: CallRecord & { outcome: 'OK' | 'ERROR' }): ToolCallFacts => record;
export const toolFits = (tool: ExposedTool): ToolFacts => tool;

/** A metric reader collected on demand (the SDK's pull path, no exporter, no timer). */
class CollectingReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

const SECRET = 'tok-SECRET-123456';
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_PARENT = `00-${CLIENT_TRACE}-b7ad6b7169203331-01`;

const echoTool: ToolFacts = {
  alias: 'every_echo',
  origin: 'upstream',
  upstream: 'every',
  upstreamTool: 'echo',
  composition: 'upstream:every',
  hitl: 'REQUIRED',
  governance: {
    risk: {
      final: 'L3',
      effective: 'L2',
      server: { level: 'L1' },
      publish: { level: 'L3' },
      floorTrigger: null,
      hitlMitigated: true,
    },
    poisoning: { clean: true, matches: [] },
  },
};
const caller = { principal: { id: 'key:abc' }, profile: { name: 'readonly' }, sessionId: 's-1' };

interface Rig {
  telemetry: Telemetry;
  exporter: InMemorySpanExporter;
  reader: CollectingReader;
  lines: () => Record<string, unknown>[];
}

const rigs: Rig[] = [];

function createRig(captureArguments = false, now?: () => number): Rig {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingReader();
  const masker = createMasker([SECRET]);
  const written: string[] = [];
  const telemetry = createTelemetry({
    serviceName: 'portcullis-test',
    captureArguments,
    masker,
    logger: createLogger({ level: 'debug', masker, write: (line) => written.push(line) }),
    spanExporter: exporter,
    metricReader: reader,
    ...(now === undefined ? {} : { now }),
  });
  const rig = {
    // Span ends and tool events run after the answer; each traced request here waits for them before returning.
    telemetry: {
      ...telemetry,
      async traceRequest<T>(...args: Parameters<typeof telemetry.traceRequest<T>>): Promise<T> {
        try {
          return await telemetry.traceRequest(...args);
        } finally {
          await telemetry.settled();
        }
      },
    },
    exporter,
    reader,
    lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
  rigs.push(rig);
  return rig;
}

afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.telemetry.shutdown()));
});

const spanNamed = (exporter: InMemorySpanExporter, name: string): ReadableSpan => {
  const span = exporter.getFinishedSpans().find((s) => s.name === name);
  if (!span)
    throw new Error(
      `no span named ${name}: ${exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .join(', ')}`,
    );
  return span;
};

async function metricsOf(reader: CollectingReader): Promise<Map<string, MetricData>> {
  const { resourceMetrics } = await reader.collect();
  const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  return new Map(all.map((metric) => [metric.descriptor.name, metric]));
}

/** Drives one governed echo call the way the gateway does: request span, start, execution, record. */
async function echoCall(rig: Rig, finish: Partial<ToolCallFacts> = {}) {
  let forwarded: Record<string, unknown> | undefined;
  const result = await rig.telemetry.traceRequest(
    {
      method: 'tools/call',
      target: 'every_echo',
      sessionId: 's-1',
      principal: 'key:abc',
      profile: 'readonly',
      protocolVersion: '2025-11-25',
      requestId: 7,
      transport: 'tcp',
      ...traceContextFromMeta({ traceparent: CLIENT_PARENT, progressToken: 3 }),
    },
    async () => {
      rig.telemetry.toolStarted({ alias: 'every_echo', tool: echoTool, caller });
      const out = await rig.telemetry.traceExecution(
        executionTargetOf(echoTool, 'stdio'),
        async (meta) => {
          forwarded = meta;
          return { content: [{ type: 'text', text: `echo ${SECRET}` }] };
        },
        { traceparent: CLIENT_PARENT },
      );
      rig.telemetry.toolFinished({
        alias: 'every_echo',
        tool: echoTool,
        args: { message: `hello ${SECRET}` },
        caller,
        durationMs: 12,
        outcome: 'OK',
        approval: { decision: 'ask', mode: 'REQUIRED', elicitation: 'accept' },
        ...finish,
      });
      return out;
    },
  );
  return { result, forwarded };
}

describe('createTelemetry with an in-memory exporter', () => {
  it('emits a SERVER span per request with the MCP, GenAI and risk attributes, parented on the caller', async () => {
    const rig = createRig();
    await echoCall(rig);
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(CLIENT_TRACE);
    expect(server.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'mcp.session.id': 's-1',
      'enduser.id': 'key:abc',
      'portcullis.profile': 'readonly',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': '7',
      'network.transport': 'tcp',
      'gen_ai.tool.name': 'every_echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.cid': 'upstream:every',
      'mcp.origin': 'upstream',
      'mcp.upstream.id': 'every',
      'mcp.upstream.tool': 'echo',
      'mcp.composition.alias': 'every_echo',
      'mcp.composition.hitl': 'REQUIRED',
      'mcp.risk.level': 'L2',
      'mcp.risk.final': 'L3',
      'mcp.risk.server_level': 'L1',
      'mcp.risk.publish_level': 'L3',
      'mcp.risk.hitl_mitigated': true,
      'portcullis.outcome': 'ok',
    });
    expect(server.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(server.attributes['mcp.risk.floor_trigger']).toBeUndefined();
  });

  it('records the approval decision as an mcp.approval event', async () => {
    const rig = createRig();
    await echoCall(rig);
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    const approval = server.events.find((event) => event.name === 'mcp.approval');
    expect(approval?.attributes).toEqual({
      'mcp.approval.decision': 'ask',
      'mcp.approval.mode': 'REQUIRED',
      'mcp.approval.elicitation': 'accept',
    });
  });

  it('records each request the upstream put to the client as an mcp.upstream_request event, in order', async () => {
    const rig = createRig();
    await echoCall(rig, {
      caller: {
        ...caller,
        upstreamRequests: [
          { kind: 'elicitation', outcome: 'accept' },
          { kind: 'sampling', outcome: 'refused' },
        ],
      },
    });
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    expect(
      server.events.filter((event) => event.name === 'mcp.upstream_request').map((e) => e.attributes),
    ).toEqual([
      { 'mcp.upstream_request.kind': 'elicitation', 'mcp.upstream_request.outcome': 'accept' },
      { 'mcp.upstream_request.kind': 'sampling', 'mcp.upstream_request.outcome': 'refused' },
    ]);
    const plain = createRig();
    await echoCall(plain);
    expect(
      spanNamed(plain.exporter, 'tools/call every_echo').events.some(
        (e) => e.name === 'mcp.upstream_request',
      ),
    ).toBe(false);
  });

  it('runs the upstream call in a CLIENT child span and forwards its own trace context in _meta', async () => {
    const rig = createRig();
    const { forwarded } = await echoCall(rig);
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    const child = spanNamed(rig.exporter, 'tools/call echo');
    expect(child.kind).toBe(SpanKind.CLIENT);
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(child.attributes).toMatchObject({
      'mcp.upstream.id': 'every',
      'mcp.upstream.transport': 'stdio',
      'mcp.upstream.tool': 'echo',
      'mcp.origin': 'upstream',
      'gen_ai.operation.name': 'execute_tool',
    });
    expect(forwarded?.traceparent).toBe(`00-${CLIENT_TRACE}-${child.spanContext().spanId}-01`);
  });

  it('runs a local tool in an INTERNAL execute_tool span', async () => {
    const rig = createRig();
    const local: ToolFacts = { alias: 'hash_text', origin: 'local', localToolId: 'hash-text' };
    await rig.telemetry.traceRequest({ method: 'tools/call', target: 'hash_text' }, () =>
      rig.telemetry.traceExecution(executionTargetOf(local), async () => ({ content: [] })),
    );
    const child = spanNamed(rig.exporter, 'execute_tool hash-text');
    expect(child.kind).toBe(SpanKind.INTERNAL);
    expect(child.attributes).toMatchObject({ 'mcp.origin': 'local', 'mcp.local.tool_id': 'hash-text' });
  });

  it('marks a denied call as an error with its stable code', async () => {
    const rig = createRig();
    await rig.telemetry.traceRequest({ method: 'tools/call', target: 'gh_delete_repo' }, async () => {
      rig.telemetry.toolFinished({
        alias: 'gh_delete_repo',
        tool: {
          alias: 'gh_delete_repo',
          origin: 'upstream',
          upstream: 'gh',
          governance: { risk: { final: 'L5', effective: 'L5', floorTrigger: 'irreversible_verb' } },
        },
        caller,
        durationMs: 3,
        outcome: 'ERROR',
        errorCode: 'TOOL_DENIED',
        approval: { decision: 'deny', mode: 'AUTO_APPROVE', ruleId: 'no-deletes' },
      });
      return { isError: true, content: [], _meta: { 'dev.portcullis/error': { code: 'TOOL_DENIED' } } };
    });
    const server = spanNamed(rig.exporter, 'tools/call gh_delete_repo');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes).toMatchObject({
      'error.type': 'TOOL_DENIED',
      'portcullis.outcome': 'denied',
      'mcp.risk.level': 'L5',
      'mcp.risk.floor_trigger': 'irreversible_verb',
    });
    expect(server.events.find((e) => e.name === 'mcp.approval')?.attributes).toMatchObject({
      'mcp.approval.decision': 'deny',
      'mcp.approval.rule_id': 'no-deletes',
    });
  });

  it('marks a thrown request error and a failed execution, masking the message', async () => {
    const rig = createRig();
    await expect(
      rig.telemetry.traceRequest({ method: 'tools/call', target: 'every_echo' }, () =>
        rig.telemetry.traceExecution(executionTargetOf(echoTool), async () => {
          throw new PortcullisError('UPSTREAM_TIMEOUT', `no answer from https://x/?key=${SECRET}`);
        }),
      ),
    ).rejects.toThrow(PortcullisError);
    const child = spanNamed(rig.exporter, 'tools/call echo');
    expect(child.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'no answer from https://x/?key=***',
    });
    expect(child.attributes['error.type']).toBe('UPSTREAM_TIMEOUT');
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['error.type']).toBe('UPSTREAM_TIMEOUT');
  });

  it('puts masked arguments and results on the request span when captureArguments is on', async () => {
    const rig = createRig(true);
    await echoCall(rig);
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    const args = server.attributes['gen_ai.tool.call.arguments'];
    const result = server.attributes['gen_ai.tool.call.result'];
    expect(JSON.parse(String(args))).toEqual({ message: 'hello ***' });
    expect(String(result)).toContain('echo ***');
    const everything = JSON.stringify(rig.exporter.getFinishedSpans().map((s) => [s.attributes, s.events]));
    expect(everything).not.toContain(SECRET);
  });

  it('keeps arguments and results off spans when captureArguments is off', async () => {
    const rig = createRig(false);
    await echoCall(rig);
    for (const span of rig.exporter.getFinishedSpans()) {
      expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
    }
  });

  it('keeps concurrent requests apart (each tool event lands on its own request span)', async () => {
    const rig = createRig();
    const call = (alias: string, level: string, waitMs: number) =>
      rig.telemetry.traceRequest({ method: 'tools/call', target: alias }, async () => {
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        rig.telemetry.toolFinished({
          alias,
          tool: { alias, origin: 'local', governance: { risk: { final: level, effective: level } } },
          caller,
          durationMs: waitMs,
          outcome: 'OK',
        });
        return { content: [] };
      });
    await Promise.all([call('slow_tool', 'L4', 30), call('fast_tool', 'L1', 1)]);
    expect(spanNamed(rig.exporter, 'tools/call slow_tool').attributes['mcp.risk.level']).toBe('L4');
    expect(spanNamed(rig.exporter, 'tools/call fast_tool').attributes['mcp.risk.level']).toBe('L1');
  });

  it('starts a new trace when the caller sends a malformed traceparent', async () => {
    const rig = createRig();
    await rig.telemetry.traceRequest(
      { method: 'tools/list', ...traceContextFromMeta({ traceparent: '00-not-a-trace-01' }) },
      async () => ({ tools: [] }),
    );
    const span = spanNamed(rig.exporter, 'tools/list');
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.attributes['gen_ai.operation.name']).toBeUndefined();
  });

  it('reports a response scan as an event on the request span and a log line', async () => {
    const rig = createRig();
    await rig.telemetry.traceRequest({ method: 'prompts/get', target: 'inj_forecast' }, async () => {
      rig.telemetry.responseScanned({
        method: 'prompts/get',
        target: 'inj_forecast',
        upstream: 'inj',
        action: 'withheld',
        patterns: ['HIDDEN_INSTRUCTION'],
        fields: ['messages/0/content/text'],
        scannedChars: 120,
      });
      return {};
    });
    const span = spanNamed(rig.exporter, 'prompts/get inj_forecast');
    const event = span.events.find((e) => e.name === 'mcp.response_scan');
    expect(event?.attributes).toEqual({
      'mcp.method.name': 'prompts/get',
      'portcullis.response_scan.action': 'withheld',
      'mcp.poisoning.patterns': ['HIDDEN_INSTRUCTION'],
      'mcp.poisoning.fields': ['messages/0/content/text'],
      'portcullis.response_scan.scanned_chars': 120,
      'mcp.upstream.id': 'inj',
    });
    const line = rig.lines().find((l) => l['event'] === 'mcp.response.scan');
    expect(line).toMatchObject({ level: 'warn', target: 'inj_forecast', action: 'withheld' });
  });

  it('reports poisoning hits and fingerprint mismatches as events, inside and outside a request', async () => {
    const rig = createRig();
    rig.telemetry.hashLedgerMismatch({
      upstream: 'every',
      tool: 'echo',
      previousHash: 'aaa',
      hash: 'bbb',
      status: 'AWAITING_REREVIEW',
    });
    const standalone = spanNamed(rig.exporter, 'HashLedgerMismatch');
    expect(standalone.events[0]?.attributes).toMatchObject({
      'mcp.upstream.id': 'every',
      'mcp.fingerprint.previous_hash': 'aaa',
      'mcp.fingerprint.hash': 'bbb',
      'mcp.fingerprint.status': 'AWAITING_REREVIEW',
    });
    const poisoned: ToolFacts = {
      ...echoTool,
      governance: {
        poisoning: { clean: false, matches: [{ patternId: 'HIDDEN_INSTRUCTION', fieldPath: 'description' }] },
      },
    };
    await rig.telemetry.traceRequest({ method: 'tools/call', target: 'every_echo' }, async () => {
      rig.telemetry.toolFinished({
        alias: 'every_echo',
        tool: poisoned,
        caller,
        durationMs: 1,
        outcome: 'OK',
      });
      return { content: [] };
    });
    const server = spanNamed(rig.exporter, 'tools/call every_echo');
    expect(server.attributes['mcp.risk.poisoned']).toBe(true);
    expect(server.events.find((e) => e.name === 'PoisoningHit')?.attributes).toEqual({
      'mcp.poisoning.patterns': ['HIDDEN_INSTRUCTION'],
      'mcp.poisoning.fields': ['description'],
    });
    expect(rig.lines().find((l) => l.event === 'mcp.fingerprint.mismatch')).toMatchObject({
      level: 'warn',
      hash: 'bbb',
    });
  });

  it('records the operation duration, calls by outcome and risk, and approvals by decision', async () => {
    const rig = createRig();
    await echoCall(rig);
    await echoCall(rig, {
      outcome: 'ERROR',
      errorCode: 'TOOL_DENIED',
      approval: { decision: 'deny', mode: 'REQUIRED' },
    });
    const metrics = await metricsOf(rig.reader);

    const duration = metrics.get('mcp.server.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    const points = duration?.dataPoints ?? [];
    expect(points.map((p) => p.attributes)).toEqual(
      expect.arrayContaining([
        { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'every_echo', 'portcullis.outcome': 'ok' },
        {
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'every_echo',
          'portcullis.outcome': 'denied',
          'error.type': 'TOOL_DENIED',
        },
      ]),
    );

    const calls = metrics.get('portcullis.tool.calls')?.dataPoints ?? [];
    expect(calls.map((p) => [p.attributes, p.value])).toEqual(
      expect.arrayContaining([
        [
          {
            'gen_ai.tool.name': 'every_echo',
            'portcullis.outcome': 'ok',
            'mcp.risk.level': 'L2',
            'mcp.origin': 'upstream',
          },
          1,
        ],
        [
          {
            'gen_ai.tool.name': 'every_echo',
            'portcullis.outcome': 'denied',
            'mcp.risk.level': 'L2',
            'mcp.origin': 'upstream',
            'error.type': 'TOOL_DENIED',
          },
          1,
        ],
      ]),
    );

    const approvals = metrics.get('portcullis.approvals')?.dataPoints ?? [];
    expect(approvals.map((p) => [p.attributes['mcp.approval.decision'], p.value]).sort()).toEqual([
      ['ask', 1],
      ['deny', 1],
    ]);
  });

  it('never labels metrics with a client-sent tool name that did not resolve', async () => {
    const rig = createRig();
    const madeUp = `made_up_${'x'.repeat(40)}`;
    await rig.telemetry.traceRequest({ method: 'tools/call', target: madeUp }, async () => {
      rig.telemetry.toolFinished({
        alias: madeUp,
        caller,
        durationMs: 1,
        outcome: 'ERROR',
        errorCode: 'UNKNOWN_TOOL',
      });
      return { isError: true, content: [] };
    });
    const metrics = await metricsOf(rig.reader);
    const labels = JSON.stringify([
      metrics.get('mcp.server.operation.duration')?.dataPoints.map((p) => p.attributes),
      metrics.get('portcullis.tool.calls')?.dataPoints.map((p) => p.attributes),
    ]);
    expect(labels).not.toContain('made_up');
    expect(metrics.get('portcullis.tool.calls')?.dataPoints[0]?.attributes['gen_ai.tool.name']).toBe(
      '_OTHER',
    );
    // The span still names what the client asked for.
    expect(spanNamed(rig.exporter, `tools/call ${madeUp}`).attributes['gen_ai.tool.name']).toBe(madeUp);
  });

  it('logs mcp.tool.start and mcp.tool.done with the trace id, duration and masked fields', async () => {
    const rig = createRig();
    await echoCall(rig);
    const lines = rig.lines();
    const start = lines.find((l) => l.event === 'mcp.tool.start');
    const done = lines.find((l) => l.event === 'mcp.tool.done');
    const traceId = spanNamed(rig.exporter, 'tools/call every_echo').spanContext().traceId;
    expect(start).toMatchObject({
      alias: 'every_echo',
      upstream: 'every',
      risk: 'L2',
      principal: 'key:abc',
      profile: 'readonly',
      traceId,
    });
    expect(done).toMatchObject({
      alias: 'every_echo',
      outcome: 'OK',
      durationMs: 12,
      approval: 'ask',
      traceId,
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('logs mcp.tool.crash at error level when the call broke on the way', async () => {
    const rig = createRig();
    rig.telemetry.toolFinished({
      alias: 'every_echo',
      tool: echoTool,
      caller,
      durationMs: 5,
      outcome: 'ERROR',
      errorCode: 'UPSTREAM_UNAVAILABLE',
    });
    expect(rig.lines().find((l) => l.event === 'mcp.tool.crash')).toBeUndefined(); // not before the answer
    await rig.telemetry.settled();
    expect(rig.lines().find((l) => l.event === 'mcp.tool.crash')).toMatchObject({
      level: 'error',
      errorCode: 'UPSTREAM_UNAVAILABLE',
      durationMs: 5,
    });
  });
});

describe('createTelemetry without an endpoint', () => {
  it('starts no SDK, no exporter and no timer, and still logs tool events', async () => {
    const intervals = vi.spyOn(globalThis, 'setInterval');
    const timeouts = vi.spyOn(globalThis, 'setTimeout');
    try {
      const written: string[] = [];
      const masker = createMasker([SECRET]);
      const telemetry = createTelemetry({
        serviceName: 'portcullis',
        captureArguments: true,
        masker,
        logger: createLogger({ level: 'info', masker, write: (line) => written.push(line) }),
      });
      expect(telemetry.enabled).toBe(false);
      const meta = { traceparent: CLIENT_PARENT };
      const result = await telemetry.traceRequest(
        { method: 'tools/call', target: 'every_echo' },
        async () => {
          expect(telemetry.injectMeta(meta)).toBe(meta);
          const out = await telemetry.traceExecution(
            executionTargetOf(echoTool),
            async (forwarded) => {
              expect(forwarded).toBe(meta);
              return { content: [] };
            },
            meta,
          );
          telemetry.toolFinished({
            alias: 'every_echo',
            tool: echoTool,
            caller,
            durationMs: 2,
            outcome: 'OK',
          });
          return out;
        },
      );
      expect(result).toEqual({ content: [] });
      expect(telemetry.startRequestSpan({ method: 'tools/list' }).traceId).toBeUndefined();
      await telemetry.shutdown();
      expect(intervals).not.toHaveBeenCalled();
      expect(timeouts).not.toHaveBeenCalled();
      expect(written.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['mcp.tool.done']);
    } finally {
      intervals.mockRestore();
      timeouts.mockRestore();
    }
  });
});

describe('the call and approval counters', () => {
  const finish = (rig: Rig, tool: ToolFacts, outcome: 'OK' | 'ERROR' = 'OK') =>
    rig.telemetry.toolFinished({
      alias: tool.alias,
      tool,
      caller,
      durationMs: 1,
      outcome,
      ...(outcome === 'ERROR' ? { errorCode: 'UPSTREAM_TOOL_ERROR' } : {}),
      approval: { decision: 'allow', mode: 'REQUIRED', ruleId: 'r-1' },
    });
  const points = async (rig: Rig, name: string) =>
    (await metricsOf(rig.reader)).get(name)?.dataPoints.map((p) => [p.attributes, p.value]) ?? [];

  it('count each series, and series whose labels mask alike as one', async () => {
    const rig = createRig();
    const leaky = { ...echoTool, alias: `echo_${SECRET}_a` };
    const leakier = { ...echoTool, alias: `echo_${SECRET}_a`, upstream: 'other' };
    for (let i = 0; i < 3; i += 1) finish(rig, echoTool);
    finish(rig, echoTool, 'ERROR');
    finish(rig, leaky);
    finish(rig, leakier);
    await rig.telemetry.settled();
    const base = { 'gen_ai.tool.name': 'every_echo', 'mcp.risk.level': 'L2', 'mcp.origin': 'upstream' };
    expect(await points(rig, 'portcullis.tool.calls')).toEqual([
      [{ ...base, 'portcullis.outcome': 'ok' }, 3],
      [{ ...base, 'portcullis.outcome': 'error', 'error.type': 'UPSTREAM_TOOL_ERROR' }, 1],
      [{ ...base, 'gen_ai.tool.name': 'echo_***_a', 'portcullis.outcome': 'ok' }, 2],
    ]);
    expect(await points(rig, 'portcullis.approvals')).toEqual([
      [
        { 'mcp.approval.decision': 'allow', 'mcp.approval.rule_id': 'r-1', 'mcp.approval.mode': 'REQUIRED' },
        6,
      ],
    ]);
    // Cumulative: a second collection reports the totals so far.
    finish(rig, echoTool);
    await rig.telemetry.settled();
    expect((await points(rig, 'portcullis.tool.calls'))[0]).toEqual([
      { ...base, 'portcullis.outcome': 'ok' },
      4,
    ]);
  });

  it('stop minting series at 1999 and count the rest as one overflow series, as the SDK counter did', async () => {
    const rig = createRig();
    for (let i = 0; i < 2050; i += 1) finish(rig, { ...echoTool, alias: `tool_${i}` });
    await rig.telemetry.settled();
    const calls = await points(rig, 'portcullis.tool.calls');
    const overflow = calls.filter(([attrs]) => (attrs as Record<string, unknown>)['otel.metric.overflow']);
    expect(calls.reduce((sum, [, value]) => sum + (value as number), 0)).toBe(2050);
    expect(overflow.length).toBe(1);
    expect(calls.length).toBe(2000);
    expect(overflow[0]?.[1]).toBe(51);
  });
});

describe('deferred telemetry work', () => {
  it("runs a turn's work in order in one immediate, and an item that throws does not drop the rest", () => {
    vi.useFakeTimers({ toFake: ['setImmediate'] });
    try {
      const ran: string[] = [];
      const queue = createDeferredQueue();
      queue.defer(() => ran.push('a'));
      queue.defer(() => {
        throw new Error('boom');
      });
      queue.defer(() => ran.push('c'));
      expect(vi.getTimerCount()).toBe(1);
      expect(() => vi.runAllTimers()).toThrow('boom');
      vi.runAllTimers();
      expect(ran).toEqual(['a', 'c']);
    } finally {
      vi.useRealTimers();
    }
  });
});

/*
 * Everything the facade emits for a set of calls, pinned whole: every span (name, kind, parent, attributes,
 * events, status), every metric data point and every log line (ids, times and trace ids replaced by labels in
 * order of appearance). Written on the facade before its per-call cost was cut (issue 20), so that a cheaper
 * facade is shown to emit exactly what the old one did.
 */
const fingerprinted: ToolFacts = {
  ...echoTool,
  governance: { ...echoTool.governance, fingerprint: { hash: 'h1', profile: 'strict', status: 'approved' } },
};
const poisonedTool: ToolFacts = {
  alias: `poisoned_${SECRET}`,
  origin: 'upstream',
  upstream: 'inj',
  upstreamTool: 'weather',
  composition: 'mixed',
  governance: {
    risk: { final: 'L4', floorTrigger: 'poisoning' },
    poisoning: {
      clean: false,
      matches: [
        { patternId: 'STANDING_ORDER', fieldPath: 'description' },
        { patternId: 'CONCEALMENT_PHRASE', fieldPath: 'inputSchema.properties.city.description' },
        { patternId: 'STANDING_ORDER', fieldPath: 'description' },
      ],
    },
  },
};
const localTool: ToolFacts = { alias: 'calc', origin: 'local', localToolId: 'calc.add', composition: 'math' };
const guest = { principal: { id: 'key:abc' }, profile: { name: 'readonly' }, sessionId: `s-${SECRET}` };

/** Replaces each distinct value by a label in order of first appearance. */
function labeller(prefix: string) {
  const seen = new Map<string, string>();
  return (value: string | undefined) => {
    if (value === undefined) return undefined;
    let label = seen.get(value);
    if (label === undefined) {
      label = `${prefix}${seen.size}`;
      seen.set(value, label);
    }
    return label;
  };
}

async function emittedBy(rig: Rig) {
  await rig.telemetry.settled();
  const traces = labeller('trace-');
  const spans = labeller('span-');
  const spanRecords = rig.exporter.getFinishedSpans().map((span) => ({
    name: span.name,
    kind: span.kind,
    trace: traces(span.spanContext().traceId),
    span: spans(span.spanContext().spanId),
    parent: spans(span.parentSpanContext?.spanId),
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
  }));
  const { resourceMetrics } = await rig.reader.collect();
  const metrics = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .map((metric) => ({
      name: metric.descriptor.name,
      unit: metric.descriptor.unit,
      points: metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })),
    }));
  const logs = rig.lines().map((line) => {
    const { time, traceId, ...rest } = line;
    expect(typeof time).toBe('string');
    return traceId === undefined ? rest : { ...rest, traceId: traces(traceId as string) };
  });
  return { spans: spanRecords, metrics, logs };
}

async function callsOf(telemetry: Telemetry) {
  const finish = (tool: ToolFacts | undefined, alias: string, more: Partial<ToolCallFacts>) =>
    telemetry.toolFinished({
      alias,
      caller: guest,
      durationMs: 12,
      outcome: 'OK',
      ...(tool ? { tool } : {}),
      ...more,
    });

  // An approved upstream call in the active context, with a question put to the client.
  await telemetry.traceRequest(
    {
      method: 'tools/call',
      target: 'every_echo',
      sessionId: guest.sessionId,
      principal: 'key:abc',
      profile: 'readonly',
      protocolVersion: '2025-11-25',
      requestId: 7,
      transport: 'tcp',
      traceparent: CLIENT_PARENT,
      tracestate: 'vendor=1',
    },
    async () => {
      telemetry.toolStarted({ alias: 'every_echo', tool: fingerprinted, caller: guest });
      const out = await telemetry.traceExecution(
        executionTargetOf(fingerprinted, 'stdio'),
        async (meta) => ({
          content: [{ type: 'text', text: `echo ${SECRET}` }],
          _meta: { got: Object.keys(meta ?? {}) },
        }),
        { progressToken: 1 },
      );
      finish(fingerprinted, 'every_echo', {
        args: { message: `hello ${SECRET}` },
        approval: { decision: 'ask', mode: 'REQUIRED', elicitation: 'accept', ruleId: 'r1' },
        caller: {
          ...guest,
          upstreamRequests: [
            { kind: 'sampling', outcome: 'ok' },
            { kind: 'elicitation', outcome: 'decline' },
          ],
        },
      });
      return out;
    },
  );

  // A denied local call with the trace handed down (no async context).
  await telemetry.traceRequest(
    { method: 'tools/call', target: 'calc', requestId: 'r-8', transport: 'pipe' },
    async (trace) => {
      const handed = { ...guest, trace };
      telemetry.toolStarted({ alias: 'calc', tool: localTool, caller: handed });
      await telemetry.traceExecution(
        executionTargetOf(localTool),
        async (meta) => ({ content: [{ type: 'text', text: String(meta?.traceparent !== undefined) }] }),
        undefined,
        trace,
      );
      telemetry.responseScanned({
        trace,
        method: 'tools/call',
        target: 'calc',
        action: 'annotated',
        patterns: ['STANDING_ORDER'],
        fields: ['content[0].text'],
        scannedChars: 40,
        unscanned: 'char-cap',
      });
      finish(localTool, 'calc', {
        caller: handed,
        outcome: 'ERROR',
        errorCode: 'TOOL_DENIED',
        approval: { decision: 'deny', mode: null },
      });
      return { isError: true, content: [], _meta: { 'dev.portcullis/error': { code: 'TOOL_DENIED' } } };
    },
    'handed',
  );

  // A poisoned tool whose execution throws, then the request fails with a stable code.
  await expect(
    telemetry.traceRequest({ method: 'tools/call', target: poisonedTool.alias, requestId: 9 }, async () => {
      telemetry.toolStarted({ alias: poisonedTool.alias, tool: poisonedTool, caller: guest });
      await telemetry
        .traceExecution(executionTargetOf(poisonedTool), async () => {
          throw new Error(`upstream said ${SECRET}`);
        })
        .catch(() => undefined);
      telemetry.poisoningHit({
        alias: poisonedTool.alias,
        upstream: 'inj',
        tool: 'weather',
        patterns: ['STANDING_ORDER'],
        fields: ['description'],
      });
      finish(poisonedTool, poisonedTool.alias, { outcome: 'ERROR', errorCode: 'UPSTREAM_UNAVAILABLE' });
      throw new PortcullisError('UPSTREAM_UNAVAILABLE', `gone ${SECRET}`);
    }),
  ).rejects.toThrow();

  // A name that did not resolve, and a protocol error thrown by the handler.
  await telemetry.traceRequest({ method: 'tools/call', target: 'made_up', requestId: null }, async () => {
    finish(undefined, 'made_up', { outcome: 'ERROR', errorCode: 'UNKNOWN_TOOL' });
    return { isError: true, content: [] };
  });
  await expect(
    telemetry.traceRequest({ method: 'prompts/get', target: 'p1', requestId: 10 }, async () => {
      throw Object.assign(new Error('bad'), { code: -32602, data: { code: 'INVALID_ARGUMENTS' } });
    }),
  ).rejects.toThrow();

  // A parked call: its request answers input_required, the call finishes after that span has ended.
  let parked: Parameters<typeof telemetry.toolStarted>[0]['caller'] | undefined;
  await telemetry.traceRequest(
    { method: 'tools/call', target: 'every_echo', requestId: 11 },
    async (trace) => {
      parked = { ...guest, trace };
      telemetry.toolStarted({ alias: 'every_echo', tool: fingerprinted, caller: parked });
      return { resultType: 'input_required' };
    },
    'handed',
  );
  await telemetry.settled();
  finish(fingerprinted, 'every_echo', {
    caller: { ...(parked ?? guest), upstreamRequests: [{ kind: 'elicitation', outcome: 'accept' }] },
    approval: { decision: 'allow', mode: 'DISABLED' },
  });

  // Outside any request: a registry rebuild's fingerprint mismatch and poisoning hit, and a plain request.
  telemetry.hashLedgerMismatch({
    upstream: 'inj',
    tool: 'weather',
    previousHash: 'h0',
    hash: 'h1',
    status: 'AWAITING_REREVIEW',
  });
  telemetry.poisoningHit({ upstream: 'inj', tool: 'weather', patterns: ['CONCEALMENT_PHRASE'] });
  await telemetry.traceRequest({ method: 'tools/list', sessionId: 's-2' }, async () => ({ tools: [] }));
  // The same tool and approval again: its cached attributes are the same as the first time.
  await telemetry.traceRequest({ method: 'tools/call', target: 'every_echo', requestId: 12 }, async () => {
    telemetry.toolStarted({ alias: 'every_echo', tool: fingerprinted, caller: guest });
    await telemetry.traceExecution(executionTargetOf(fingerprinted, 'stdio'), async () => ({ content: [] }));
    finish(fingerprinted, 'every_echo', {
      approval: { decision: 'ask', mode: 'REQUIRED', elicitation: 'accept', ruleId: 'r1' },
    });
    return { content: [] };
  });
}

describe('what the facade emits for a set of calls', () => {
  it.each([false, true])('is the pinned record (captureArguments %s)', async (capture) => {
    let clock = 1000;
    const rig = createRig(capture, () => (clock += 7));
    await callsOf(rig.telemetry);
    const emitted = await emittedBy(rig);
    expect(JSON.stringify(emitted)).not.toContain(SECRET);
    expect(emitted.spans.some((s) => s.status.code === SpanStatusCode.ERROR)).toBe(true);
    expect(emitted).toMatchSnapshot();
  });
});
