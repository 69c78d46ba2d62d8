import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditLog } from '../audit/index.ts';
import { createLedger } from '../ledger/index.ts';
import { openStore } from '../store/index.ts';
import { runLedger } from './ledger.ts';

let dir: string;
let out: string[];
let err: string[];
const io = () => ({ stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t), cwd: dir });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portcullis-cli-ledger-'));
  out = [];
  err = [];
  writeFileSync(join(dir, 'portcullis.yaml'), 'store: { path: ./p.db }\n');
  const store = openStore({ path: join(dir, 'p.db') });
  createLedger(store.ledger, () => 1).check('files', 'write_file', {
    hash: 'a'.repeat(64),
    profile: 'portcullis',
  });
  store.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function adminRows() {
  const store = openStore({ path: join(dir, 'p.db') });
  try {
    return createAuditLog(store)
      .query({ order: 'asc' })
      .entries.map((e) => e.record)
      .filter((r) => r.origin === 'admin')
      .map((r) => [
        r.alias,
        r.outcome,
        r.origin === 'admin' ? r.reason : null,
        r.principal?.startsWith('cli:'),
      ]);
  } finally {
    store.close();
  }
}

describe('portcullis ledger', () => {
  it('revokes, refuses an approve of a revoked tool, restores, and audits each with the reason', async () => {
    expect(await runLedger(['revoke', 'files', 'write_file', '--reason', 'exfiltrates'], io())).toBe(0);
    expect(await runLedger(['approve', 'files', 'write_file'], io())).toBe(1);
    expect(err.join('')).toContain('restore it first');
    expect(await runLedger(['restore', 'files', 'write_file', '--reason', 'fixed upstream'], io())).toBe(0);
    expect(out.join('')).toContain('RESTORED files::write_file');
    expect(await runLedger(['restore', 'files', 'write_file'], io())).toBe(1);
    expect(err.join('')).toContain('not revoked');
    expect(adminRows()).toEqual([
      ['admin.ledger.revoke', 'OK', 'exfiltrates', true],
      ['admin.ledger.approve', 'ERROR', null, true],
      ['admin.ledger.restore', 'OK', 'fixed upstream', true],
      ['admin.ledger.restore', 'ERROR', null, true],
    ]);
  });

  it('acts on a prompt of the same name as a tool with --kind, and refuses an unknown kind', async () => {
    const store = openStore({ path: join(dir, 'p.db') });
    createLedger(store.ledger, () => 1).checkSurface('files', {
      kind: 'prompt',
      item: { name: 'write_file', description: 'Drafts a file.' },
    });
    store.close();
    expect(
      await runLedger(['revoke', 'files', 'write_file', '--kind', 'prompt', '--reason', 'x'], io()),
    ).toBe(0);
    expect(out.join('')).toContain('REVOKED prompt:files::write_file');
    expect(await runLedger(['list'], io())).toBe(0);
    expect(out.join('')).toMatch(/REVOKED\s+prompt:files::write_file/);
    expect(out.join('')).toMatch(/ACTIVE\s+files::write_file/);
    expect(await runLedger(['revoke', 'files', 'write_file', '--kind', 'widget'], io())).toBe(1);
    expect(err.join('')).toContain('"kind" must be one of');
  });

  it('answers usage for an unknown action', async () => {
    expect(await runLedger(['delete', 'files', 'write_file'], io())).toBe(2);
    expect(err.join('')).toContain('usage: portcullis ledger');
  });
});
