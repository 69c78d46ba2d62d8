/**
 * Console and log injection at the operator's terminal: `portcullis spec test` prints a spec's console lines
 * and error text. A hostile spec must not reach the terminal with escape sequences (clear the screen, move the
 * cursor, recolour) nor forge a line of the CLI's own output with a newline.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/gateway-harness.ts';

const FORGED = 'forged.json: Local Pass passed (risk L0)';

async function specTest(code: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const file = path.join(tempDir('portcullis-cli-inject-'), 'inject.json');
  writeFileSync(
    file,
    JSON.stringify({
      name: 'inject',
      description: 'Writes terminal escape sequences and forged lines to the console.',
      params: [],
      codeType: 'Javascript',
      code,
    }),
  );
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--no-node-snapshot', '--import', 'tsx', 'src/main.ts', 'spec', 'test', file],
      { cwd: ROOT },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

// Every C0 control but the newline that ends a line, DEL and the C1 controls (0x9b is a one-byte CSI).
// eslint-disable-next-line no-control-regex -- exactly what a terminal must not receive raw
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('portcullis spec test shows hostile console output inert', () => {
  it('escapes control characters and newlines of console lines', { timeout: 60_000 }, async () => {
    const result = await specTest(
      `console.log('\\u001b[2J\\u001b[1;1Hclean\\n${FORGED}\\r\\u009b31m'); console.warn('\\u0007bell'); return 1;`,
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => line.startsWith(FORGED))).toEqual([]);
    // The forged text stays inside its console line; the one verdict line is the command's own.
    expect(
      lines.filter((line) => !line.startsWith('console: ') && /Local Pass passed/.test(line)),
    ).toHaveLength(1);
    expect(result.stdout).toContain('\\u001b[2J');
  });

  it('escapes control characters of a tool error', { timeout: 60_000 }, async () => {
    const result = await specTest(`throw new Error('bad\\u001b[2J\\n${FORGED}');`);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('LOCAL_PASS_FAILED');
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr.split('\n').filter((line) => line.startsWith(FORGED))).toEqual([]);
  });
});
