import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../args.ts';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from '../echo-upstream.ts';
import { generatedToolName } from '../generated-tools.ts';
import {
  checkScaleTargets,
  countListedTools,
  kibPerSession,
  runsPart,
  scaleSection,
  scaleTargetsRun,
  scaleUpstreams,
  type ScaleFigures,
} from '../sections/scale.ts';
import { summarize } from '../stats.ts';

const at = (p50: number) => summarize([p50, p50, p50], 10);

const figures = (over: Partial<ScaleFigures> = {}): ScaleFigures => ({
  readyMs: 4000,
  allListedMs: 4500,
  toolsListed: 5000,
  toolsList: at(40),
  toolsListWire: at(10),
  sessions: 2000,
  rssBeforeKiB: 100_000,
  rssAfterKiB: 120_000,
  heapSessions: 2000,
  heapBeforeKiB: 100_000,
  heapAfterKiB: 120_000,
  echo: at(2),
  base64: at(2.5),
  ...over,
});

describe('scale section helpers', () => {
  it('configures N stdio upstreams of the generated server with the tool count', () => {
    const upstreams = scaleUpstreams(50, 100);
    expect(Object.keys(upstreams)).toHaveLength(50);
    expect(Object.keys(upstreams).slice(0, 2)).toEqual(['s00', 's01']);
    const first = upstreams.s00 as { transport: string; args: string[] };
    expect(first.transport).toBe('stdio');
    expect(first.args.slice(-2)).toEqual([expect.stringMatching(/bench\/many-tools-server\.mjs$/), '100']);
  });

  it('starts a generated server the SDK client lists and calls, its names as generatedToolName says', async () => {
    const client = new Client({ name: 'scale-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(ROOT, 'bench/many-tools-server.mjs'), '100'],
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(Array.from({ length: 100 }, (_, i) => generatedToolName(i)));
      const result = await client.callTool({ name: generatedToolName(99), arguments: { message: 'hi' } });
      expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
      await expect(client.callTool({ name: 'tool_100', arguments: { message: 'x' } })).rejects.toThrow(
        /unknown tool/,
      );
    } finally {
      await client.close();
    }
  });

  it('divides RSS growth by the sessions opened', () => {
    expect(kibPerSession(100_000, 120_000, 2000)).toBe(10);
    expect(kibPerSession(100_000, 120_000, 0)).toBeNaN();
    expect(kibPerSession(Number.NaN, 120_000, 2000)).toBeNaN();
  });

  it.each([
    ['all met', figures(), [true, true, true, true]],
    [
      'on every bound',
      figures({ readyMs: 5000, toolsList: at(50), heapAfterKiB: 130_000, base64: at(3) }),
      [true, true, true, true],
    ],
    [
      'just over every bound',
      figures({ readyMs: 5001, toolsList: at(50.1), heapAfterKiB: 130_002, base64: at(3.01) }),
      [false, false, false, false],
    ],
    [
      'nothing measured',
      figures({ readyMs: NaN, toolsList: summarize([], 0), heapSessions: 0, echo: summarize([], 0) }),
      [false, false, false, false],
    ],
  ])('%s', (_name, f, verdicts) => {
    expect(checkScaleTargets(f).map((t) => t.pass)).toEqual(verdicts);
  });

  it('is selected by --only scale', () => {
    expect(parseBenchArgs(['--only', 'scale']).only).toEqual(['scale']);
    expect(parseBenchArgs(['--quick', '--only', 'proxy,scale']).only).toEqual(['proxy', 'scale']);
  });

  it('runs one part with --only scale:upstreams, every part without a pick', () => {
    const args = parseBenchArgs(['--only', 'scale:upstreams,proxy']);
    expect(args.only).toEqual(['scale', 'proxy']);
    expect(args.parts).toEqual({ scale: ['upstreams'] });
    const picked = { ...args.options, parts: args.parts.scale ?? [] };
    expect(scaleSection.parts?.filter((part) => runsPart(picked, part))).toEqual(['upstreams']);
    expect(scaleSection.parts?.filter((part) => runsPart(args.options, part))).toEqual([
      'upstreams',
      'sessions',
      'heap',
    ]);
  });

  it('counts the tools of a tools/list answer without parsing it', () => {
    const tools = Array.from({ length: 3 }, (_, i) => ({
      name: generatedToolName(i),
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
    }));
    expect(countListedTools(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools } }))).toBe(3);
    expect(countListedTools(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { tools: [] } }))).toBe(0);
    expect(countListedTools('{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"x"}}')).toBe(0);
  });

  it('judges only the targets of the parts that ran', () => {
    const options = parseBenchArgs(['--only', 'scale:upstreams']).options;
    const upstreams = scaleTargetsRun({ ...options, parts: ['upstreams'] }, figures());
    expect(upstreams.map((t) => t.name)).toEqual([
      expect.stringMatching(/every upstream connected/),
      expect.stringMatching(/tools\/list p50/),
    ]);
    expect(scaleTargetsRun({ ...options, parts: ['heap'] }, figures()).map((t) => t.name)).toEqual([
      expect.stringMatching(/heap after GC/),
    ]);
    expect(scaleTargetsRun({ ...options, parts: ['sessions'] }, figures()).map((t) => t.name)).toEqual([
      expect.stringMatching(/sandboxed base64/),
    ]);
    expect(scaleTargetsRun(options, figures())).toHaveLength(4);
  });

  it('shows the raw-wire tools/list figure beside the judged SDK one', () => {
    const target = checkScaleTargets(figures({ toolsList: at(55), toolsListWire: at(12) }))[1];
    expect(target).toMatchObject({ pass: false, detail: '55.00 ms for 5000 tools (raw wire 12.00 ms)' });
  });
});
