/**
 * Section "sandbox": the bundled `base64` catalog tool (a Safe Tool Spec run in an isolated-vm isolate) called
 * through /mcp next to the upstream echo tool, on the same out-of-process gateway (`portcullis serve`, whole
 * pipeline on: default config, audit, spans exported to the OTLP sink) and the same client. The very first
 * base64 call after the gateway started is timed on its own (cold), then both tools are called sequentially in
 * alternating blocks (echo, base64, echo, base64) so that drift hits both alike.
 */
import { performance } from 'node:perf_hooks';
import { connectHttp, type BenchClient } from '../clients.ts';
import { ECHO_STDIO } from '../echo-upstream.ts';
import { ms, signedMs } from '../format.ts';
import { startGatewayProcess, waitForTools } from '../gateway-process.ts';
import {
  blockSizes,
  collectLoad,
  mergeSamples,
  summarizeSamples,
  type CallFn,
  type LoadSamples,
} from '../load.ts';
import { countsFor, startOtlpSink } from '../otlp-sink.ts';
import { processCpuMs } from '../proc-cpu.ts';
import type { CellStats } from '../stats.ts';
import type { BenchOptions, Section, SectionResult, TargetResult } from '../types.ts';

/** Target: base64 (sandboxed) p50 at most this many ms above the upstream echo call's p50. */
export const SANDBOX_P50_DELTA_TARGET_MS = 1.0;
/** The bundled tool and the call the bench makes. */
export const BASE64_CALL = {
  tool: 'base64',
  args: { text: 'hello world', mode: 'encode' },
  expected: 'aGVsbG8gd29ybGQ=',
};
/** The upstream echo tool on the same gateway. */
export const ECHO_TOOL = 'stdio_echo';

/** Checks the sandbox target: base64 p50 versus echo p50. */
export function checkSandboxTarget(echo: CellStats, base64: CellStats): TargetResult {
  const delta = base64.p50Ms - echo.p50Ms;
  return {
    name: `sandboxed base64 p50 <= upstream echo p50 + ${SANDBOX_P50_DELTA_TARGET_MS.toFixed(1)} ms (same gateway, sequential)`,
    pass: Number.isFinite(delta) && delta <= SANDBOX_P50_DELTA_TARGET_MS,
    detail: Number.isFinite(delta) ? `${signedMs(delta)} ms` : 'not measured',
  };
}

/** Sequential calls per tool and the gateway's CPU ms spent on each tool's calls. */
export interface EchoAndBase64 {
  stats: Record<'echo' | 'base64', CellStats>;
  gatewayCpu: Record<'echo' | 'base64', number>;
}

/**
 * Warms both tools up, then calls them sequentially in alternating blocks (echo, base64, echo, base64; each tool
 * gets `options.calls` calls in all) so drift hits both alike; `gatewayPid` is read for the CPU per tool.
 */
export async function measureEchoAndBase64(
  bench: BenchClient,
  gatewayPid: number,
  options: BenchOptions,
  echoTool = ECHO_TOOL,
): Promise<EchoAndBase64> {
  const base64: CallFn = () => bench.expectText(BASE64_CALL.tool, BASE64_CALL.args, BASE64_CALL.expected);
  const echo: CallFn = (i) => bench.echo(echoTool, `call-${i}`);
  for (let i = 0; i < options.warmup; i += 1) {
    await echo(i);
    await base64(i);
  }
  const samples: Record<'echo' | 'base64', LoadSamples[]> = { echo: [], base64: [] };
  const gatewayCpu = { echo: 0, base64: 0 };
  for (const size of blockSizes(options.calls, 2)) {
    for (const [name, call] of [
      ['echo', echo],
      ['base64', base64],
    ] as const) {
      const cpuBefore = processCpuMs(gatewayPid);
      samples[name].push(await collectLoad(call, size, 1));
      gatewayCpu[name] += processCpuMs(gatewayPid) - cpuBefore;
    }
  }
  return {
    stats: {
      echo: summarizeSamples(mergeSamples(samples.echo)),
      base64: summarizeSamples(mergeSamples(samples.base64)),
    },
    gatewayCpu,
  };
}

async function timeOnce(call: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

async function runSandbox(options: BenchOptions): Promise<SectionResult> {
  const sink = await startOtlpSink();
  let client: BenchClient | undefined;
  let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | undefined;
  try {
    const started = performance.now();
    gateway = await startGatewayProcess(
      {
        stdio: {
          transport: 'stdio',
          command: ECHO_STDIO.command,
          args: [...ECHO_STDIO.args],
          cwd: ECHO_STDIO.cwd,
        },
      },
      sink.endpoint('sandbox'),
    );
    const readyMs = performance.now() - started;
    client = await connectHttp(gateway.url);
    const bench = client;
    await waitForTools(bench, [BASE64_CALL.tool, ECHO_TOOL]);
    const base64: CallFn = () => bench.expectText(BASE64_CALL.tool, BASE64_CALL.args, BASE64_CALL.expected);
    const echo: CallFn = (i) => bench.echo(ECHO_TOOL, `call-${i}`);

    // The first tools/call this gateway serves: the base64 one, then the first echo.
    const coldBase64Ms = await timeOnce(() => base64(0) as Promise<void>);
    const coldEchoMs = await timeOnce(() => echo(0) as Promise<void>);
    const secondBase64Ms = await timeOnce(() => base64(1) as Promise<void>);

    const { stats, gatewayCpu } = await measureEchoAndBase64(bench, gateway.pid, options);
    const logLines = gateway.logLines();
    await client.close();
    client = undefined;
    await gateway.stop();
    gateway = undefined;
    const spans = countsFor(await sink.stats(), 'sandbox');
    const target = checkSandboxTarget(stats.echo, stats.base64);
    const row = (name: string, s: CellStats, cpu: number) => [
      name,
      String(s.calls),
      ms(s.p50Ms),
      ms(s.p99Ms),
      ms(s.meanMs),
      ms(s.maxMs),
      ms(cpu / s.calls),
      String(s.errors),
    ];
    return {
      tables: [
        {
          title: `Sandboxed base64 versus upstream echo through one portcullis serve child, ${options.calls} sequential calls each after ${options.warmup} warm-up calls each`,
          columns: ['tool', 'calls', 'p50 ms', 'p99 ms', 'mean ms', 'max ms', 'gw cpu ms/call', 'errors'],
          rows: [
            row(`${ECHO_TOOL} (upstream, stdio)`, stats.echo, gatewayCpu.echo),
            row(`${BASE64_CALL.tool} (bundled Safe Tool Spec, isolated-vm)`, stats.base64, gatewayCpu.base64),
          ],
        },
        {
          title: 'Cold calls (first tools/call of a freshly started gateway)',
          columns: ['call', 'ms'],
          rows: [
            ['gateway start to /readyz with every upstream connected', ms(readyMs)],
            ['1st call: base64 (the very first tools/call after start)', ms(coldBase64Ms)],
            ['2nd call: stdio_echo (first upstream call)', ms(coldEchoMs)],
            ['3rd call: base64 again', ms(secondBase64Ms)],
          ],
        },
      ],
      targets: [target],
      lines: [
        `gateway: out-of-process \`dist/main.js serve\` (compiled) (default config: bundled catalog tools published, audit on; OTLP export to the sink); ` +
          `${spans.spans} spans received in ${spans.tracePosts} POSTs; ${logLines} log lines counted, not printed`,
        `p50 delta base64 - echo: ${signedMs(stats.base64.p50Ms - stats.echo.p50Ms)} ms; ` +
          'gw cpu ms/call: CPU of the gateway child from /proc/<pid>/stat (the isolate runs inside it; the echo upstream child is not counted)',
      ],
      figures: {
        readyMs,
        coldBase64Ms,
        coldEchoMs,
        secondBase64Ms,
        stats,
        gatewayCpu,
        spans,
        logLines,
        target,
      },
    };
  } finally {
    await client?.close().catch(() => {});
    await gateway?.stop();
    await sink.stop();
  }
}

/** The sandboxed-tool section. */
export const sandboxSection: Section = { name: 'sandbox', run: runSandbox };
