/**
 * Starts the OpenTelemetry SDK for one gateway: a tracer provider (batched OTLP/HTTP export, or an injected
 * exporter behind a simple processor), a meter provider (periodic OTLP/HTTP export, or an injected reader), an
 * AsyncLocalStorage context manager and the W3C trace-context propagator. Nothing is registered globally: the
 * gateway holds its own instances, so two gateways in one process (tests) never share or fight over them.
 */
import type { Meter, TextMapPropagator, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type * as MetricsOtlp from '@opentelemetry/exporter-metrics-otlp-http';
import type * as TracesOtlp from '@opentelemetry/exporter-trace-otlp-http';
import { createRequire } from 'node:module';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { reportingFailures, type ExportFailureListener } from './export-failures.ts';
import { SCOPE_NAME } from './names.ts';

/** The longest attribute value a span keeps (captured arguments are cut shorter, at 4096). */
export const MAX_ATTRIBUTE_CHARS = 8192;

// The SDK's defaults (2048 and 512) drop spans when a burst of calls (16 in flight, thousands a second) ends while
// one export is on the wire; a larger batch also costs fewer requests per span. 8192 spans are a few megabytes.
const SPAN_QUEUE = 8192;
const SPAN_BATCH = 1024;

// The OTLP exporters (and the protobuf and HTTP machinery under them) are loaded only by a gateway that exports:
// they cost about a tenth of the CPU a gateway spends loading its modules at start, and with no endpoint nothing
// uses them. Both are CommonJS packages, so loading them synchronously here is what a static import would do.
const load = createRequire(import.meta.url);
const tracesOtlp = () => load('@opentelemetry/exporter-trace-otlp-http') as typeof TracesOtlp;
const metricsOtlp = () => load('@opentelemetry/exporter-metrics-otlp-http') as typeof MetricsOtlp;

/** Where and how telemetry is exported. */
export interface SdkOptions {
  serviceName: string;
  serviceVersion?: string | undefined;
  otlp?: { endpoint: string; headers: Record<string, string> } | undefined;
  /** Replaces the OTLP trace exporter (tests: InMemorySpanExporter, exported span by span). */
  spanExporter?: SpanExporter | undefined;
  /** Replaces the OTLP periodic metric reader (tests: a reader collected on demand). */
  metricReader?: IMetricReader | undefined;
  /** How often metrics are pushed over OTLP (default 60 s). */
  metricExportIntervalMs?: number | undefined;
  /** Told about each failed OTLP export (the exporters themselves stay silent). */
  onExportFailure?: ExportFailureListener | undefined;
}

/** The running SDK parts the telemetry facade uses. */
export interface Sdk {
  tracer: Tracer;
  meter: Meter;
  contextManager: AsyncLocalStorageContextManager;
  propagator: TextMapPropagator;
  /** Exports what is buffered without stopping. */
  forceFlush(): Promise<void>;
  /** Flushes and stops exporters, timers and the context manager; safe to call twice. */
  shutdown(): Promise<void>;
}

/** True when the options ask for any export at all (an OTLP endpoint or an injected exporter or reader). */
export function needsSdk(options: SdkOptions): boolean {
  return (
    (options.otlp?.endpoint ?? '') !== '' ||
    options.spanExporter !== undefined ||
    options.metricReader !== undefined
  );
}

/** The OTLP/HTTP URL of one signal under a base endpoint, e.g. `http://collector:4318/v1/traces`. */
export function otlpSignalUrl(endpoint: string, signal: 'traces' | 'metrics'): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/${signal}`;
}

function spanProcessors(options: SdkOptions): SpanProcessor[] {
  if (options.spanExporter) return [new SimpleSpanProcessor(options.spanExporter)];
  if (!options.otlp) return [];
  const exporter = reportingFailures(
    new (tracesOtlp().OTLPTraceExporter)({
      url: otlpSignalUrl(options.otlp.endpoint, 'traces'),
      headers: { ...options.otlp.headers },
    }),
    'traces',
    options.onExportFailure,
  );
  return [new BatchSpanProcessor(exporter, { maxQueueSize: SPAN_QUEUE, maxExportBatchSize: SPAN_BATCH })];
}

function metricReaders(options: SdkOptions): IMetricReader[] {
  if (options.metricReader) return [options.metricReader];
  if (!options.otlp) return [];
  const exporter = reportingFailures(
    new (metricsOtlp().OTLPMetricExporter)({
      url: otlpSignalUrl(options.otlp.endpoint, 'metrics'),
      headers: { ...options.otlp.headers },
    }),
    'metrics',
    options.onExportFailure,
  );
  return [
    new PeriodicExportingMetricReader({
      exporter,
      exportIntervalMillis: options.metricExportIntervalMs ?? 60_000,
    }),
  ];
}

/** Starts the SDK; call only when needsSdk(options) is true. */
export function startSdk(options: SdkOptions): Sdk {
  const resource = defaultResource().merge(
    resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      ...(options.serviceVersion === undefined ? {} : { [ATTR_SERVICE_VERSION]: options.serviceVersion }),
    }),
  );
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: spanProcessors(options),
    // Names and ids on spans can come from clients; a cap keeps one request from shipping megabytes.
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_CHARS },
  });
  const meterProvider = new MeterProvider({ resource, readers: metricReaders(options) });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  let stopped: Promise<void> | undefined;
  return {
    tracer: tracerProvider.getTracer(SCOPE_NAME, options.serviceVersion),
    meter: meterProvider.getMeter(SCOPE_NAME, options.serviceVersion),
    contextManager,
    propagator: new W3CTraceContextPropagator(),
    async forceFlush() {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    shutdown() {
      stopped ??= Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]).then(() => {
        contextManager.disable();
      });
      return stopped;
    },
  };
}
