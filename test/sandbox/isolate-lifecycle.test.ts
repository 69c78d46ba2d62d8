// An isolate that did not end cleanly (work still running after the tool returned) is disposed, never reused,
// and the next call of the tool gets a fresh isolate.
import { afterAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import { testPolicy } from './policy-fixture.ts';

const runner = createToolRunner();
afterAll(() => runner.close());

const run = (toolId: string, code: string) =>
  runner.run({
    toolId,
    toolName: toolId,
    code,
    args: {},
    secrets: [],
    // A long budget: a leftover loop would otherwise keep a core busy for all of it.
    policy: testPolicy({}, { cpuTimeMs: 120_000, wallTimeMs: 120_000 }),
  });

async function until(check: () => boolean, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('isolates that outlive their call', () => {
  it('disposes an isolate left running a promise loop and serves the next call from a fresh one', async () => {
    const first = await run('looper', '(async () => { for (;;) { await null; } })(); return 1;');
    expect(first).toMatchObject({ ok: true, value: 1 });
    await until(() => runner.stats().live === 0, 5000);
    expect(runner.stats()).toMatchObject({ created: 1, live: 0, disposedUnclean: 1 });
    const second = await run('looper', 'return typeof globalThis.leftover + 2;');
    expect(second).toMatchObject({ ok: true, value: 'undefined2' });
    expect(runner.stats()).toMatchObject({ created: 2, disposedUnclean: 1 });
  });

  it('never counts an isolate that ended cleanly as unclean', async () => {
    const before = runner.stats().disposedUnclean;
    for (let n = 0; n < 3; n += 1) {
      expect(await run('tidy', 'await null; return 7;')).toMatchObject({ ok: true, value: 7 });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(runner.stats().disposedUnclean).toBe(before);
    expect(runner.stats().live).toBeGreaterThan(0);
  });
});
