/**
 * Everything the facade emits for a set of calls, pinned whole: every span (name, kind, parent, attributes,
 * events, status), every metric data point and every log line (ids, times and trace ids replaced by labels in
 * order of appearance). Written on the facade before its per-call cost was cut (issue 20), so that a cheaper
 * facade is shown to emit exactly what the old one did.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { PortcullisError } from '../errors/index.ts';
import { createMasker } from '../secrets/index.ts';
import { executionTargetOf } from './describe.ts';
import type { ToolCallFacts, ToolFacts } from './facts.ts';
import { createLogger } from './logger.ts';
import { createTelemetry, type Telemetry } from './telemetry.ts';

class CollectingReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

const SECRET = 'tok-SECRET-987654';
const CLIENT_PARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

const upstreamTool: ToolFacts = {
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
      hitlMitigated: true,
    },
    poisoning: { clean: true, matches: [] },
    fingerprint: { hash: 'h1', profile: 'strict', status: 'approved' },
  },
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
const caller = { principal: { id: 'key:abc' }, profile: { name: 'readonly' }, sessionId: `s-${SECRET}` };

const rigs: Telemetry[] = [];
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((t) => t.shutdown()));
});

function createRig(captureArguments: boolean) {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingReader();
  const masker = createMasker([SECRET]);
  const written: string[] = [];
  let clock = 1000;
  const telemetry = createTelemetry({
    serviceName: 'portcullis-test',
    captureArguments,
    masker,
    logger: createLogger({ level: 'debug', masker, write: (line) => written.push(line) }),
    spanExporter: exporter,
    metricReader: reader,
    now: () => (clock += 7),
  });
  rigs.push(telemetry);
  return { telemetry, exporter, reader, written };
}

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

async function record(rig: ReturnType<typeof createRig>) {
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
  const logs = rig.written.map((line) => {
    const { time, traceId, ...rest } = JSON.parse(line) as Record<string, unknown>;
    expect(typeof time).toBe('string');
    return traceId === undefined ? rest : { ...rest, traceId: traces(traceId as string) };
  });
  return { spans: spanRecords, metrics, logs };
}

async function callsOf(telemetry: Telemetry) {
  const finish = (tool: ToolFacts | undefined, alias: string, more: Partial<ToolCallFacts>) =>
    telemetry.toolFinished({
      alias,
      caller,
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
      sessionId: caller.sessionId,
      principal: 'key:abc',
      profile: 'readonly',
      protocolVersion: '2025-11-25',
      requestId: 7,
      transport: 'tcp',
      traceparent: CLIENT_PARENT,
      tracestate: 'vendor=1',
    },
    async () => {
      telemetry.toolStarted({ alias: 'every_echo', tool: upstreamTool, caller });
      const out = await telemetry.traceExecution(
        executionTargetOf(upstreamTool, 'stdio'),
        async (meta) => ({
          content: [{ type: 'text', text: `echo ${SECRET}` }],
          _meta: { got: Object.keys(meta ?? {}) },
        }),
        { progressToken: 1 },
      );
      finish(upstreamTool, 'every_echo', {
        args: { message: `hello ${SECRET}` },
        approval: { decision: 'ask', mode: 'REQUIRED', elicitation: 'accept', ruleId: 'r1' },
        caller: {
          ...caller,
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
      const handed = { ...caller, trace };
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
      telemetry.toolStarted({ alias: poisonedTool.alias, tool: poisonedTool, caller });
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
      parked = { ...caller, trace };
      telemetry.toolStarted({ alias: 'every_echo', tool: upstreamTool, caller: parked });
      return { resultType: 'input_required' };
    },
    'handed',
  );
  await telemetry.settled();
  finish(upstreamTool, 'every_echo', {
    caller: { ...(parked ?? caller), upstreamRequests: [{ kind: 'elicitation', outcome: 'accept' }] },
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
    telemetry.toolStarted({ alias: 'every_echo', tool: upstreamTool, caller });
    await telemetry.traceExecution(executionTargetOf(upstreamTool, 'stdio'), async () => ({ content: [] }));
    finish(upstreamTool, 'every_echo', {
      approval: { decision: 'ask', mode: 'REQUIRED', elicitation: 'accept', ruleId: 'r1' },
    });
    return { content: [] };
  });
}

describe('what the facade emits for a set of calls', () => {
  it.each([false, true])('is the pinned record (captureArguments %s)', async (capture) => {
    const rig = createRig(capture);
    await callsOf(rig.telemetry);
    const emitted = await record(rig);
    expect(JSON.stringify(emitted)).not.toContain(SECRET);
    expect(emitted.spans.some((s) => s.status.code === SpanStatusCode.ERROR)).toBe(true);
    expect(emitted).toMatchSnapshot();
  });
});
