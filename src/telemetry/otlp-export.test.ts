import { execFileSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMasker } from '../secrets/index.ts';
import { executionTargetOf } from './describe.ts';
import { createTelemetry } from './telemetry.ts';

/** One POST the receiver got. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A tiny OTLP/HTTP receiver on 127.0.0.1 that stores JSON bodies (the OTLP/HTTP exporters send JSON). */
function startReceiver(): Promise<{ server: Server; endpoint: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Kept as text: the assertions then fail on the shape, naming what arrived.
      }
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, endpoint: `http://127.0.0.1:${port}/`, received });
    });
  });
}

interface OtlpKeyValue {
  key: string;
  value: { stringValue?: string };
}

function spansIn(received: Received[]) {
  return received
    .filter((r) => r.path === '/v1/traces')
    .flatMap(
      (r) =>
        (
          r.body as {
            resourceSpans: {
              resource: { attributes: OtlpKeyValue[] };
              scopeSpans: { spans: { name: string; attributes: OtlpKeyValue[] }[] }[];
            }[];
          }
        ).resourceSpans,
    )
    .flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) =>
        ss.spans.map((span) => ({
          ...span,
          service: rs.resource.attributes.find((a) => a.key === 'service.name'),
        })),
      ),
    );
}

function metricNamesIn(received: Received[]): string[] {
  return received
    .filter((r) => r.path === '/v1/metrics')
    .flatMap(
      (r) =>
        (r.body as { resourceMetrics: { scopeMetrics: { metrics: { name: string }[] }[] }[] })
          .resourceMetrics,
    )
    .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics.map((m) => m.name)));
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  await new Promise((resolve) => receiver.server.close(resolve));
});

describe('OTLP/HTTP export', () => {
  it('sends spans and metrics to <endpoint>/v1/traces and /v1/metrics with the configured headers', async () => {
    const telemetry = createTelemetry({
      serviceName: 'portcullis-otlp-test',
      captureArguments: false,
      masker: createMasker(),
      otlp: { endpoint: receiver.endpoint, headers: { 'x-collector-tenant': 'team-a' } },
    });
    expect(telemetry.enabled).toBe(true);
    await telemetry.traceRequest({ method: 'tools/call', target: 'every_echo' }, async () => {
      const tool = {
        alias: 'every_echo',
        origin: 'upstream' as const,
        upstream: 'every',
        upstreamTool: 'echo',
      };
      await telemetry.traceExecution(executionTargetOf(tool, 'stdio'), async () => ({ content: [] }));
      telemetry.toolFinished({
        alias: 'every_echo',
        tool: { ...tool, governance: { risk: { final: 'L2', effective: 'L2' } } },
        caller: { principal: { id: 'anonymous' } },
        durationMs: 4,
        outcome: 'OK',
      });
      return { content: [] };
    });
    await telemetry.shutdown();

    const spans = spansIn(receiver.received);
    expect(spans.map((s) => s.name).sort()).toEqual(['tools/call echo', 'tools/call every_echo']);
    const server = spans.find((s) => s.name === 'tools/call every_echo');
    expect(server?.service?.value.stringValue).toBe('portcullis-otlp-test');
    expect(server?.attributes).toEqual(
      expect.arrayContaining([{ key: 'mcp.risk.level', value: { stringValue: 'L2' } }]),
    );
    expect(metricNamesIn(receiver.received)).toEqual(
      expect.arrayContaining(['mcp.server.operation.duration', 'portcullis.tool.calls']),
    );
    const traces = receiver.received.find((r) => r.path === '/v1/traces');
    expect(traces?.headers['x-collector-tenant']).toBe('team-a');
    expect(traces?.headers['content-type']).toContain('application/json');
  });

  it('starts the periodic metric timer only when an endpoint is configured', async () => {
    const intervals = vi.spyOn(globalThis, 'setInterval');
    try {
      const telemetry = createTelemetry({
        serviceName: 'portcullis',
        captureArguments: false,
        masker: createMasker(),
        otlp: { endpoint: receiver.endpoint, headers: {} },
      });
      expect(intervals).toHaveBeenCalled();
      await telemetry.shutdown();
    } finally {
      intervals.mockRestore();
    }
  });
});

describe('loading the exporters', () => {
  // A fresh process: this one may have loaded them for the tests above.
  const loadedAfter = (otlp: string) =>
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createTelemetry } = await import(${JSON.stringify(new URL('./telemetry.ts', import.meta.url).href)});
         const { createMasker } = await import(${JSON.stringify(new URL('../secrets/index.ts', import.meta.url).href)});
         const telemetry = createTelemetry({ serviceName: 't', captureArguments: false, masker: createMasker(), ${otlp} });
         const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache);
         process.stdout.write(JSON.stringify(loaded.filter((f) => /exporter-(trace|metrics)-otlp-http/.test(f)).length > 0));
         await telemetry.shutdown();`,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );

  it('loads the OTLP exporters only when an endpoint is configured', () => {
    expect(loadedAfter('')).toBe('false');
    expect(loadedAfter("otlp: { endpoint: 'http://127.0.0.1:9/', headers: {} }")).toBe('true');
  }, 120_000);
});

describe('a burst of requests', () => {
  it('exports every span of 5000 requests that end in one turn', async () => {
    const telemetry = createTelemetry({
      serviceName: 'portcullis-burst-test',
      captureArguments: false,
      masker: createMasker(),
      otlp: { endpoint: receiver.endpoint, headers: {} },
    });
    // The SDK's default queue (2048 spans behind a batch of 512 on the wire) kept 2560 of these.
    await Promise.all(
      Array.from({ length: 5000 }, (_, i) =>
        telemetry.traceRequest({ method: 'tools/call', target: `burst_${i}` }, async () => ({ content: [] })),
      ),
    );
    await telemetry.shutdown();
    const names = new Set(spansIn(receiver.received).map((s) => s.name));
    expect(names.size).toBe(5000);
  });
});
