// safety.fs must not read outside its base when a directory on the path is swapped for a symlink between the
// path check and the open (time-of-check/time-of-use). A child process swaps the entry in a tight loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import { testPolicy } from './policy-fixture.ts';

let root: string;
let base: string;
let swapper: ChildProcess;
const runner = createToolRunner();

const SWAP = `
const { renameSync } = require('node:fs');
const [sub, real, link] = process.argv.slice(1);
for (;;) {
  try { renameSync(real, sub); renameSync(sub, real); renameSync(link, sub); renameSync(sub, link); } catch {}
}`;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'pc-race-'));
  base = path.join(root, 'base');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(base, 'sub-real'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(base, 'sub-real', 'file.txt'), 'inside\n');
  writeFileSync(path.join(outside, 'file.txt'), 'SECRET outside the base\n');
  writeFileSync(path.join(outside, 'SECRET.txt'), 'SECRET\n');
  symlinkSync(outside, path.join(base, 'sub-link'));
  swapper = spawn(
    process.execPath,
    ['-e', SWAP, path.join(base, 'sub'), path.join(base, 'sub-real'), path.join(base, 'sub-link')],
    { stdio: 'ignore' },
  );
});

afterAll(async () => {
  swapper?.kill('SIGKILL');
  await runner.close();
  rmSync(root, { recursive: true, force: true });
});

const TOOL = `
const seen = { inside: 0, leaked: 0, refused: 0 };
for (let n = 0; n < 1500; n += 1) {
  for (const op of ['readText', 'list', 'stat']) {
    try {
      const value = op === 'readText' ? safety.fs.readText('sub/file.txt')
        : op === 'list' ? safety.fs.list('sub').join(',') : String(safety.fs.stat('sub/file.txt').size);
      if (value.includes('SECRET') || value === '24') seen.leaked += 1;
      else seen.inside += 1;
    } catch (error) {
      seen.refused += 1;
    }
  }
}
return seen;`;

describe('safety.fs under a symlink swap race', () => {
  it('never reads, lists or stats outside the base', { timeout: 120_000 }, async () => {
    const result = await runner.run({
      toolId: 'racer',
      toolName: 'racer',
      code: TOOL,
      args: {},
      secrets: [],
      policy: testPolicy({ fileRead: true, fsBasePath: base }, { wallTimeMs: 100_000, cpuTimeMs: 100_000 }),
    });
    expect(result.ok).toBe(true);
    const seen = (result as { value: { inside: number; leaked: number; refused: number } }).value;
    expect(seen.inside).toBeGreaterThan(0);
    expect(seen.leaked).toBe(0);
  });
});
