/**
 * Issue 14, defect 9: an upstream that exits right after its handshake must back off like one that never
 * connects; the backoff starts over only after a connection stayed up for STABLE_CONNECTION_MS. A real stdio
 * fixture; only the clock and the reconnect delay are injected.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config/index.ts';
import { createSupervisor, STABLE_CONNECTION_MS, type Supervisor } from '../../src/upstream/supervisor.ts';
import { ROOT } from '../helpers/gateway-harness.ts';

function upstreamConfig() {
  const config = buildConfig(
    {
      store: { path: ':memory:' },
      upstreams: {
        flaky: {
          transport: 'stdio',
          protocol: 'legacy',
          command: process.execPath,
          args: [
            '--import',
            'tsx',
            path.join(ROOT, 'test/fixtures/upstream-misbehaving.ts'),
            '--mode=exit-after-handshake',
          ],
          cwd: ROOT,
        },
      },
    },
    'test',
    ROOT,
    () => undefined,
  );
  return config.upstreams;
}

let supervisor: Supervisor | undefined;
afterEach(async () => {
  await supervisor?.close();
  supervisor = undefined;
});

/** Runs the supervisor until `count` reconnects were scheduled; returns the attempt numbers they were given. */
async function scheduledAttempts(count: number, now: () => number): Promise<number[]> {
  const attempts: number[] = [];
  let done = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  supervisor = createSupervisor({
    upstreams: upstreamConfig(),
    transport: { inheritedEnv: { PATH: process.env.PATH, HOME: process.env.HOME } },
    onChange: () => {},
    now,
    reconnectDelay: (attempt) => {
      attempts.push(attempt);
      if (attempts.length >= count) done();
      return 20;
    },
  });
  supervisor.start();
  await finished;
  return attempts;
}

describe('reconnect backoff', () => {
  it('keeps growing for an upstream that drops each connection right after the handshake', async () => {
    const attempts = await scheduledAttempts(4, Date.now);
    // Before the fix every drop reset the count: [0, 0, 0, 0], so the delay never grew.
    expect(attempts).toEqual([1, 2, 3, 4]);
  }, 60_000);

  it('starts over once a connection stayed up for the stable period', async () => {
    // Every clock reading is a stable period after the previous one: each connection counts as long-lived.
    let clock = 0;
    const attempts = await scheduledAttempts(3, () => (clock += STABLE_CONNECTION_MS));
    expect(attempts).toEqual([0, 0, 0]);
  }, 60_000);
});
