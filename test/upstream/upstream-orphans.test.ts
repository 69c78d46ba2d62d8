/**
 * Issue 14, defect 11: after `kill -9` of the gateway its stdio upstream children must not outlive it, even one
 * that ignores EOF on its stdin. The gateway runs as its own process (`portcullis serve`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freePort,
  isRunning as alive,
  killAll,
  pidWith,
  ROOT,
  tempDir,
  waitFor,
} from '../helpers/gateway-harness.ts';
import { writeConfigFile } from '../helpers/serve-support.ts';

const marker = `portcullis-orphan-test-${randomUUID()}`;
let gateway: ChildProcess | undefined;
let upstreamPid: number | undefined;

afterAll(() => killAll([gateway?.pid, upstreamPid]));

describe('kill -9 of the gateway', () => {
  it.each(['legacy', 'auto'] as const)(
    'takes its stdio upstream children with it, even one that ignores stdin EOF (protocol: %s)',
    { timeout: 90_000 },
    async (protocol) => {
      const dir = tempDir('portcullis-orphans-');
      // In the auto era the child found first is the era probe's own process (the server never answers the probe),
      // which the gateway watches like the link's.
      // Never answers, ignores the end of its stdin, and keeps running: only a signal ends it.
      const stubborn = `process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000); // ${marker}`;
      const configFile = writeConfigFile(dir, {
        store: { path: `${dir}/portcullis.db` },
        upstreams: {
          stubborn: {
            transport: 'stdio',
            protocol,
            command: process.execPath,
            args: ['-e', stubborn],
          },
        },
      });
      gateway = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'src/main.ts',
          'serve',
          '--config',
          configFile,
          '--port',
          String(await freePort()),
        ],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: 'ignore' },
      );
      upstreamPid = await waitFor(() => pidWith(marker), 60_000, 'the upstream child to start');
      // Give the gateway a moment past the spawn, as a real crash would.
      await new Promise((resolve) => setTimeout(resolve, 500));
      gateway.kill('SIGKILL');
      const gone = await waitFor(
        () => !alive(upstreamPid as number),
        15_000,
        'the orphaned upstream to end',
      ).catch(() => false);
      expect(gone).toBe(true);
    },
  );
});
