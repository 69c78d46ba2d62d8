import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A hard V8 out-of-memory would abort the process without an onCatastrophicError handler, so this runs in a
// child process: the gateway process must survive, quarantine the tool, and keep serving other tools.
function runChild(): Promise<string> {
  const child = fileURLToPath(new URL('./fixtures/catastrophic-child.ts', import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--no-node-snapshot', '--import', 'tsx', child],
      { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout) => resolve(stdout),
    );
  });
}

describe('a catastrophic out-of-memory in one isolate', () => {
  it('does not take the process down and quarantines the tool until it is evicted', async () => {
    const stdout = await runChild();
    const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
    expect(line).toBeDefined();
    const report = JSON.parse(line as string) as Record<string, Record<string, unknown> | unknown[] | string>;
    expect(report.bomb).toMatchObject({ ok: false, code: 'SANDBOX_LIMIT', reason: 'memory' });
    expect(report.again).toMatchObject({ ok: false, code: 'SANDBOX_LIMIT', reason: 'memory' });
    expect((report.again as { message: string }).message).toMatch(/quarantined/);
    expect(report.other).toMatchObject({ ok: true, value: 2 });
    expect(report.afterEvict).toMatchObject({ ok: true, value: 3 });
    expect(report.events).toEqual([expect.objectContaining({ toolId: report.toolId })]);
  });
});
