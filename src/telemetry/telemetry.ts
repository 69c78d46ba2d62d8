/**
 * The telemetry facade of one gateway: a SERVER span per MCP request, a child span per upstream call or sandbox
 * run, the risk context and approval decision on the request span, the MCP operation-duration histogram and
 * Portcullis's call and approval counters, and the `mcp.tool.*` log events. With no OTLP endpoint and nothing
 * injected, no SDK object and no timer exists: spans and metrics are skipped, log events still flow.
 * Longer than most files on purpose: the request span, its child spans, the deferred end and the counters share
 * one call's private state, which a split would have to pass around.
 */
import {
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Meter,
  type MetricOptions,
  type SpanOptions,
  type Span,
} from '@opentelemetry/api';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ApprovalRecord } from '../audit/index.ts';
import type { Masker } from '../secrets/index.ts';
import {
  approvalAttributes,
  captureText,
  callOutcomeOf,
  errorTypeOf,
  maskAttributes,
  poisoningSummary,
  resultOutcomeOf,
  riskAttributes,
  riskLevelOf,
  toolLogEventOf,
  type RequestOutcome,
} from './describe.ts';
import type {
  ExecutionTarget,
  LedgerMismatchFacts,
  PoisoningHitFacts,
  ResponseScanFacts,
  RequestSpanInfo,
  RequestTrace,
  ToolCallFacts,
  ToolFacts,
  ToolStartFacts,
} from './facts.ts';
import type { Logger } from './logger.ts';
import { ATTR, DURATION_BUCKETS_S, EVENT, EXECUTE_TOOL, LOG_EVENT, METRIC, TOOL_ERROR } from './names.ts';
import { createExportFailureReporter } from './export-failures.ts';
import { needsSdk, startSdk, type Sdk } from './sdk.ts';

/** Options of createTelemetry; `config.telemetry` plus the masker and logger fit. */
export interface TelemetryOptions {
  serviceName: string;
  serviceVersion?: string | undefined;
  otlp?: { endpoint: string; headers: Record<string, string> } | undefined;
  /** Put (masked) tool arguments and results on spans. */
  captureArguments: boolean;
  /** Masks every string that leaves through spans, events and logs. */
  masker: Masker;
  /** Where `mcp.tool.*` events go; without one they are dropped. */
  logger?: Logger | undefined;
  /** Replaces the OTLP trace exporter (tests: InMemorySpanExporter). */
  spanExporter?: SpanExporter | undefined;
  /** Replaces the OTLP periodic metric reader (tests: a reader collected on demand). */
  metricReader?: IMetricReader | undefined;
  /** How often metrics are pushed over OTLP (default 60 s). */
  metricExportIntervalMs?: number | undefined;
  /** Monotonic milliseconds for durations (default performance.now). */
  now?: () => number;
}

/** The SERVER span of one MCP request. */
export interface RequestSpan {
  /** The trace id, or undefined when tracing is off. */
  readonly traceId: string | undefined;
  /** The request's trace, to hand explicitly to the code serving it; undefined when tracing is off. */
  readonly trace: RequestTrace | undefined;
  /** Runs `fn` with this span as the active context (child spans, injectMeta and tool events attach to it). */
  run<T>(fn: () => T): T;
  /** Marks the request failed with the error's stable code (`error.type`). */
  fail(error: unknown): void;
  /** Ends the span once, after the answer has left, and records the duration up to now; `result` (the MCP result) sets the outcome if nothing did. */
  end(result?: unknown): void;
}

/** Tracing, metrics and tool log events of one gateway. */
export interface Telemetry {
  /** True when the SDK runs (an endpoint or an injected exporter or reader). */
  readonly enabled: boolean;
  /** Starts the SERVER span of an MCP request; prefer traceRequest, which also runs and ends it. */
  startRequestSpan(info: RequestSpanInfo): RequestSpan;
  /**
   * Runs one MCP request handler inside its SERVER span: outcome from the result, failure from a throw. The
   * handler gets the request's trace; with `context: 'handed'` it must pass it on (`caller.trace`,
   * traceExecution's `parent`), as no async context is entered (the gateway's way: it costs nothing per promise);
   * by default the span is also the active context for code that cannot be handed it.
   */
  traceRequest<T>(
    info: RequestSpanInfo,
    handler: (trace: RequestTrace | undefined) => Promise<T>,
    context?: 'active' | 'handed',
  ): Promise<T>;
  /**
   * Runs the execute stage inside a child span (CLIENT for an upstream, INTERNAL for the sandbox) of `parent`, or
   * of the active request without one; `execute` receives `meta` with this span's W3C trace context injected, to
   * forward upstream as `_meta`.
   */
  traceExecution<T>(
    target: ExecutionTarget,
    execute: (meta: Record<string, unknown> | undefined) => Promise<T>,
    meta?: Record<string, unknown>,
    parent?: RequestTrace,
  ): Promise<T>;
  /** A copy of `meta` carrying the active span's `traceparent`/`tracestate`; `meta` itself when tracing is off. */
  injectMeta(meta?: Record<string, unknown>): Record<string, unknown> | undefined;
  /** Call once the tool is resolved: puts the risk context on the request span; logs `mcp.tool.start` after the turn. */
  toolStarted(facts: ToolStartFacts): void;
  /** Call from the record stage: span outcome, approval and poisoning events, counters, `mcp.tool.done|crash` (after the answer has left). */
  toolFinished(facts: ToolCallFacts): void;
  /** Reports a poisoning scan hit (event on the active request span, else on a span of its own) and logs it. */
  poisoningHit(hit: PoisoningHitFacts): void;
  /** Reports a fingerprint mismatch (event on the active request span, else on a span of its own) and logs it. */
  hashLedgerMismatch(mismatch: LedgerMismatchFacts): void;
  /** Reports a response scan with findings or an unscanned part (event on the active request span) and logs it. */
  responseScanned(facts: ResponseScanFacts): void;
  /** Resolves once the telemetry work deferred so far (span ends, tool events, logs, counters) has run. */
  settled(): Promise<void>;
  /** The trace id of `trace`, else of the request being handled; null outside a request (or with telemetry off). */
  currentTraceId(trace?: RequestTrace): string | null;
  /** Runs deferred work, flushes buffered spans and metrics and stops the exporters; safe to call twice. */
  shutdown(): Promise<void>;
}

/** The state of one request span: the RequestTrace handed out, and kept in the context so that tool events find it. */
interface RequestState extends RequestTrace {
  span: Span;
  /** The request's context: its span as the parent of child spans, and this state under REQUEST_KEY when it may be entered. */
  context: Context;
  method: string;
  /** The alias of the resolved tool; only this (never the client-sent name) labels metrics. */
  tool: string | undefined;
  /** The attributes toolStarted put on the span, so that toolFinished does not set them again. */
  toolContext: Attributes | undefined;
  startedAt: number;
  /** When the answer left, and the outcome its result shows (used if nothing set `outcome` by the end). */
  endedAt: number;
  answered: { readonly outcome: RequestOutcome; readonly errorType?: string } | undefined;
  outcome: RequestOutcome | undefined;
  errorType: string | undefined;
  rpcCode: string | undefined;
  ended: boolean;
}

const REQUEST_KEY = createContextKey('portcullis.telemetry.request');

const SERVER_SPAN: SpanOptions = { kind: SpanKind.SERVER };
const NO_UPSTREAM_REQUESTS: readonly Attributes[] = [];

// More distinct execution targets than any registry holds: the cache of their spans' attributes starts over.
const MAX_EXECUTION_TARGETS = 10_000;

// Metric label for a tool name that did not resolve: client-sent names must not mint new time series.
const OTHER = '_OTHER';

/** The `mcp.approval` attributes of one kind of decision: as made, masked, and its approval counter series. */
interface ApprovalSet {
  key: string;
  attrs: Attributes;
  masked: Attributes;
  counted: () => Attributes;
}

interface Instruments {
  duration: Histogram;
  calls: SummedCounter;
  approvals: SummedCounter;
}

/**
 * A monotonic counter summed here and reported at each collection (an observable counter): an add finds its
 * series by a short key, where the SDK's own counter sorts and serializes the attributes of every add.
 */
interface SummedCounter {
  /** Adds 1 to the series of `key`; `attributes` (masked) is called once, when the key is first seen. */
  add(key: string, attributes: () => Attributes): void;
}

// The SDK keeps 1999 attribute sets per instrument and counts the rest under `otel.metric.overflow` (its
// cardinality limit of 2000): past that many keys, adds go to the overflow series here, as the SDK counter did.
const MAX_SERIES = 1999;
const OVERFLOW_ATTRIBUTES: Attributes = { 'otel.metric.overflow': true };

function summedCounter(meter: Meter, name: string, options: MetricOptions): SummedCounter {
  const series = new Map<string, { attributes: Attributes; value: number }>();
  const overflow = { attributes: OVERFLOW_ATTRIBUTES, value: 0 };
  meter.createObservableCounter(name, options).addCallback((result) => {
    // Two keys can mask to the same attributes: their sums are one series.
    const merged = new Map<string, { attributes: Attributes; value: number }>();
    for (const entry of [...series.values(), overflow]) {
      if (entry.value === 0) continue;
      const id = JSON.stringify(entry.attributes);
      const seen = merged.get(id);
      if (seen) seen.value += entry.value;
      else merged.set(id, { ...entry });
    }
    for (const { attributes, value } of merged.values()) result.observe(value, attributes);
  });
  return {
    add(key, attributes) {
      let entry = series.get(key);
      if (entry === undefined) {
        if (series.size >= MAX_SERIES) entry = overflow;
        else {
          entry = { attributes: attributes(), value: 0 };
          series.set(key, entry);
        }
      }
      entry.value += 1;
    },
  };
}

// The label values of a series as its key: each value length-prefixed (`undefined` is `-`), so no two lists of
// values share one; cheaper than JSON, which scans every character for escapes.
const keyOf = (...values: (string | undefined)[]): string => {
  let key = '';
  for (const value of values) key += value === undefined ? '-|' : `${value.length}:${value}|`;
  return key;
};

function createInstruments(sdk: Sdk): Instruments {
  return {
    duration: sdk.meter.createHistogram(METRIC.operationDuration, {
      unit: 's',
      description: 'MCP request duration as observed by Portcullis, from receipt to answer.',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    }),
    calls: summedCounter(sdk.meter, METRIC.toolCalls, {
      unit: '{call}',
      description: 'Tool calls through Portcullis by outcome and risk level.',
    }),
    approvals: summedCounter(sdk.meter, METRIC.approvals, {
      unit: '{decision}',
      description: 'Approval decisions by decision, HITL mode and elicitation answer.',
    }),
  };
}

/** Deferred work: a function and the two arguments it is called with (no closure is made per call). */
type Work<A, B> = (a: A, b: B) => void;

/**
 * Queues telemetry work that must not delay a call: it runs after the current turn, by which time the turn's
 * answers have been handed to the transport and its upstream requests written (so a call's start is logged while
 * it waits for the upstream). Work runs in the order it was deferred, all of a turn's work in one immediate; it
 * does not run in its deferrer's async context, so it is handed the request state it needs. Each item is kept as
 * its function and arguments side by side in one array: work deferred by every call costs no closure.
 */
export function createDeferredQueue(): {
  defer<A = undefined, B = undefined>(work: Work<A, B>, a?: A, b?: B): void;
  settled(): Promise<void>;
} {
  let queue: unknown[] = [];
  const drain = () => {
    const items = queue;
    queue = [];
    let done = 0;
    try {
      for (; done < items.length; done += 3)
        (items[done] as Work<unknown, unknown>)(items[done + 1], items[done + 2]);
    } finally {
      // An item that throws surfaces as before (an uncaught error), and the items after it still run.
      if (done + 3 < items.length) {
        if (queue.length === 0) setImmediate(drain);
        queue = [...items.slice(done + 3), ...queue];
      }
    }
  };
  return {
    defer(work, a, b) {
      if (queue.length === 0) setImmediate(drain);
      queue.push(work, a, b);
    },
    // Immediates run in the order they were queued: this one runs after the drain of the work queued so far.
    settled: () => new Promise((resolve) => setImmediate(resolve)),
  };
}

const NOOP_REQUEST_SPAN: RequestSpan = {
  traceId: undefined,
  trace: undefined,
  run: (fn) => fn(),
  fail: () => {},
  end: () => {},
};

/** Sets the request's attributes on its span, each masked (no attribute object is made per request). */
function putRequestAttributes(span: Span, info: RequestSpanInfo, mask: (text: string) => string): void {
  span.setAttribute(ATTR.mcpMethodName, mask(info.method));
  if (info.sessionId !== undefined) span.setAttribute(ATTR.mcpSessionId, mask(info.sessionId));
  if (info.principal !== undefined) span.setAttribute(ATTR.enduserId, mask(info.principal));
  if (info.profile !== undefined) span.setAttribute(ATTR.profile, mask(info.profile));
  if (info.protocolVersion !== undefined)
    span.setAttribute(ATTR.mcpProtocolVersion, mask(info.protocolVersion));
  // The conventions ask not to record a null or absent id (a notification).
  if (info.requestId !== undefined && info.requestId !== null)
    span.setAttribute(ATTR.jsonrpcRequestId, mask(String(info.requestId)));
  if (info.transport !== undefined) span.setAttribute(ATTR.networkTransport, mask(info.transport));
  if (info.method === 'tools/call' && info.target !== undefined) {
    span.setAttribute(ATTR.genAiToolName, mask(info.target));
    span.setAttribute(ATTR.genAiOperationName, mask(EXECUTE_TOOL));
  }
}

function executionSpan(target: ExecutionTarget): { name: string; kind: SpanKind; attrs: Attributes } {
  if (target.origin === 'local') {
    return {
      name: `${EXECUTE_TOOL} ${target.toolId}`,
      kind: SpanKind.INTERNAL,
      attrs: {
        [ATTR.genAiOperationName]: EXECUTE_TOOL,
        [ATTR.genAiToolName]: target.toolId,
        [ATTR.mcpOrigin]: 'local',
        [ATTR.mcpLocalToolId]: target.toolId,
      },
    };
  }
  return {
    name: `tools/call ${target.tool}`,
    kind: SpanKind.CLIENT,
    attrs: {
      [ATTR.mcpMethodName]: 'tools/call',
      [ATTR.genAiOperationName]: EXECUTE_TOOL,
      [ATTR.genAiToolName]: target.tool,
      [ATTR.mcpOrigin]: 'upstream',
      [ATTR.mcpUpstreamId]: target.upstream,
      [ATTR.mcpUpstreamTool]: target.tool,
      ...(target.transport === undefined ? {} : { [ATTR.mcpUpstreamTransport]: target.transport }),
    },
  };
}

/** Creates the telemetry of one gateway; without an endpoint or injected exporter it starts nothing. */
export function createTelemetry(options: TelemetryOptions): Telemetry {
  const { masker, logger } = options;
  const now = options.now ?? (() => performance.now());
  const sdk = needsSdk(options)
    ? startSdk({
        ...options,
        onExportFailure: createExportFailureReporter({ logger, now: () => performance.now() }),
      })
    : undefined;
  const instruments = sdk ? createInstruments(sdk) : undefined;

  const activeContext = (): Context => sdk?.contextManager.active() ?? ROOT_CONTEXT;
  const activeRequest = (): RequestState | undefined =>
    activeContext().getValue(REQUEST_KEY) as RequestState | undefined;
  // A RequestTrace is only ever made here (a RequestState); without one, the active request if any.
  const requestOf = (handed: RequestTrace | undefined): RequestState | undefined =>
    (handed as RequestState | undefined) ?? activeRequest();
  const deferred = createDeferredQueue();
  const afterThisTurn = deferred.defer;
  // Spans are an egress like logs: every string attribute is masked before it is set.
  const mask = (text: string) => masker.mask(text);

  const log = (
    event: string,
    fields: Record<string, unknown>,
    level: 'info' | 'warn' | 'error',
    state: RequestState | undefined,
  ) => {
    if (!logger) return;
    if (state !== undefined) fields.traceId = state.traceId;
    logger.log(event, fields, level);
  };

  const markFailed = (span: Span, errorType: string, message?: string) => {
    span.setAttribute(ATTR.errorType, mask(errorType));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      ...(message === undefined ? {} : { message: mask(message) }),
    });
  };

  // The duration's labels (method, resolved tool, outcome, error type) take few values: each set is made and
  // masked once. The method and error type can come from a client, so the cache starts over past a bound.
  const durationAttributes = new Map<string, Attributes>();
  const durationAttributesOf = (
    method: string,
    tool: string | undefined,
    outcome: RequestOutcome,
    errorType: string | undefined,
  ): Attributes => {
    const key = keyOf(method, tool, outcome, errorType);
    let attrs = durationAttributes.get(key);
    if (attrs === undefined) {
      attrs = { [ATTR.mcpMethodName]: method };
      if (tool !== undefined) attrs[ATTR.genAiToolName] = tool;
      attrs[ATTR.outcome] = outcome;
      if (errorType !== undefined) attrs[ATTR.errorType] = errorType;
      attrs = maskAttributes(attrs, masker);
      if (durationAttributes.size >= MAX_SERIES) durationAttributes.clear();
      durationAttributes.set(key, attrs);
    }
    return attrs;
  };

  const endRequest = (state: RequestState) => {
    if (state.ended) return;
    state.ended = true;
    if (state.outcome === undefined) {
      const seen = state.answered ?? resultOutcomeOf(undefined);
      state.outcome = seen.outcome;
      if (seen.errorType !== undefined) state.errorType = seen.errorType;
    }
    if (state.errorType !== undefined) markFailed(state.span, state.errorType);
    if (state.rpcCode !== undefined) state.span.setAttribute(ATTR.rpcResponseStatusCode, state.rpcCode);
    state.span.setAttribute(ATTR.outcome, state.outcome);
    state.span.end();
    instruments?.duration.record(
      (state.endedAt - state.startedAt) / 1000,
      durationAttributesOf(state.method, state.tool, state.outcome, state.errorType),
    );
  };

  // The request's span and state; with the SDK off, none. Shared by startRequestSpan and traceRequest, which
  // keeps the per-request path free of closures made per call. Only a context that may be entered (`entered`)
  // carries the state for activeRequest: a handed one is read for its span alone, and each value set on a
  // context copies its map.
  const openRequest = (running: Sdk, info: RequestSpanInfo, entered: boolean): RequestState => {
    let parent = ROOT_CONTEXT;
    if (info.traceparent !== undefined) {
      const carrier: Record<string, string> = { traceparent: info.traceparent };
      if (info.tracestate !== undefined) carrier.tracestate = info.tracestate;
      parent = running.propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    }
    const name = mask(info.target === undefined ? info.method : `${info.method} ${info.target}`);
    const span = running.tracer.startSpan(name, SERVER_SPAN, parent);
    putRequestAttributes(span, info, mask);
    const state: RequestState = {
      traceId: span.spanContext().traceId,
      span,
      context: parent,
      method: info.method,
      tool: undefined,
      toolContext: undefined,
      startedAt: now(),
      endedAt: 0,
      answered: undefined,
      outcome: undefined,
      errorType: undefined,
      rpcCode: undefined,
      ended: false,
    };
    state.context = trace.setSpan(parent, span);
    if (entered) state.context = state.context.setValue(REQUEST_KEY, state);
    return state;
  };
  const failRequest = (state: RequestState, error: unknown) => {
    const { errorType, rpcCode } = errorTypeOf(error);
    state.outcome = 'error';
    state.errorType = errorType;
    if (rpcCode !== undefined) state.rpcCode = rpcCode;
  };
  // The result's outcome is read now (a few property reads), so that the deferred end need not keep the result.
  const endRequestLater = (state: RequestState, result: unknown) => {
    state.endedAt = now();
    state.answered = resultOutcomeOf(result);
    afterThisTurn(endRequest, state);
  };

  const startRequestSpan = (info: RequestSpanInfo): RequestSpan => {
    if (!sdk) return NOOP_REQUEST_SPAN;
    const state = openRequest(sdk, info, true);
    return {
      traceId: state.traceId,
      trace: state,
      run: (fn) => sdk.contextManager.with(state.context, fn),
      fail: (error) => failRequest(state, error),
      end: (result) => endRequestLater(state, result),
    };
  };

  const injectInto = (
    context: Context,
    meta: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined => {
    if (!sdk || !trace.getSpan(context)) return meta;
    const carrier: Record<string, unknown> = { ...meta };
    sdk.propagator.inject(context, carrier, defaultTextMapSetter);
    return carrier;
  };
  const injectMeta = (meta?: Record<string, unknown>) => injectInto(activeContext(), meta);

  // A tool's risk context changes only with its definition, which makes a new governance object: the masked
  // attributes are kept per tool object and remade when any field they are made of differs.
  const toolContexts = new WeakMap<ToolFacts, { made: unknown[]; attrs: Attributes }>();
  const toolContextOf = (tool: ToolFacts | undefined, alias: string): Attributes => {
    if (!tool) return maskAttributes({ [ATTR.genAiToolName]: alias, ...riskAttributes(tool) }, masker);
    const made = [
      alias,
      tool.alias,
      tool.origin,
      tool.composition,
      tool.hitl,
      tool.upstream,
      tool.upstreamTool,
      tool.localToolId,
      tool.governance,
    ];
    const cached = toolContexts.get(tool);
    if (cached && cached.made.every((value, i) => value === made[i])) return cached.attrs;
    const attrs = maskAttributes({ [ATTR.genAiToolName]: alias, ...riskAttributes(tool) }, masker);
    toolContexts.set(tool, { made, attrs });
    return attrs;
  };

  // The child span's name and attributes depend on the target alone: made and masked once per target. Targets
  // are resolved tools (bounded by the registry); the map is emptied if it ever grows past that.
  const executionSpans = new Map<string, { name: string; options: SpanOptions; attrs: Attributes }>();
  const executionSpanOf = (target: ExecutionTarget) => {
    const key =
      target.origin === 'local'
        ? keyOf(target.toolId)
        : keyOf(target.upstream, target.tool, target.transport);
    let made = executionSpans.get(key);
    if (made === undefined) {
      const { name, kind, attrs } = executionSpan(target);
      made = { name: mask(name), options: { kind }, attrs: maskAttributes(attrs, masker) };
      if (executionSpans.size >= MAX_EXECUTION_TARGETS) executionSpans.clear();
      executionSpans.set(key, made);
    }
    return made;
  };

  const putToolContext = (state: RequestState, tool: ToolFacts | undefined, alias: string) => {
    if (tool) state.tool = tool.alias;
    const attrs = toolContextOf(tool, alias);
    // Nothing else sets these keys between toolStarted and toolFinished: the same object need not be set twice.
    if (state.toolContext === attrs) return;
    state.toolContext = attrs;
    state.span.setAttributes(attrs);
  };

  const governanceEvent = (name: string, attrs: Attributes, state: RequestState | undefined) => {
    if (!sdk) return;
    const masked = maskAttributes(attrs, masker);
    if (state && !state.ended) {
      state.span.addEvent(name, masked);
      return;
    }
    // Outside a request (a registry rebuild), the event gets a span of its own so it still reaches the backend.
    const parent = state?.context ?? activeContext();
    const span = sdk.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: masked }, parent);
    span.addEvent(name, masked);
    span.end();
  };

  // An approval's event attributes take the few values of (decision, rule, mode, answer): each set is made and
  // masked once, with its counter series key. Rules come from the configuration; past a bound the cache starts over.
  const approvals = new Map<string, ApprovalSet>();
  const approvalSetOf = (decision: ApprovalRecord): ApprovalSet => {
    const key = keyOf(
      decision.decision,
      decision.ruleId,
      decision.mode ?? undefined,
      decision.elicitation ?? undefined,
    );
    // A record without a mode (not what the audit stage makes) is described afresh: its attributes keep the gap.
    const cacheable = decision.mode !== undefined;
    let set = cacheable ? approvals.get(key) : undefined;
    if (set === undefined) {
      const attrs = approvalAttributes(decision) as Attributes;
      const masked = maskAttributes(attrs, masker);
      set = { key, attrs, masked, counted: () => masked };
      if (cacheable) {
        if (approvals.size >= MAX_SERIES) approvals.clear();
        approvals.set(key, set);
      }
    }
    return set;
  };

  const logToolStart = (facts: ToolStartFacts, state: RequestState | undefined) =>
    log(
      LOG_EVENT.toolStart,
      {
        alias: facts.alias,
        origin: facts.tool?.origin,
        upstream: facts.tool?.upstream,
        upstreamTool: facts.tool?.upstreamTool,
        composition: facts.tool?.composition,
        principal: facts.caller.principal.id,
        profile: facts.caller.profile?.name,
        sessionId: facts.caller.sessionId,
        risk: riskLevelOf(facts.tool),
      },
      'info',
      state,
    );

  const finishTool = (facts: ToolCallFacts, state: RequestState | undefined) => {
    const outcome = callOutcomeOf(facts);
    const risk = riskLevelOf(facts.tool);
    const approval = facts.approval === undefined ? undefined : approvalSetOf(facts.approval);
    const poisoning = facts.tool?.governance?.poisoning;
    const poisoned = poisoning && !poisoning.clean ? poisoningSummary(poisoning.matches) : undefined;
    const poisoningAttrs = poisoned
      ? { [ATTR.poisoningPatterns]: poisoned.patterns, [ATTR.poisoningFields]: poisoned.fields }
      : undefined;
    const asked = facts.caller.upstreamRequests;
    const upstreamRequests =
      asked === undefined || asked.length === 0
        ? NO_UPSTREAM_REQUESTS
        : asked.map((r) => ({
            [ATTR.upstreamRequestKind]: r.kind,
            [ATTR.upstreamRequestOutcome]: r.outcome,
          }));
    if (state && !state.ended) {
      putToolContext(state, facts.tool, facts.alias);
      if (approval) state.span.addEvent(EVENT.approval, approval.masked);
      if (poisoningAttrs) state.span.addEvent(EVENT.poisoningHit, maskAttributes(poisoningAttrs, masker));
      for (const attrs of upstreamRequests) state.span.addEvent(EVENT.upstreamRequest, attrs);
      if (options.captureArguments && facts.args !== undefined)
        state.span.setAttribute(ATTR.genAiToolCallArguments, captureText(facts.args, masker));
      state.outcome = outcome;
      if (facts.outcome === 'ERROR') state.errorType = facts.errorCode ?? TOOL_ERROR;
    } else if (state) {
      // A parked modern-era call finishes after the span of its first request has ended (that request answered
      // input_required): its events get spans of their own in that request's trace.
      if (approval) governanceEvent(EVENT.approval, approval.attrs, state);
      if (poisoningAttrs) governanceEvent(EVENT.poisoningHit, poisoningAttrs, state);
      for (const attrs of upstreamRequests) governanceEvent(EVENT.upstreamRequest, attrs, state);
    }
    const errorType = facts.outcome === 'ERROR' ? (facts.errorCode ?? TOOL_ERROR) : undefined;
    instruments?.calls.add(
      keyOf(facts.tool?.alias ?? OTHER, outcome, risk, facts.tool?.origin, errorType),
      () =>
        maskAttributes(
          {
            [ATTR.genAiToolName]: facts.tool?.alias ?? OTHER,
            [ATTR.outcome]: outcome,
            [ATTR.mcpRiskLevel]: risk,
            ...(facts.tool === undefined ? {} : { [ATTR.mcpOrigin]: facts.tool.origin }),
            ...(errorType === undefined ? {} : { [ATTR.errorType]: errorType }),
          },
          masker,
        ),
    );
    if (approval) instruments?.approvals.add(approval.key, approval.counted);
    const event = toolLogEventOf(facts);
    log(
      event,
      {
        alias: facts.alias,
        origin: facts.tool?.origin,
        upstream: facts.tool?.upstream,
        principal: facts.caller.principal.id,
        profile: facts.caller.profile?.name,
        sessionId: facts.caller.sessionId,
        outcome: facts.outcome,
        errorCode: facts.errorCode,
        durationMs: facts.durationMs,
        risk,
        approval: facts.approval?.decision,
      },
      event === LOG_EVENT.toolCrash ? 'error' : 'info',
      state,
    );
  };

  const traceRequest = async <T>(
    info: RequestSpanInfo,
    handler: (trace: RequestTrace | undefined) => Promise<T>,
    context: 'active' | 'handed' = 'active',
  ): Promise<T> => {
    if (!sdk) return handler(undefined);
    const state = openRequest(sdk, info, context === 'active');
    try {
      const result = await (context === 'handed'
        ? handler(state)
        : sdk.contextManager.with(state.context, handler, undefined, state));
      endRequestLater(state, result);
      return result;
    } catch (error) {
      failRequest(state, error);
      endRequestLater(state, undefined);
      throw error;
    }
  };

  // The execute stage inside its span `span` (context `context`); `request` when the parent was handed over.
  const executeIn = async <T>(
    span: Span,
    context: Context,
    request: RequestState | undefined,
    execute: (meta: Record<string, unknown> | undefined) => Promise<T>,
    meta: Record<string, unknown> | undefined,
  ): Promise<T> => {
    try {
      const result = await execute(injectInto(context, meta));
      const seen = resultOutcomeOf(result);
      if (seen.errorType !== undefined) markFailed(span, seen.errorType);
      if (options.captureArguments) {
        const holder = (request ?? activeRequest())?.span ?? span;
        holder.setAttribute(ATTR.genAiToolCallResult, captureText(result, masker));
      }
      return result;
    } catch (error) {
      markFailed(span, errorTypeOf(error).errorType, error instanceof Error ? error.message : undefined);
      throw error;
    } finally {
      span.end();
    }
  };

  const traceExecution = async <T>(
    target: ExecutionTarget,
    execute: (meta: Record<string, unknown> | undefined) => Promise<T>,
    meta?: Record<string, unknown>,
    handed?: RequestTrace,
  ): Promise<T> => {
    if (!sdk) return execute(meta);
    const request = handed as RequestState | undefined;
    const parent = request?.context ?? activeContext();
    const { name, options: spanOptions, attrs } = executionSpanOf(target);
    const span = sdk.tracer.startSpan(name, spanOptions, parent);
    span.setAttributes(attrs);
    const context = trace.setSpan(parent, span);
    // With the parent handed over, nothing below reads the async context: none is entered.
    return request
      ? executeIn(span, context, request, execute, meta)
      : sdk.contextManager.with(context, executeIn<T>, undefined, span, context, undefined, execute, meta);
  };

  return {
    enabled: sdk !== undefined,
    startRequestSpan,

    traceRequest,

    traceExecution,

    injectMeta,

    toolStarted(facts) {
      const state = requestOf(facts.caller.trace);
      if (state && !state.ended) putToolContext(state, facts.tool, facts.alias);
      afterThisTurn(logToolStart, facts, state);
    },

    toolFinished(facts) {
      const state = requestOf(facts.caller.trace);
      afterThisTurn(finishTool, facts, state);
    },

    poisoningHit(hit) {
      const attrs: Attributes = {
        [ATTR.genAiToolName]: hit.alias ?? hit.tool,
        [ATTR.mcpUpstreamTool]: hit.tool,
        [ATTR.poisoningPatterns]: [...hit.patterns],
        ...(hit.upstream === undefined ? {} : { [ATTR.mcpUpstreamId]: hit.upstream }),
        ...(hit.fields === undefined ? {} : { [ATTR.poisoningFields]: [...hit.fields] }),
      };
      const state = activeRequest();
      governanceEvent(EVENT.poisoningHit, attrs, state);
      log(
        LOG_EVENT.poisoningHit,
        {
          alias: hit.alias,
          upstream: hit.upstream,
          tool: hit.tool,
          patterns: hit.patterns,
          fields: hit.fields,
        },
        'warn',
        state,
      );
    },

    hashLedgerMismatch(mismatch) {
      const attrs: Attributes = {
        [ATTR.mcpUpstreamId]: mismatch.upstream,
        [ATTR.mcpUpstreamTool]: mismatch.tool,
        [ATTR.ledgerHash]: mismatch.hash,
        ...(mismatch.previousHash === undefined ? {} : { [ATTR.ledgerPreviousHash]: mismatch.previousHash }),
        ...(mismatch.status === undefined ? {} : { [ATTR.mcpFingerprintStatus]: mismatch.status }),
      };
      const state = activeRequest();
      governanceEvent(EVENT.hashLedgerMismatch, attrs, state);
      log(LOG_EVENT.hashLedgerMismatch, { ...mismatch }, 'warn', state);
    },

    responseScanned({ trace: handed, ...facts }) {
      const state = requestOf(handed);
      governanceEvent(
        EVENT.responseScan,
        {
          [ATTR.mcpMethodName]: facts.method,
          [ATTR.responseScanAction]: facts.action,
          [ATTR.poisoningPatterns]: [...facts.patterns],
          [ATTR.poisoningFields]: [...facts.fields],
          [ATTR.responseScanScannedChars]: facts.scannedChars,
          ...(facts.upstream === undefined ? {} : { [ATTR.mcpUpstreamId]: facts.upstream }),
          ...(facts.unscanned === undefined ? {} : { [ATTR.responseScanUnscanned]: facts.unscanned }),
        },
        state,
      );
      log(LOG_EVENT.responseScan, facts, facts.patterns.length > 0 ? 'warn' : 'info', state);
    },

    currentTraceId: (handed) => requestOf(handed)?.traceId ?? null,

    settled: deferred.settled,

    async shutdown() {
      // Spans and log lines deferred past the answers of the last calls are recorded before the exporters stop.
      await deferred.settled();
      await sdk?.shutdown();
    },
  };
}
