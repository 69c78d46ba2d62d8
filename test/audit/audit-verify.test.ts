/**
 * Issue 5, "it must show" 3 (tamper evidence): the audit chain written by a real gateway verifies, the store's
 * triggers refuse an ordinary UPDATE, and once an attacker drops the trigger and edits a row with the sqlite3
 * shell, verification fails and names the edited row.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../src/audit/index.ts';
import { openStore } from '../../src/store/index.ts';
import {
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';
import { auditRecords, writeConfigFile } from '../helpers/serve-support.ts';

const dir = tempDir('portcullis-e2e-verify-');
const dbPath = path.join(dir, 'portcullis.db');
const marker = `e2e-${randomUUID()}`;
const messages = ['first', 'second', 'third'].map((word) => `${word} ${marker}`);
const sqliteAvailable = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' }).status === 0;
let gateway: RunningGateway | undefined;

beforeAll(async () => {
  gateway = await startGateway({ store: { path: dbPath }, upstreams: { every: UPSTREAMS.everythingStdio } });
  const client = await connectClient(gateway.url, { era: 'legacy' });
  for (const message of messages) await client.callTool({ name: 'every_echo', arguments: { message } });
  await client.close();
  await gateway.close();
  gateway = undefined;
  writeConfigFile(dir, { store: { path: 'portcullis.db' } });
}, 120_000);
afterAll(async () => gateway?.close());

/** Runs the real `portcullis audit verify --config portcullis.yaml` as an operator would. */
async function verifyCommand(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--no-node-snapshot',
        '--import',
        'tsx',
        path.join(ROOT, 'src/main.ts'),
        'audit',
        'verify',
        '--config',
        path.join(dir, 'portcullis.yaml'),
      ],
      { cwd: ROOT },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function sqlite(script: string): { status: number | null; stderr: string } {
  const run = spawnSync('sqlite3', [dbPath], { input: script, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, stderr: run.stderr };
}

async function rowOf(message: string) {
  const store = openStore({ path: dbPath });
  try {
    return (await auditRecords(store)).find((r) => JSON.stringify(r.arguments).includes(message));
  } finally {
    store.close();
  }
}

describe('audit verify over a gateway-written log', () => {
  it('verifies the untouched chain', async () => {
    const result = await verifyCommand();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^audit chain ok: 3 records, head 3:[0-9a-f]{64}\n$/);
  });

  describe.skipIf(!sqliteAvailable)(
    sqliteAvailable
      ? 'with the sqlite3 shell'
      : 'with the sqlite3 shell (SKIPPED: no sqlite3 binary on PATH)',
    () => {
      it('refuses an ordinary UPDATE through the append-only trigger', async () => {
        const refused = sqlite(
          `UPDATE audit_log SET record = replace(record, 'second', 'forged') WHERE record LIKE '%second ${marker}%';\n`,
        );
        expect(refused.status).not.toBe(0);
        expect(refused.stderr).toContain('audit_log is append-only');
        expect((await verifyCommand()).code).toBe(0);
      });

      it('fails after the trigger is dropped and a row is edited, naming that row', async () => {
        const target = await rowOf(`second ${marker}`);
        expect(target).toBeDefined();
        const edited = sqlite(
          [
            'DROP TRIGGER audit_log_no_update;',
            `UPDATE audit_log SET record = replace(record, 'second ${marker}', 'forged ${marker}') WHERE id = '${target?.id}';`,
            `SELECT changes();`,
            '',
          ].join('\n'),
        );
        expect(edited.stderr).toBe('');
        expect(edited.status).toBe(0);
        expect((await rowOf(`forged ${marker}`))?.id).toBe(target?.id);

        const result = await verifyCommand();
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(/^audit chain BROKEN \(edited\): /);

        const store = openStore({ path: dbPath });
        try {
          expect(verifyAuditChain(store)).toMatchObject({
            ok: false,
            problem: 'edited',
            firstBadId: target?.id,
          });
        } finally {
          store.close();
        }
      });
    },
  );
});
