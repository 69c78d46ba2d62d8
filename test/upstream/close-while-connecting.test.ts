/**
 * Closing the gateway while a stdio upstream is still connecting (spawned, not yet answering) ends that child: a
 * silent server that ignores its stdin must not outlive the gateway that started it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { isRunning as alive, killAll, pidWith, startGateway, waitFor } from '../helpers/gateway-harness.ts';

const started: number[] = [];
afterAll(() => killAll(started));

describe('closing the gateway while an upstream connects', () => {
  it.each(['legacy', 'auto'] as const)(
    'ends the silent stdio child (protocol: %s)',
    { timeout: 60_000 },
    async (protocol) => {
      const marker = `portcullis-close-connecting-${randomUUID()}`;
      const gateway = await startGateway(
        {
          upstreams: {
            silent: {
              transport: 'stdio',
              protocol,
              command: process.execPath,
              args: ['-e', `setInterval(() => {}, 1000); // ${marker}`],
            },
          },
        },
        { settle: false },
      );
      const pid = await waitFor(() => pidWith(marker), 30_000, 'the upstream child to start');
      started.push(pid);
      await gateway.close();
      const gone = await waitFor(() => !alive(pid), 10_000, 'the child to end').catch(() => false);
      expect(gone).toBe(true);
      // Past the era probe's own limit (5 s): a connect left running would now spawn the 2025-era handshake's
      // process, after the gateway closed.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const left = pidWith(marker);
      if (left !== undefined) started.push(left);
      expect(left).toBeUndefined();
    },
  );

  it.each(['legacy', 'auto'] as const)(
    'ends the child of an attempt that timed out (protocol: %s)',
    { timeout: 60_000 },
    async (protocol) => {
      const marker = `portcullis-connect-timeout-${randomUUID()}`;
      const gateway = await startGateway(
        {
          upstreams: {
            silent: {
              transport: 'stdio',
              protocol,
              connectTimeout: '1s',
              command: process.execPath,
              args: ['-e', `setInterval(() => {}, 1000); // ${marker}`],
            },
          },
        },
        { settle: false },
      );
      try {
        const pid = await waitFor(() => pidWith(marker), 30_000, 'the upstream child to start');
        started.push(pid);
        const supervisor = gateway.gateway.supervisor;
        await waitFor(
          () => supervisor.snapshot('silent')?.lastError !== undefined,
          20_000,
          'the attempt to fail',
        );
        const gone = await waitFor(() => !alive(pid), 10_000, 'the child to end').catch(() => false);
        expect(gone).toBe(true);
        // Past the first restart's backoff, so a restart is under way or due when the gateway closes.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
      } finally {
        await gateway.close();
      }
      // Nothing the gateway started for this upstream outlives it, nor is started after it closed.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const left = pidWith(marker);
      if (left !== undefined) started.push(left);
      expect(left).toBeUndefined();
    },
  );
});
