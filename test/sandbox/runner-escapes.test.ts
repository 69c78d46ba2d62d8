import { afterAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import type { SandboxLimits, ToolRunResult } from '../../src/sandbox/index.ts';
import { testPolicy } from './policy-fixture.ts';

const runner = createToolRunner();
afterAll(() => runner.close());

const TOOL = 'escape-target';

function run(
  code: string,
  limits: Partial<SandboxLimits> = {},
  secrets: string[] = [],
): Promise<ToolRunResult> {
  return runner.run({
    toolId: TOOL,
    toolName: 'escape',
    code,
    args: {},
    secrets,
    policy: testPolicy({}, limits),
  });
}

async function expectHealthy(): Promise<void> {
  const next = await run('return [1, 2, 3].map((n) => n * 2);');
  expect(next).toMatchObject({ ok: true, value: [2, 4, 6] });
}

function failureOf(result: ToolRunResult): { code: string; reason?: string; message: string } {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

describe('sandbox escapes fail and the tool keeps working', () => {
  it.each([
    [
      'constructor chain to process',
      "return this.constructor.constructor('return process')();",
      /process is not defined/,
    ],
    [
      'constructor chain to require',
      "return this.constructor.constructor('return require')();",
      /require is not defined/,
    ],
    ['Function to process', "return Function('return this')().process.pid;", /undefined/],
    ['dynamic import', "return await import('node:fs');", /not supported|Cannot|import/i],
    [
      'prototype walk to a host function',
      'return ({}).constructor.constructor("return globalThis.process.env")();',
      /Cannot read properties of undefined/,
    ],
  ])('%s fails inside the isolate', async (_name, code, message) => {
    const failure = failureOf(await run(code));
    expect(failure.code).toBe('SANDBOX_ERROR');
    expect(failure.message).toMatch(message);
    await expectHealthy();
  });

  it('exposes no host globals to Function("return this")()', async () => {
    const result = await run(`
      const g = Function('return this')();
      return ['process', 'require', 'Buffer', 'module', 'global', 'setImmediate', '__dirname', 'WebAssembly',
        '__pcSync', '__pcAsync', '__pcLog', '__pcDone', '__pcRun', '__pcCfg']
        .filter((name) => name in g);`);
    expect(result).toMatchObject({ ok: true, value: [] });
  });

  it('keeps prototype pollution inside the isolate and out of the host', async () => {
    const result = await run(`
      Object.prototype.polluted = 'inside';
      const fromYaml = safety.parser.yaml('__proto__:\\n  polluted: yaml\\n');
      const fromCsv = safety.parser.csv('__proto__,b\\nx,y\\n', { header: true });
      return { parsed: JSON.parse('{"__proto__": {"polluted": "result"}}'), fromYaml, fromCsv };`);
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, Record<string, unknown>> }).value;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(value.parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(value.parsed as object, '__proto__')).toBe(true);
    expect(Object.hasOwn(value.fromYaml as object, '__proto__')).toBe(true);
    await expectHealthy();
  });

  it('serializes the result inside the isolate: getters and then traps never reach the host', async () => {
    const result = await run(`
      let reads = 0;
      const value = { get a() { reads += 1; return 'getter-ran-in-isolate'; } };
      const thenable = { then(resolve) { resolve('trap'); } };
      return { value, holder: [thenable], reads: () => reads };`);
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    const inner = value.value as object;
    expect(Object.getOwnPropertyDescriptor(inner, 'a')).toMatchObject({ value: 'getter-ran-in-isolate' });
    expect(Object.getOwnPropertyDescriptor(inner, 'a')?.get).toBeUndefined();
    expect(value.holder).toEqual([{}]);
    expect((value.holder as Array<Record<string, unknown>>)[0]?.then).toBeUndefined();
    expect(value).not.toHaveProperty('reads');
  });

  it('reports a getter that throws during serialization as a tool error', async () => {
    const failure = failureOf(await run('return { get boom() { throw new Error("getter exploded"); } };'));
    expect(failure).toMatchObject({ code: 'SANDBOX_ERROR' });
    expect(failure.message).toMatch(/getter exploded/);
    await expectHealthy();
  });

  it.each([
    ['an infinite loop', 'for (;;) {}', { cpuTimeMs: 200, wallTimeMs: 60_000 }, 'cpu-time'],
    [
      'catastrophic regex backtracking',
      "return /^(a+)+$/.test('a'.repeat(64) + 'b');",
      { cpuTimeMs: 200, wallTimeMs: 60_000 },
      'cpu-time',
    ],
    ['a microtask loop', 'for (;;) await null;', { cpuTimeMs: 60_000, wallTimeMs: 300 }, 'wall-clock'],
    [
      'a never-resolving promise',
      'await new Promise(() => {});',
      { cpuTimeMs: 60_000, wallTimeMs: 300 },
      'wall-clock',
    ],
    [
      'Atomics.wait',
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return "woke";',
      { cpuTimeMs: 60_000, wallTimeMs: 300 },
      'wall-clock',
    ],
    [
      'a memory bomb',
      'const hoard = []; for (;;) hoard.push(new Array(100000).fill(Math.random()));',
      { memoryMb: 16, cpuTimeMs: 60_000, wallTimeMs: 60_000 },
      'memory',
    ],
    ['an oversized result', "return 'x'.repeat(5000);", { maxResultBytes: 1000 }, 'result-size'],
  ] as const)('ends %s with SANDBOX_LIMIT', async (_name, code, limits, reason) => {
    const failure = failureOf(await run(code, limits));
    expect(failure).toMatchObject({ code: 'SANDBOX_LIMIT', reason });
    await expectHealthy();
  });

  it('ends a background loop left running after the result without hurting the next call', async () => {
    const result = await run('(async () => { await null; for (;;) await null; })(); return "returned";', {
      cpuTimeMs: 300,
      wallTimeMs: 600,
    });
    // Either the loop starved the result (a limit) or the result came first; the next call must be healthy.
    expect(result.ok ? result.value : (result as { reason?: string }).reason).toMatch(
      /returned|cpu-time|wall-clock/,
    );
    await expectHealthy();
  });

  it('turns deep recursion into a tool error', async () => {
    const failure = failureOf(await run('function down(n) { return down(n + 1) + 1; } return down(0);'));
    expect(failure.code).toBe('SANDBOX_ERROR');
    expect(failure.message).toMatch(/call stack/i);
    await expectHealthy();
  });

  it('has no fetch when the network is blocked', async () => {
    const failure = failureOf(await run("return await fetch('https://example.com/');"));
    expect(failure).toMatchObject({ code: 'SANDBOX_ERROR' });
    expect(failure.message).toMatch(/ReferenceError: fetch is not defined/);
    await expectHealthy();
  });

  // Masking is the second line: these tools opt into plaintext secrets (`secretsInCode`) so that it is tested.
  it('masks a secret echoed through console, result and error', async () => {
    const secret = 'tok-4f9a-SECRET';
    const ok = await runner.run({
      toolId: TOOL,
      toolName: 'escape',
      code: 'console.log("token", apiKey); console.warn({ nested: apiKey + "!" }); return { echoed: apiKey, [apiKey]: 1 };',
      args: { apiKey: secret },
      secrets: [secret],
      policy: testPolicy({ secretsInCode: true }),
    });
    expect(ok).toMatchObject({ ok: true, value: { echoed: '***', '***': 1 } });
    expect(ok.console).toEqual(['token ***', '[warn] {"nested":"***!"}']);
    expect(JSON.stringify(ok)).not.toContain(secret);
    const failed = await runner.run({
      toolId: TOOL,
      toolName: 'escape',
      code: 'throw new Error("leaking " + apiKey);',
      args: { apiKey: secret },
      secrets: [secret],
      policy: testPolicy({ secretsInCode: true }),
    });
    expect(failureOf(failed).message).toBe('Error: leaking ***');
  });

  it('does not leak a secret cut in half by the console line limit', async () => {
    const secret = 'S'.repeat(10) + 'ECRET-VALUE';
    const small = createToolRunner({ maxConsoleLineChars: 50 });
    try {
      const result = await small.run({
        toolId: 'clip',
        toolName: 'clip',
        code: 'console.log("x".repeat(45) + key + "tail");',
        args: { key: secret },
        secrets: [secret],
        policy: testPolicy({ secretsInCode: true }),
      });
      const line = result.console[0] ?? '';
      expect(line).not.toContain('ECRET');
      expect(line).toContain('truncated');
    } finally {
      await small.close();
    }
  });

  it('caps the number of console entries', async () => {
    const result = await run('for (let i = 0; i < 50; i++) console.log(i); return 1;', {
      maxConsoleEntries: 5,
    });
    expect(result.console).toEqual(['0', '1', '2', '3', '4']);
  });

  it('rejects parameter names that are not identifiers or shadow injected globals', async () => {
    for (const name of ['not-an-identifier', 'fetch', 'safety', 'class', '__pcRun']) {
      const result = await runner.run({
        toolId: TOOL,
        toolName: 'escape',
        code: 'return 1;',
        args: { [name]: 1 },
        secrets: [],
        policy: testPolicy(),
      });
      expect(result).toMatchObject({ ok: false, code: 'INVALID_INPUT', reason: 'invalid-parameter-name' });
    }
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    const pending = runner.run({
      toolId: TOOL,
      toolName: 'escape',
      code: 'for (;;) {}',
      args: {},
      secrets: [],
      policy: testPolicy(),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ ok: false, code: 'SANDBOX_ERROR', reason: 'cancelled' });
    await expectHealthy();
  });
});
