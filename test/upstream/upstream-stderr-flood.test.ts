/**
 * Issue 14, defect 5: an upstream writing stderr without pause must not flood the gateway's log. Lines are
 * logged up to a per-upstream rate; the rest are counted and reported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildConfig } from '../../src/config/index.ts';
import {
  createSupervisor,
  STDERR_LOG_LINES_PER_SECOND,
  type Supervisor,
} from '../../src/upstream/supervisor.ts';
import { ROOT } from '../helpers/gateway-harness.ts';

let supervisor: Supervisor | undefined;
afterEach(async () => supervisor?.close());

describe('an upstream flooding stderr', () => {
  it('logs a bounded number of its lines and counts the rest', async () => {
    const { upstreams } = buildConfig(
      {
        store: { path: ':memory:' },
        upstreams: {
          noisy: { transport: 'stdio', protocol: 'legacy', command: 'sh', args: ['-c', 'yes boom >&2'] },
        },
      },
      'test',
      ROOT,
      () => undefined,
    );
    const events: { event: string; fields: Record<string, unknown> }[] = [];
    supervisor = createSupervisor({
      upstreams,
      transport: { inheritedEnv: { PATH: process.env.PATH, HOME: process.env.HOME } },
      onChange: () => {},
      log: (event, fields) => events.push({ event, fields }),
      connectTimeoutMs: 60_000,
    });
    const started = Date.now();
    supervisor.start();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const seconds = (Date.now() - started) / 1000;
    const logged = events.filter((e) => e.event === 'upstream.stderr').length;
    expect(logged).toBeGreaterThan(0);
    expect(logged).toBeLessThanOrEqual(Math.ceil(seconds + 1) * STDERR_LOG_LINES_PER_SECOND);
    const dropped = events.filter((e) => e.event === 'upstream.stderr_dropped');
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped[0]?.fields).toMatchObject({ upstream: 'noisy' });
    expect(Number(dropped[0]?.fields.dropped)).toBeGreaterThan(0);
    expect(supervisor.snapshot('noisy')?.lastStderr?.length).toBeLessThanOrEqual(20);
  }, 30_000);
});
