import { describe, expect, it } from 'vitest';
import { leakSection } from '../sections/leak-check.ts';
import { proxySection } from '../sections/proxy-overhead.ts';
import { sandboxSection } from '../sections/sandbox.ts';
import { createScannerSection } from '../sections/scanner.ts';
import type { BenchOptions } from '../types.ts';

const tiny: BenchOptions = { calls: 20, warmup: 5, concurrency: 4, leakCalls: 60, quick: true };

describe('bench sections against real gateways', () => {
  it('proxy measures 26 cells (three reference relays and two npm peers on stdio), 22 comparisons, spans and nine targets', async () => {
    const result = await proxySection.run(tiny);
    const [cells, ratios, spans, peers] = result.tables;
    expect(cells?.rows).toHaveLength(26);
    const gatewayPaths = ['direct', 'portcullis-inproc', 'portcullis-stdio', 'portcullis-http'];
    const relayPaths = ['relay-bytes', 'relay-json', 'relay-sdk', 'mcp-proxy', 'supergateway'];
    expect(new Set(cells?.rows.map((row) => row[0]))).toEqual(
      new Set([
        ...['stdio', 'http'].flatMap((u) => gatewayPaths.map((p) => `${u} / ${p}`)),
        ...relayPaths.map((p) => `stdio / ${p}`),
      ]),
    );
    expect(ratios?.rows).toHaveLength(22);
    expect(peers?.rows.map((row) => row[0])).toEqual(['portcullis-http', 'mcp-proxy', 'supergateway']);
    expect(result.lines.join('\n')).toMatch(/telemetry alone .*: \d+\.\d+ ms of CPU per call/);
    const cost = result.figures.telemetryCost as { onMsPerCall: number; offMsPerCall: number };
    expect(cost.onMsPerCall).toBeGreaterThan(0);
    expect(cost.offMsPerCall).toBeGreaterThan(0);
    expect(result.lines.join('\n')).toMatch(
      /reference relays \(stdio upstream.*relay-bytes .*relay-json .*relay-sdk /,
    );
    expect(cells?.rows.every((row) => row.at(-1) === '0')).toBe(true);
    // Every gateway exported at least one span per tool call (the request span) to the sink.
    for (const row of spans?.rows ?? []) expect(Number(row[2])).toBeGreaterThanOrEqual(Number(row[1]));
    expect(spans?.rows.map((row) => row[0])).toEqual([
      'portcullis-inproc',
      'portcullis-stdio',
      'portcullis-http',
    ]);
    expect(result.targets.map((t) => t.name.split(']')[0])).toEqual([
      '[portcullis-stdio',
      '[portcullis-stdio',
      '[portcullis-http, shown for reference',
      '[portcullis-http, shown for reference',
      '[portcullis-http',
      '[portcullis-http',
      '[portcullis-http',
      '[portcullis-http',
      'telemetry alone, spans exported: <= 0.05 ms of CPU per call',
    ]);
    expect(result.lines.join('\n')).toMatch(/bench client -> legacy/);
  }, 300_000);

  it('sandbox calls base64 and the upstream echo on one gateway child and times the cold call', async () => {
    const result = await sandboxSection.run(tiny);
    const [calls, cold] = result.tables;
    expect(calls?.rows.map((row) => [row[0]?.split(' ')[0], row[1], row.at(-1)])).toEqual([
      ['stdio_echo', '20', '0'],
      ['base64', '20', '0'],
    ]);
    expect(cold?.rows).toHaveLength(4);
    expect(result.figures.coldBase64Ms).toBeGreaterThan(0);
    expect((result.figures.spans as { spans: number }).spans).toBeGreaterThan(0);
    expect(result.targets).toHaveLength(1);
  }, 300_000);

  it('scanner times the corpus with both scanners and every adversarial kind at each size', async () => {
    const section = createScannerSection({
      tools: 200,
      passes: 1,
      sizesMb: [0.01, 0.02, 0.04],
      repeats: 1,
      worstSizesKb: [1, 2, 4],
      evalMs: 1,
    });
    const result = await section.run(tiny);
    const [corpus, plain, cross, evalCorpus, worst] = result.tables;
    expect(evalCorpus?.rows).toHaveLength(4);
    expect(evalCorpus?.rows[3]?.[0]).toMatch(/^first sight, definitions of real servers \(\d{3,}\)$/);
    expect(worst?.rows).toHaveLength(10);
    expect(worst?.columns).toEqual(expect.arrayContaining(['us/KB @1 KB', 'us/KB @4 KB']));
    // Shared gateway scanner, cross-server scanner, and first sight (a new scanner per pass).
    expect(corpus?.rows.map((row) => row[0])).toEqual([
      'gateway scanner (no other names)',
      'cross-server on (200 other names)',
      'first sight (new scanner per pass)',
    ]);
    expect(plain?.rows).toHaveLength(16);
    expect(cross?.rows).toHaveLength(16);
    expect(plain?.columns).toEqual(expect.arrayContaining(['ms/MB @0.01', 'ms/MB @0.04', 'time 0.04/0.01']));
    expect(result.lines[0]).toMatch(/flagged 8\/8 planted, 0\/192 honest/);
    expect(result.targets.map((t) => t.name)).toEqual([
      expect.stringMatching(/^first sight .* >= 10,000 tool definitions\/s$/),
      expect.stringMatching(
        /^first sight, definitions of real servers .* >= 10,000 tool definitions\/s of CPU time$/,
      ),
      expect.stringMatching(/^every adversarial input/),
    ]);
  }, 120_000);

  it('leak prints a leak check line, sees the bench client, and finds no per-call state kept upstream', async () => {
    const result = await leakSection.run(tiny);
    expect(result.lines[0]).toMatch(/^leak check: .*60 calls at concurrency 4/);
    const signals = result.figures.signals as { label: string; fetches: number }[];
    expect(signals.some((s) => s.label.startsWith('bench client -> gateway'))).toBe(true);
    // Since upstream HTTP requests carry their own signals, no gateway -> upstream link keeps anything after GC.
    expect(result.figures.verdict).not.toMatch(/LEAK/);
  }, 120_000);
});
