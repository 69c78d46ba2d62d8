/**
 * CPU per tool call, in steady state, of the gateway's telemetry alone (the facade the gateway uses: SERVER and
 * CLIENT span, risk attributes, metrics, the two `mcp.tool.*` log lines formatted and dropped), with spans
 * batched to the OTLP sink, against the same facade with no endpoint. Measured in the bench process, 16 calls in flight, so
 * the proxy section can say how much of a gateway's CPU allowance tracing takes before any relaying.
 */
import { percentile } from './stats.ts';
import { createMasker } from '../src/secrets/index.ts';
import { createLogger, createTelemetry, type Telemetry } from '../src/telemetry/index.ts';

/** Telemetry CPU per call, on and off, in milliseconds: steady state (the median of the rounds after the first), and the first round on. */
export interface TelemetryCost {
  onMsPerCall: number;
  offMsPerCall: number;
  firstOnMsPerCall: number;
}

/**
 * Rounds of (off, on) measured; the median of every round but the first is reported. The first round pays for
 * compiling the SDK's and the exporter's code (two to four times the steady cost, whatever its warm-up), which a
 * running gateway pays once; one full collection of the bench process's heap inside a round adds several
 * hundredths of a millisecond per call to that round alone, so no single round is taken as the figure.
 */
const ROUNDS = 5;

/** Target (issue 20): the telemetry facade with spans exported costs at most this much CPU per call. */
export const TELEMETRY_TARGET_MS = 0.05;

const TOOL = {
  alias: 'stdio_echo',
  origin: 'upstream' as const,
  upstream: 'stdio',
  upstreamTool: 'echo',
  governance: {
    risk: { effective: 'L1' },
    poisoning: { clean: true, matches: [] },
    fingerprint: { hash: 'a1b2c3', profile: 'strict', status: 'approved' },
  },
};

// As the gateway calls it (src/downstream/call-context.ts `traceToolCall`, src/calls/pipeline.ts): the request's trace is
// handed along in the caller, no async context is entered.
function oneCall(telemetry: Telemetry, i: number): Promise<unknown> {
  return telemetry.traceRequest(
    {
      method: 'tools/call',
      target: TOOL.alias,
      requestId: i,
      transport: 'pipe',
      protocolVersion: '2025-11-25',
    },
    async (trace) => {
      const caller = { principal: { id: 'bench' }, sessionId: 'bench-session', trace };
      telemetry.toolStarted({ alias: TOOL.alias, tool: TOOL, caller });
      const result = await telemetry.traceExecution(
        { origin: 'upstream', upstream: 'stdio', tool: 'echo', transport: 'stdio' },
        async () => ({ content: [{ type: 'text', text: `call-${i}` }] }),
        undefined,
        trace,
      );
      telemetry.toolFinished({
        alias: TOOL.alias,
        tool: TOOL,
        caller,
        durationMs: 1,
        outcome: 'OK',
        approval: { decision: 'allow', mode: 'DISABLED' },
      });
      return result;
    },
    'handed',
  );
}

/** CPU per call of `calls` calls after `warmup`, spans exported to `otlpEndpoint` (none: telemetry off). */
export async function cpuMsPerCall(
  otlpEndpoint: string | undefined,
  calls: number,
  warmup: number,
): Promise<number> {
  const masker = createMasker();
  const start = () =>
    createTelemetry({
      serviceName: 'portcullis-bench-telemetry',
      captureArguments: false,
      masker,
      logger: createLogger({ level: 'info', masker, write: () => {} }),
      ...(otlpEndpoint === undefined ? {} : { otlp: { endpoint: otlpEndpoint, headers: {} } }),
    });
  const run = async (telemetry: Telemetry, count: number, from: number) => {
    // Exactly `count` calls, 16 in flight (the last batch smaller), so the CPU divides by what ran.
    for (let done = 0; done < count; done += 16) {
      const batch = Math.min(16, count - done);
      await Promise.all(Array.from({ length: batch }, (_, k) => oneCall(telemetry, from + done + k)));
    }
    await telemetry.settled();
  };
  // The warm-up runs on an instance of its own, shut down before the measurement: the code is warm, and the
  // spans of the warm-up calls still waiting for a full batch are not exported on the measured calls' account.
  const warm = start();
  await run(warm, warmup, 0);
  await warm.shutdown();
  const telemetry = start();
  const before = process.cpuUsage();
  await run(telemetry, calls, warmup);
  // The export of the measured spans is part of their cost: shutdown flushes the batch.
  await telemetry.shutdown();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / calls;
}

/** Measures the telemetry facade with spans exported to `otlpEndpoint` and with telemetry off. */
export async function measureTelemetryCost(
  otlpEndpoint: string,
  calls: number,
  warmup: number,
): Promise<TelemetryCost> {
  let firstOnMsPerCall = NaN;
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const offMsPerCall = await cpuMsPerCall(undefined, calls, warmup);
    const onMsPerCall = await cpuMsPerCall(otlpEndpoint, calls, warmup);
    if (round === 0) firstOnMsPerCall = onMsPerCall;
    else {
      on.push(onMsPerCall);
      off.push(offMsPerCall);
    }
  }
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  return { onMsPerCall: median(on), offMsPerCall: median(off), firstOnMsPerCall };
}
