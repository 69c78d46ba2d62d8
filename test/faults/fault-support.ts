/**
 * What every failure-injection case shares: a gateway process with a healthy server-everything (`every`) next to
 * one misbehaving upstream (`bad`), an echo prober that proves the gateway keeps answering, an RSS sampler, and
 * a sweep that ends every process the case started.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { ROOT, tempDir, UPSTREAMS, waitFor } from '../helpers/gateway-harness.ts';
import { startGatewayProcess, type GatewayProcess, type LogLine } from './gateway-process.ts';
import { callToolRaw } from './raw-mcp.ts';

/** The API key of every fault gateway. */
export const FAULT_KEY = 'faults-api-key-7d1c9e';
/**
 * How long one echo of the healthy upstream may take while the other misbehaves. It tells a frozen gateway (no
 * answer at all for this long) from a busy one, not fast from slow: a loaded 2-core CI machine took 2 s for an
 * echo while a 50 MB result was relayed, so the bound is wide on purpose.
 */
export const ECHO_BOUND_MS = 10_000;
export const MiB = 1024 * 1024;

/** One server snapshot as the admin API shows it. */
export interface AdminServer {
  id: string;
  state: string;
  lastError: string | null;
  toolCount: number;
  exposedToolCount: number;
}

/** One tool as the admin API shows it. */
export interface AdminTool {
  alias: string;
  upstream: string | null;
  exposed: boolean;
  withheldReason: string | null;
}

/** A running fault case. */
export interface FaultCase {
  gateway: GatewayProcess;
  /** How many times the bad upstream was spawned. */
  starts(): number;
  /**
   * Connect attempts after an exit: the first spawn after each exit. With `protocol: auto` one attempt may spawn
   * the server twice (the SDK probes the era on a sibling process), so spawns overcount attempts.
   */
  restarts(): number;
  /** The gateway's reconnect delays: from each deliberate exit of the bad upstream to its next spawn, in ms. */
  reconnectDelays(): number[];
  /** Methods of the requests the bad upstream received. */
  requests(): string[];
  server(id: string): Promise<AdminServer | undefined>;
  /** Log lines at warn or error that name the upstream `id`. */
  warnings(id: string): LogLine[];
  /** Work to stop when the case ends (probes and samplers that an early failure left running). */
  cleanups: (() => unknown)[];
  close(): Promise<void>;
}

/** Starts a gateway with `every` (server-everything) and `bad` (the fixture in `mode`; `allow` skips approval). */
export async function startFaultCase(
  mode: string,
  options: { extraArgs?: string[]; allow?: boolean } = {},
): Promise<FaultCase> {
  const dir = tempDir('portcullis-fault-upstream-');
  const startsFile = path.join(dir, 'starts');
  const requestsFile = path.join(dir, 'requests');
  const marker = `--fault-case=${randomUUID()}`;
  const gateway = await startGatewayProcess(
    {
      auth: { apiKeys: ['${FAULTS_API_KEY}'] },
      upstreams: {
        every: { ...UPSTREAMS.everythingStdio, args: [...UPSTREAMS.everythingStdio.args, marker] },
        bad: {
          transport: 'stdio',
          command: process.execPath,
          args: [
            path.join(ROOT, 'test/faults/fixtures/misbehaving-upstream.mjs'),
            `--mode=${mode}`,
            `--starts-file=${startsFile}`,
            `--requests-file=${requestsFile}`,
            marker,
            ...(options.extraArgs ?? []),
          ],
          cwd: ROOT,
        },
      },
      ...(options.allow
        ? { approval: { rules: [{ id: 'faults-allow-bad', match: { upstream: 'bad' }, decision: 'allow' }] } }
        : {}),
    },
    { FAULTS_API_KEY: FAULT_KEY },
    FAULT_KEY,
  );
  const cleanups: (() => unknown)[] = [];
  const lines = (file: string) => {
    try {
      return readFileSync(file, 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  };
  return {
    gateway,
    starts: () => lines(startsFile).filter((l) => l.startsWith('start ')).length,
    restarts() {
      let count = 0;
      let afterExit = false;
      for (const line of lines(startsFile)) {
        if (line.startsWith('exit ')) afterExit = true;
        else if (line.startsWith('start ') && afterExit) {
          count += 1;
          afterExit = false;
        }
      }
      return count;
    },
    reconnectDelays() {
      const delays: number[] = [];
      let exitedAt: number | undefined;
      for (const [kind, at] of lines(startsFile).map((l) => l.split(' '))) {
        if (kind === 'exit') exitedAt = Number(at);
        if (kind === 'start' && exitedAt !== undefined) delays.push(Number(at) - exitedAt);
      }
      return delays;
    },
    requests: () => lines(requestsFile),
    async server(id) {
      const { servers } = await gateway.admin<{ servers: AdminServer[] }>('/servers');
      return servers.find((s) => s.id === id);
    },
    warnings: (id) =>
      gateway.logs.filter(
        (l) => (l.level === 'warn' || l.level === 'error') && JSON.stringify(l).includes(`"${id}"`),
      ),
    cleanups,
    async close() {
      for (const cleanup of cleanups) await cleanup();
      await gateway.stop();
      killLeftovers(marker);
    },
  };
}

/** Ends every process whose command line carries `marker` (children a killed gateway left behind). */
function killLeftovers(marker: string): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker))
        process.kill(Number(entry), 'SIGKILL');
    } catch {
      // The process ended while we looked.
    }
  }
}

/** One echo through the gateway. */
export interface EchoSample {
  ok: boolean;
  ms: number;
  detail: string;
}

/** Echoes through the healthy upstream every `everyMs` until stopped; each echo is abandoned after the bound. */
export function startEchoProbe(fault: FaultCase, everyMs = 250): { stop(): Promise<EchoSample[]> } {
  const gateway = fault.gateway;
  const samples: EchoSample[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i += 1) {
      const started = Date.now();
      try {
        const answer = await callToolRaw(
          gateway.url,
          'every_echo',
          { message: `probe ${i}` },
          { apiKey: FAULT_KEY, timeoutMs: ECHO_BOUND_MS },
        );
        const ok = answer.status === 200 && answer.text.includes(`Echo: probe ${i}`);
        samples.push({
          ok,
          ms: answer.ms,
          detail: ok ? '' : `${answer.status} ${answer.text.slice(0, 300)}`,
        });
      } catch (error) {
        samples.push({ ok: false, ms: Date.now() - started, detail: (error as Error).message });
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  const stop = async () => {
    running = false;
    await loop;
    return samples;
  };
  fault.cleanups.push(stop);
  return { stop };
}

/** Samples the gateway's RSS every 100 ms; `stop()` returns the largest growth over the first sample. */
export function startRssSampler(fault: FaultCase): { stop(): number } {
  const gateway = fault.gateway;
  const baseline = gateway.rss();
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, gateway.rss())), 100);
  fault.cleanups.push(() => clearInterval(timer));
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, gateway.rss());
      return peak - baseline;
    },
  };
}

/** Echo samples that failed or took longer than the bound, for a readable assertion message. */
export function slowOrFailed(samples: EchoSample[]): EchoSample[] {
  return samples.filter((s) => !s.ok || s.ms > ECHO_BOUND_MS);
}

/** Sleeps `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the case and waits until the healthy upstream answers, so probes measure only the bad one's effect. */
export async function beginFaultCase(mode: string, options: Parameters<typeof startFaultCase>[1] = {}) {
  const fault = await startFaultCase(mode, options);
  try {
    await waitFor(
      async () => (await fault.server('every'))?.state === 'connected',
      60_000,
      'every to connect',
    );
  } catch (error) {
    await fault.close();
    throw error;
  }
  return fault;
}

/** Polls the admin API until `bad` is in a state `accept` takes; every snapshot seen is kept in `seen`. */
export async function waitForBad(
  fault: FaultCase,
  accept: (bad: AdminServer) => boolean,
  timeoutMs: number,
  seen: AdminServer[] = [],
): Promise<AdminServer> {
  return waitFor(
    async () => {
      const bad = await fault.server('bad');
      if (bad) seen.push(bad);
      return bad && accept(bad) ? bad : undefined;
    },
    timeoutMs,
    `bad to change state (last seen ${JSON.stringify(seen.at(-1))}; gateway ${fault.gateway.exited() ?? 'up'})`,
  );
}

/** `bad` is down and says why. */
export const isDownWithReason = (bad: AdminServer) => bad.state === 'down' && Boolean(bad.lastError);

/** The checks every case ends with: the process is up, no echo was slow or failed, RSS grew less than `maxGrowth`. */
export async function expectGatewayHealthy(
  fault: FaultCase,
  probe: ReturnType<typeof startEchoProbe>,
  rss: ReturnType<typeof startRssSampler>,
  maxGrowth: number,
): Promise<void> {
  const samples = await probe.stop();
  const growth = rss.stop();
  const stderr = fault.gateway.rawStderr.join('\n').slice(-1500);
  expect(fault.gateway.exited(), `the gateway process died; its stderr: ${stderr}`).toBe(undefined);
  expect(samples.length, 'echo probes sent').toBeGreaterThan(3);
  expect(slowOrFailed(samples), `echoes slower than ${ECHO_BOUND_MS} ms or failed`).toEqual([]);
  expect(growth / MiB, `RSS growth in MiB (bound ${maxGrowth / MiB})`).toBeLessThan(maxGrowth / MiB);
  const health = await fetch(`${fault.gateway.base}/healthz`, { signal: AbortSignal.timeout(5_000) });
  expect(health.status).toBe(200);
}
