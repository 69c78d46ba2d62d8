import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A hard V8 out-of-memory would abort the process without an onCatastrophicError handler, so this runs in a
// child process: the gateway process must survive, give the tool a fresh isolate, quarantine it only after
// repeated failures, and let an operator lift the quarantine.
function runChild(): Promise<string> {
  const child = fileURLToPath(new URL('./fixtures/catastrophic-child.ts', import.meta.url));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--no-node-snapshot', '--import', 'tsx', child],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (_error, stdout) => resolve(stdout),
    );
  });
}

describe('catastrophic out-of-memory errors in a tool isolate', () => {
  it(
    'give the tool a fresh isolate, quarantine it after repeated failures, and an operator lifts it',
    { timeout: 150_000 },
    async () => {
      const stdout = await runChild();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
      expect(line).toBeDefined();
      const report = JSON.parse(line as string) as Record<string, unknown>;
      expect(report.bomb).toMatchObject({ ok: false, code: 'SANDBOX_LIMIT', reason: 'memory' });
      expect(report.afterOne).toMatchObject({ ok: true, value: 1 });
      expect(report.afterTwo).toMatchObject({ ok: true, value: 1 });
      expect(report.quarantined).toMatchObject({ ok: false, code: 'SANDBOX_LIMIT', reason: 'quarantined' });
      expect((report.quarantined as { message: string }).message).toMatch(
        /quarantined after 3 catastrophic out-of-memory errors/,
      );
      expect(report.other).toMatchObject({ ok: true, value: 2 });
      expect(report.lifted).toBe(true);
      expect(report.afterLift).toMatchObject({ ok: true, value: 3 });
      expect(report.events).toEqual([
        expect.objectContaining({ toolId: 'bomb', quarantined: false }),
        expect.objectContaining({ toolId: 'bomb', quarantined: false }),
        expect.objectContaining({ toolId: 'bomb', quarantined: true }),
      ]);
    },
  );
});
