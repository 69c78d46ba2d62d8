/**
 * Issue 14, defect 10: OTLP export failures were silent. The real OTLP/HTTP exporters send to a local collector
 * that answers 500; each failure is reported, but at most one `telemetry.export_failed` warn line per signal a
 * minute, with the count of failures it left out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMasker } from '../secrets/index.ts';
import { createExportFailureReporter } from './export-failures.ts';
import { createLogger } from './logger.ts';
import { startSdk } from './sdk.ts';
import { createTelemetry } from './telemetry.ts';

let collector: Server;
let endpoint: string;
let posts = 0;

beforeEach(async () => {
  posts = 0;
  collector = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      posts += 1;
      response.writeHead(500, { 'content-type': 'text/plain' }).end('collector is broken');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((resolve) => collector.close(resolve));
});

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', masker: createMasker(), write: (line) => lines.push(line) });
  const events = () =>
    lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.event === 'telemetry.export_failed');
  return { logger, events };
}

describe('OTLP export failures', () => {
  it('log one warn line per signal a minute, then one with the count of the failures left out', async () => {
    const { logger, events } = capture();
    let clock = 0;
    const sdk = startSdk({
      serviceName: 'portcullis-export-failures',
      otlp: { endpoint, headers: {} },
      onExportFailure: createExportFailureReporter({ logger, now: () => clock }),
    });
    const flushSpan = async () => {
      sdk.tracer.startSpan('work').end();
      await sdk.forceFlush().catch(() => {});
    };
    for (let i = 0; i < 5; i += 1) await flushSpan();
    expect(posts).toBeGreaterThanOrEqual(5);
    const traces = () => events().filter((e) => e.signal === 'traces');
    expect(traces()).toHaveLength(1);
    expect(traces()[0]).toMatchObject({ level: 'warn', signal: 'traces', suppressed: 0 });
    expect(String(traces()[0]?.error)).toMatch(/500|Internal Server Error|collector is broken/);

    clock += 61_000;
    await flushSpan();
    expect(traces()).toHaveLength(2);
    expect(traces()[1]).toMatchObject({ level: 'warn', signal: 'traces', suppressed: 4 });
    await sdk.shutdown();
  });

  it('are logged by the gateway telemetry (trace and metric export), not dropped', async () => {
    const { logger, events } = capture();
    const telemetry = createTelemetry({
      serviceName: 'portcullis-export-failures',
      captureArguments: false,
      masker: createMasker(),
      logger,
      otlp: { endpoint, headers: {} },
    });
    await telemetry.traceRequest({ method: 'tools/list' }, async () => ({ tools: [] }));
    await telemetry.shutdown();
    expect(events().map((e) => [e.level, e.signal])).toEqual(
      expect.arrayContaining([
        ['warn', 'traces'],
        ['warn', 'metrics'],
      ]),
    );
    expect(events().length).toBeLessThanOrEqual(2);
  });
});
