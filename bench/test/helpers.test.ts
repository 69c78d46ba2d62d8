import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildConfig } from '../../src/config/index.ts';
import { createLineCounter, gatewayDocument, gatewayLaunch, writeGatewayConfig } from '../gateway-process.ts';
import { blockSizes, mergeSamples, summarizeSamples } from '../load.ts';
import { parseHostCpuTimes, parseProcStatCpuMs, processCpuMs, stealShare } from '../proc-cpu.ts';
import { checkSandboxTarget } from '../sections/sandbox.ts';
import { assessGrowth } from '../sections/scanner.ts';
import { summarize } from '../stats.ts';

describe('parseProcStatCpuMs', () => {
  const stat = (comm: string, utime: number, stime: number) =>
    `4242 (${comm}) S 1 4242 4242 0 -1 4194560 500 0 0 0 ${utime} ${stime} 0 0 20 0 11 0 100 0 0`;
  it.each([
    [stat('node', 150, 50), 2000],
    [stat('odd) name (x', 3, 1), 40],
    [stat('node', 0, 0), 0],
  ])('%s -> %s ms', (text, cpuMs) => {
    expect(parseProcStatCpuMs(text)).toBe(cpuMs);
  });

  it.each([['garbage'], ['1 (x) S 1 2']])('is NaN for %j', (text) => {
    expect(parseProcStatCpuMs(text)).toBeNaN();
  });

  it('reads a live process on Linux, NaN for no pid', () => {
    if (process.platform === 'linux') expect(processCpuMs(process.pid)).toBeGreaterThanOrEqual(0);
    expect(processCpuMs(undefined)).toBeNaN();
  });
});

describe('host steal from /proc/stat', () => {
  const stat = (line: string) => `${line}\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1 2\n`;
  it.each([
    ['cpu  100 5 50 800 10 1 4 30 7 0', { total: 1000, steal: 30 }],
    ['cpu 1 0 0 1 0 0 0 0 0 0', { total: 2, steal: 0 }],
  ])('parses %j', (line, times) => {
    expect(parseHostCpuTimes(stat(line))).toEqual(times);
  });

  it.each([['cpu0 1 2 3'], ['cpu  1 2 x 4 5 6 7 8'], ['cpu  1 2 3']])('is undefined for %j', (line) => {
    expect(parseHostCpuTimes(line)).toBeUndefined();
  });

  it.each([
    [{ total: 1000, steal: 30 }, { total: 1400, steal: 130 }, 0.25],
    [{ total: 1000, steal: 30 }, { total: 1000, steal: 30 }, Number.NaN],
    [undefined, { total: 1000, steal: 30 }, Number.NaN],
  ])('stealShare(%j, %j) = %s', (before, after, share) => {
    expect(stealShare(before, after)).toEqual(share);
  });
});

describe('createLineCounter', () => {
  it('counts lines across chunk boundaries and keeps the tail', () => {
    const counter = createLineCounter(2);
    counter.onChunk(Buffer.from('one\ntw'));
    counter.onChunk(Buffer.from('o\nthree\nfour'));
    expect(counter.count()).toBe(3);
    expect(counter.tail()).toBe('two\nthree\nfour');
  });
});

describe('the bench gateway config', () => {
  const upstreams = { stdio: { transport: 'stdio', command: 'node', args: ['x.js'] } };

  it('is accepted by the config schema, with OTLP export and the store under the temp dir', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-doc-'));
    try {
      const config = buildConfig(
        gatewayDocument(dir, upstreams, 'http://127.0.0.1:4318/gw/'),
        'test',
        dir,
        () => undefined,
      );
      expect(config.store.path).toBe(path.join(dir, 'portcullis.db'));
      expect(config.tools.workspace).toBe(path.join(dir, 'workspace'));
      expect(config.tools.bundled).toBe(true);
      expect(config.telemetry.otlp?.endpoint).toBe('http://127.0.0.1:4318/gw/');
      expect(config.upstreams.map((u) => u.id)).toEqual(['stdio']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves telemetry at its default without an endpoint', () => {
    expect(gatewayDocument('/d', upstreams)).not.toHaveProperty('telemetry');
  });

  it('writes a YAML file and removes it again', () => {
    const written = writeGatewayConfig(upstreams, 'http://127.0.0.1:1/x/');
    const doc = parse(readFileSync(written.file, 'utf8')) as Record<string, unknown>;
    expect(doc).toEqual(gatewayDocument(written.dir, upstreams, 'http://127.0.0.1:1/x/'));
    written.remove();
    expect(() => readFileSync(written.file)).toThrow();
  });

  it('launches the compiled dist/main.js with --no-node-snapshot, as bin/portcullis.js does', () => {
    const launch = gatewayLaunch('serve', '/c.yaml', 9000);
    expect(launch.args).toEqual([
      '--no-node-snapshot',
      expect.stringMatching(/dist\/main\.js$/),
      'serve',
      '--config',
      '/c.yaml',
      '--port',
      '9000',
    ]);
    expect(gatewayLaunch('stdio', '/c.yaml').args.slice(-3)).toEqual(['stdio', '--config', '/c.yaml']);
  });
});

describe('mergeSamples', () => {
  it('joins latencies and sums wall time, errors and CPU', () => {
    const merged = mergeSamples([
      { latenciesMs: [1, 2], wallMs: 10, errors: 1, cpuMs: 4 },
      { latenciesMs: [3], wallMs: 5, errors: 0, cpuMs: 2 },
    ]);
    expect(merged).toEqual({ latenciesMs: [1, 2, 3], wallMs: 15, errors: 1, cpuMs: 6 });
    expect(summarizeSamples(merged)).toMatchObject({ calls: 3, p50Ms: 2, errors: 1, cpuMsPerCall: 2 });
  });
});

describe('blockSizes', () => {
  it.each([
    [2000, 2, [1000, 1000]],
    [201, 2, [101, 100]],
    [5, 4, [2, 1, 1, 1]],
  ])('%s calls in %s blocks', (calls, blocks, sizes) => {
    expect(blockSizes(calls, blocks)).toEqual(sizes);
    expect(blockSizes(calls, blocks).reduce((a, b) => a + b, 0)).toBe(calls);
  });
});

describe('checkSandboxTarget', () => {
  const at = (p50: number) => summarize([p50, p50, p50], 10);
  it.each([
    [1.0, 1.9, true],
    [1.0, 2.0, true],
    [1.0, 2.01, false],
    [4.0, 1.0, true],
  ])('echo p50 %s, base64 p50 %s -> %s', (echo, base64, pass) => {
    expect(checkSandboxTarget(at(echo), at(base64)).pass).toBe(pass);
  });

  it('misses when nothing was measured', () => {
    expect(checkSandboxTarget(summarize([], 0), at(1))).toMatchObject({
      pass: false,
      detail: 'not measured',
    });
  });
});

describe('assessGrowth', () => {
  it.each([
    [[10, 20, 40], 4, true],
    [[10, 25, 60], 6, true],
    [[10, 40, 160], 16, false],
    [[40, 20, 10], 0.25, true],
  ])('times %j over 0.25/0.5/1 MB -> ratio %s, linear %s', (times, ratio, linear) => {
    const growth = assessGrowth([0.25, 0.5, 1].map((sizeMb, i) => ({ sizeMb, ms: times[i] as number })));
    expect(growth.timeRatio).toBeCloseTo(ratio);
    expect(growth.sizeRatio).toBe(4);
    expect(growth.linear).toBe(linear);
  });

  it('is not linear when it cannot tell', () => {
    expect(assessGrowth([{ sizeMb: 1, ms: 5 }]).linear).toBe(false);
    expect(assessGrowth([]).timeRatio).toBeNaN();
  });
});
