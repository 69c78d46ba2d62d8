/**
 * OTLP export failures, reported without flooding: at most one `telemetry.export_failed` warn line per signal
 * (traces, metrics) per interval, carrying how many failures since the last line were left out. A collector
 * that is down for an hour costs one line a minute per signal, not one per batch.
 */
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { Logger } from './logger.ts';

/** The telemetry signals an exporter sends. */
export type ExportSignal = 'traces' | 'metrics';

/** Called with the signal and the error of each failed export. */
export type ExportFailureListener = (signal: ExportSignal, error: unknown) => void;

/** The default interval between two lines of one signal. */
export const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;
const MAX_ERROR_CHARS = 300;

/** A listener that logs failures rate-limited; `now` is in milliseconds (any monotonic clock). */
export function createExportFailureReporter(options: {
  logger?: Logger | undefined;
  now: () => number;
  intervalMs?: number;
}): ExportFailureListener {
  const interval = options.intervalMs ?? EXPORT_FAILURE_LOG_INTERVAL_MS;
  const state = new Map<ExportSignal, { loggedAt: number; suppressed: number }>();
  return (signal, error) => {
    const now = options.now();
    const seen = state.get(signal);
    if (seen && now - seen.loggedAt < interval) {
      seen.suppressed += 1;
      return;
    }
    const text = error instanceof Error ? error.message : String(error ?? 'export failed');
    options.logger?.log(
      'telemetry.export_failed',
      { signal, error: text.split('\n', 1)[0]?.slice(0, MAX_ERROR_CHARS), suppressed: seen?.suppressed ?? 0 },
      'warn',
    );
    state.set(signal, { loggedAt: now, suppressed: 0 });
  };
}

/** Anything with the exporters' `export(items, done)` shape. */
type Exporting = { export(items: never, done: (result: ExportResult) => void): void };

/** Makes `exporter` tell `listener` about each export that did not succeed; returns the same exporter. */
export function reportingFailures<E extends Exporting>(
  exporter: E,
  signal: ExportSignal,
  listener: ExportFailureListener | undefined,
): E {
  if (!listener) return exporter;
  const target = exporter as unknown as {
    export(items: unknown, done: (result: ExportResult) => void): void;
  };
  const send = target.export.bind(target);
  target.export = (items, done) =>
    send(items, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) listener(signal, result.error);
      done(result);
    });
  return exporter;
}
