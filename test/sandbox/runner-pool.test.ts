import { afterAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import { testPolicy } from './policy-fixture.ts';

const runner = createToolRunner({ maxIsolatesPerTool: 2 });
afterAll(() => runner.close());

describe('isolates per tool', () => {
  it('runs concurrent calls of one tool independently', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        runner.run({
          toolId: 'concurrent',
          toolName: 'concurrent',
          code: 'globalThis.mine = n; await null; await null; return [n, globalThis.mine];',
          args: { n },
          secrets: [],
          policy: testPolicy(),
        }),
      ),
    );
    expect(results.map((result) => (result.ok ? result.value : result.code))).toEqual(
      Array.from({ length: 6 }, (_, n) => [n, n]),
    );
  });

  it('keeps a runaway tool from affecting another tool', async () => {
    const runaway = runner.run({
      toolId: 'runaway',
      toolName: 'runaway',
      code: 'for (;;) {}',
      args: {},
      secrets: [],
      policy: testPolicy({}, { cpuTimeMs: 400, wallTimeMs: 60_000 }),
    });
    const calm = await runner.run({
      toolId: 'calm',
      toolName: 'calm',
      code: 'return typeof globalThis.mine;',
      args: {},
      secrets: [],
      policy: testPolicy(),
    });
    expect(calm).toMatchObject({ ok: true, value: 'undefined' });
    expect(await runaway).toMatchObject({ ok: false, code: 'SANDBOX_LIMIT', reason: 'cpu-time' });
  });

  it('serves a tool again after eviction and after a memory-cap change', async () => {
    const call = (memoryMb: number) =>
      runner.run({
        toolId: 'evicted',
        toolName: 'evicted',
        code: 'return 40 + 2;',
        args: {},
        secrets: [],
        policy: testPolicy({}, { memoryMb }),
      });
    expect(await call(32)).toMatchObject({ ok: true, value: 42 });
    runner.evict('evicted');
    expect(await call(32)).toMatchObject({ ok: true, value: 42 });
    expect(await call(48)).toMatchObject({ ok: true, value: 42 });
  });

  it('refuses calls after close', async () => {
    const closing = createToolRunner();
    await closing.close();
    const result = await closing.run({
      toolId: 'x',
      toolName: 'x',
      code: 'return 1;',
      args: {},
      secrets: [],
      policy: testPolicy(),
    });
    expect(result).toMatchObject({ ok: false, code: 'SANDBOX_ERROR', reason: 'runner-closed' });
  });
});
