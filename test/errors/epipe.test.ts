/**
 * Issue 14, defect 10: `portcullis audit tail | head -1`. When the reader closes the pipe, the CLI ends quietly
 * with status 0 instead of dying on EPIPE with a stack trace.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAuditLog } from '../../src/audit/index.ts';
import { openStore } from '../../src/store/index.ts';
import { ROOT, tempDir } from '../helpers/gateway-harness.ts';
import { CLI, type Ran } from './run-cli.ts';

const dbPath = path.join(tempDir('portcullis-epipe-'), 'portcullis.db');

describe('portcullis audit tail piped into a reader that stops early', () => {
  it('exits quietly with status 0 when the pipe closes (EPIPE)', async () => {
    const store = openStore({ path: dbPath });
    const log = createAuditLog(store);
    for (let i = 0; i < 3000; i += 1)
      log.append({
        time: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString(),
        principal: 'alice',
        sessionId: null,
        alias: `tool_${i}_${'x'.repeat(200)}`,
        origin: 'upstream',
        upstreamId: 'files',
        upstreamTool: 'read_file',
        risk: { final: 'L2', floorTrigger: null, hitlMitigated: false },
        approval: { mode: 'DISABLED', decision: 'allow' },
        arguments: { i },
        outcome: 'OK',
        durationMs: i,
        traceId: null,
      } as Parameters<typeof log.append>[0]);
    store.close();

    const ran = await new Promise<Ran & { firstLine: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [...CLI, 'audit', 'tail', '-n', '3000', '--db', dbPath], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      // Like `| head -1`: read the first line, then close the reading end of the pipe.
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) child.stdout.destroy();
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`audit tail did not end; stderr: ${stderr.slice(-2000)}`));
      }, 30_000);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr, firstLine: stdout.split('\n')[0] ?? '' });
      });
    });
    expect(ran.firstLine).toMatch(/ {2}alice {2}tool_\d+_x+ {2}files\/read_file {2}/);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
  });
});
