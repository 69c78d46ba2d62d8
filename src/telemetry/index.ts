/**
 * telemetry: structured JSON logs with masking (and, with issue 5, OpenTelemetry spans and metrics). Nothing
 * here starts an exporter unless an endpoint is configured.
 */
export { createLogger } from './logger.ts';
export type { Logger, LoggerOptions, LogLevel } from './logger.ts';
