/**
 * Issue 14, defect 10: a damaged SQLite file. Real files are written, closed and then damaged on disk; opening
 * the store (gateway start, every CLI command) and `audit verify` must refuse them with STORE_CORRUPT and a
 * message that says what to do, never a raw SQLITE_CORRUPT stack and never "chain ok".
 */
import { closeSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog, type AuditInput } from '../../src/audit/index.ts';
import { runAuditCommand } from '../../src/cli/audit.ts';
import { isPortcullisError } from '../../src/errors/index.ts';
import { openStore } from '../../src/store/index.ts';
import { tempDir } from '../helpers/gateway-harness.ts';

const PAGE = 4096;
let dir: string;
let db: string;

beforeEach(() => {
  dir = tempDir('portcullis-store-damage-');
  db = path.join(dir, 'portcullis.db');
});

function seed(count: number): void {
  const store = openStore({ path: db });
  const log = createAuditLog(store);
  for (let i = 0; i < count; i += 1)
    log.append({
      time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      principal: 'alice',
      sessionId: null,
      alias: `tool_${i}`,
      origin: 'upstream',
      upstreamId: 'files',
      upstreamTool: 'read_file',
      risk: { final: 'L2', floorTrigger: null, hitlMitigated: false },
      approval: { mode: 'DISABLED', decision: 'allow' },
      arguments: { i, text: 'y'.repeat(300) },
      outcome: 'OK',
      durationMs: i,
      traceId: null,
    } as AuditInput);
  store.close();
}

/** Overwrites 512 bytes in the middle of page `page` (0-based) with a pattern no b-tree page holds. */
function damagePage(page: number): void {
  const fd = openSync(db, 'r+');
  try {
    writeSync(fd, Buffer.alloc(512, 0xa5), 0, 512, page * PAGE + 1024);
  } finally {
    closeSync(fd);
  }
}

function pages(): number {
  return statSync(db).size / PAGE;
}

function refusal(): unknown {
  try {
    openStore({ path: db }).close();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function verify(): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAuditCommand(['verify', '--db', db], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('a damaged store', () => {
  it.each([
    ['a page in the middle', () => Math.floor(pages() / 2)],
    ['the last page', () => pages() - 1],
  ])('is refused at open when %s is damaged', async (_what, page) => {
    seed(200);
    expect(pages()).toBeGreaterThan(10);
    damagePage(page());

    const error = refusal();
    expect(isPortcullisError(error) && error.code).toBe('STORE_CORRUPT');
    const message = (error as Error).message;
    expect(message).toContain(`the database ${db} is damaged (quick_check: `);
    expect(message).toContain('restore it from a backup, or move it aside to start with an empty one');
    expect(message).toContain(`the audit journal files in ${dir} are kept`);
    expect(message).not.toContain('\n');

    const verdict = await verify();
    expect(verdict.out).not.toContain('chain ok');
    expect(verdict.err).toContain('STORE_CORRUPT: the database');
    expect(verdict.code).not.toBe(0);
  });

  it('refuses a file that is not a database at all', async () => {
    writeFileSync(db, 'these are my notes, not a database\n'.repeat(200));
    const before = readFileSync(db);
    const error = refusal();
    expect(isPortcullisError(error) && error.code).toBe('STORE_CORRUPT');
    expect((error as Error).message).toContain(`the file ${db} is not a SQLite database`);
    expect((error as Error).message).toContain('move it aside');
    expect(readFileSync(db).equals(before)).toBe(true);

    const verdict = await verify();
    expect(verdict.err).toContain('STORE_CORRUPT: the file');
    expect(verdict.code).not.toBe(0);
  });
});
