/**
 * Issue 14, defect 10: failures nothing caught. A real node process installs the CLI's process handlers, then
 * loses a promise and throws from a timer: each is one masked JSON line without a stack; the rejection leaves
 * the process running, the exception ends it with status 1.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/gateway-harness.ts';
import { STACK_LINE, type Ran } from './run-cli.ts';

const SCRIPT = `
import { installProcessFaultHandlers, maskFaultsWith } from './src/cli/process-faults.ts';
import { createMasker } from './src/secrets/index.ts';
installProcessFaultHandlers((code) => process.exit(code));
maskFaultsWith(createMasker(['sk-live-12345']));
void Promise.reject(new Error('lost promise with sk-live-12345\\nsecond line'));
setTimeout(() => process.stdout.write('still running\\n'), 200);
setTimeout(() => { throw Object.assign(new Error('timer blew up'), { code: 'EBOOM' }); }, 400);
setTimeout(() => process.stdout.write('not reached\\n'), 2000);
`;

describe('process fault handlers', () => {
  it('log one masked line per fault, survive a lost promise and exit 1 on an uncaught exception', async () => {
    const ran = await new Promise<Ran>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(ran.stderr).not.toMatch(STACK_LINE);
    const lines = ran.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        event: 'process.unhandled_rejection',
        code: 'INTERNAL',
        message: 'lost promise with ***',
      }),
      expect.objectContaining({
        level: 'error',
        event: 'process.uncaught_exception',
        code: 'EBOOM',
        message: 'timer blew up',
      }),
    ]);
    expect(ran.stdout).toBe('still running\n');
    expect(ran.code).toBe(1);
  });
});
