/**
 * Issue 15, must-show 2, file-system part: escapes from safety.fs by `..`, absolute paths, symlinks (to files,
 * to directories, dangling), hard links, FIFOs, NUL bytes and a symlink swapped in during reads and writes,
 * each through a published spec called over /mcp, with the client supplying the hostile path. Nothing outside
 * the workspace may be read, listed, written, moved or deleted.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/gateway-harness.ts';
import { startAttackBench, type AttackBench, type AttackSpec, type Seen } from './attack-gateway.ts';

const root = tempDir('portcullis-fs-attacks-');
const ws = path.join(root, 'ws');
const out = path.join(root, 'out');
const OUTSIDE = { 'secret.txt': 'OUTSIDE secret\n', 'hard-target.txt': 'OUTSIDE hard-linked\n' };
const rw = { fileRead: true, fileWrite: true };

const SPECS: AttackSpec[] = [
  { name: 'readAny', params: ['p'], code: 'return safety.fs.readText(p);', overrides: rw },
  { name: 'listAny', params: ['p'], code: 'return safety.fs.list(p);', overrides: rw },
  { name: 'findAny', params: ['p'], code: 'return safety.fs.find(p);', overrides: rw },
  { name: 'grepAny', params: ['pattern', 'p'], code: 'return safety.fs.grep(pattern, p);', overrides: rw },
  { name: 'statAny', params: ['p'], code: 'return safety.fs.stat(p).size;', overrides: rw },
  { name: 'writeAny', params: ['p'], code: "return safety.fs.writeText(p, 'pwned');", overrides: rw },
  { name: 'appendAny', params: ['p'], code: "return safety.fs.appendText(p, 'pwned');", overrides: rw },
  { name: 'copyAny', params: ['from', 'to'], code: 'return safety.fs.copy(from, to);', overrides: rw },
  { name: 'moveNoGrant', params: ['from', 'to'], code: 'return safety.fs.move(from, to);', overrides: rw },
  {
    name: 'moveAny',
    params: ['from', 'to'],
    code: 'return safety.fs.move(from, to);',
    overrides: { ...rw, destructive: true },
  },
  {
    name: 'deleteAny',
    params: ['p'],
    code: 'return safety.fs.delete(p);',
    overrides: { ...rw, destructive: true },
  },
  {
    name: 'deleteDirAny',
    params: ['p'],
    code: 'return safety.fs.deleteDir(p);',
    overrides: { ...rw, destructive: true },
  },
  {
    name: 'linkHelpers',
    code: "return ['link', 'symlink', 'mkfifo', 'chmod', 'open', 'realpath'].filter((n) => n in safety.fs).join(',') || 'none';",
    overrides: rw,
  },
  {
    name: 'raceReader',
    code: `let inside = 0, leaked = 0, refused = 0;
      for (let n = 0; n < 400; n += 1) {
        try { const text = safety.fs.readText('race/file.txt'); if (text.includes('OUTSIDE')) leaked += 1; else inside += 1; }
        catch (error) { refused += 1; }
        try { if (safety.fs.list('race').includes('race/secret.txt')) leaked += 1; } catch (error) { refused += 1; }
      }
      return { inside, leaked, refused };`,
    overrides: rw,
  },
  {
    name: 'raceWriter',
    code: `let written = 0, refused = 0;
      for (let n = 0; n < 400; n += 1) {
        try { safety.fs.writeText('race/planted-' + (n % 7) + '.txt', 'pwned'); written += 1; }
        catch (error) { refused += 1; }
      }
      return { written, refused };`,
    overrides: rw,
  },
];

let bench: AttackBench;

function snapshotOutside(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(out).map((name) => [name, readFileSync(path.join(out, name), 'utf8')]),
  );
}

beforeAll(async () => {
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  mkdirSync(out);
  for (const [name, text] of Object.entries(OUTSIDE)) writeFileSync(path.join(out, name), text);
  writeFileSync(path.join(ws, 'inside.txt'), 'inside\n');
  writeFileSync(path.join(ws, 'movable.txt'), 'movable\n');
  writeFileSync(path.join(ws, 'redos.txt'), `${'a'.repeat(40)}b\n`);
  symlinkSync('inside.txt', path.join(ws, 'link-in'));
  symlinkSync(path.join(out, 'secret.txt'), path.join(ws, 'link-out'));
  symlinkSync(out, path.join(ws, 'dir-out'));
  symlinkSync(path.join(out, 'not-yet.txt'), path.join(ws, 'dangling-out'));
  linkSync(path.join(out, 'hard-target.txt'), path.join(ws, 'hard'));
  execFileSync('mkfifo', [path.join(ws, 'pipe')]);
  bench = await startAttackBench(SPECS, { workspace: ws });
}, 120_000);

afterAll(async () => {
  await bench?.close();
  rmSync(root, { recursive: true, force: true });
});

type Case = [string, string, Record<string, string>, { code: string; reason: string } | { text: string }];

const escapes = { code: 'SECURITY', reason: 'path-escapes-base' };
const outsideWrite = { code: 'SECURITY', reason: 'write-outside-workspace' };
const viaSymlink = { code: 'SECURITY', reason: 'write-through-symlink' };
const notRegular = { code: 'SECURITY', reason: 'not-a-regular-file' };
const hardLinked = { code: 'SECURITY', reason: 'hard-linked-file' };

const CASES: Case[] = [
  ['read by ..', 'readAny', { p: '../out/secret.txt' }, escapes],
  ['read by a .. detour through a folder', 'readAny', { p: 'sub/../../out/secret.txt' }, escapes],
  ['read by dots and doubled slashes', 'readAny', { p: './sub/./../..//out/secret.txt' }, escapes],
  ['read of the parent itself', 'readAny', { p: '..' }, escapes],
  ['read by an absolute path outside', 'readAny', { p: path.join(out, 'secret.txt') }, escapes],
  ['read of /etc/passwd', 'readAny', { p: '/etc/passwd' }, escapes],
  ['read of /proc/self/environ', 'readAny', { p: '/proc/self/environ' }, escapes],
  [
    'read through /proc/self/root',
    'readAny',
    { p: `/proc/self/root${path.join(out, 'secret.txt')}` },
    escapes,
  ],
  ['read of a symlink to an outside file', 'readAny', { p: 'link-out' }, escapes],
  ['read through a symlinked folder', 'readAny', { p: 'dir-out/secret.txt' }, escapes],
  ['read of a dangling symlink', 'readAny', { p: 'dangling-out' }, escapes],
  [
    'read of a NUL-truncated path',
    'readAny',
    { p: 'inside.txt\u0000../../out/secret.txt' },
    { code: 'INVALID_INPUT', reason: 'invalid-path' },
  ],
  ['read of a FIFO (would block forever)', 'readAny', { p: 'pipe' }, notRegular],
  ['read of a hard link to an outside file', 'readAny', { p: 'hard' }, hardLinked],
  ['read of a symlink that stays inside (allowed)', 'readAny', { p: 'link-in' }, { text: 'inside\n' }],
  ['list through a symlinked folder', 'listAny', { p: 'dir-out' }, escapes],
  ['list of the parent', 'listAny', { p: '..' }, escapes],
  ['list of /', 'listAny', { p: '/' }, escapes],
  ['stat of an outside file by ..', 'statAny', { p: '../out/secret.txt' }, escapes],
  ['grep through a symlink', 'grepAny', { pattern: 'OUTSIDE', p: 'link-out' }, escapes],
  [
    'grep with a catastrophic pattern',
    'grepAny',
    { pattern: '^(a+)+$', p: 'redos.txt' },
    { code: 'SANDBOX_LIMIT', reason: 'cpu-time' },
  ],
  ['write through a symlink to an outside file', 'writeAny', { p: 'link-out' }, viaSymlink],
  ['write through a dangling symlink', 'writeAny', { p: 'dangling-out' }, viaSymlink],
  ['write into a symlinked folder', 'writeAny', { p: 'dir-out/planted.txt' }, outsideWrite],
  ['write by ..', 'writeAny', { p: '../out/planted.txt' }, outsideWrite],
  ['write by an absolute path', 'writeAny', { p: path.join(out, 'planted.txt') }, outsideWrite],
  ['write into a FIFO', 'writeAny', { p: 'pipe' }, notRegular],
  ['write through a hard link', 'writeAny', { p: 'hard' }, hardLinked],
  ['append through a symlink', 'appendAny', { p: 'link-out' }, viaSymlink],
  ['append through a hard link', 'appendAny', { p: 'hard' }, hardLinked],
  ['copy out of a symlink', 'copyAny', { from: 'link-out', to: 'stolen.txt' }, escapes],
  ['copy out of a hard link', 'copyAny', { from: 'hard', to: 'stolen.txt' }, hardLinked],
  ['copy to outside', 'copyAny', { from: 'inside.txt', to: '../out/planted.txt' }, outsideWrite],
  [
    'move without the destructive grant',
    'moveNoGrant',
    { from: 'movable.txt', to: 'x.txt' },
    { code: 'SECURITY', reason: 'destructive-not-allowed' },
  ],
  ['move to outside', 'moveAny', { from: 'movable.txt', to: '../out/moved.txt' }, outsideWrite],
  ['move an outside file in', 'moveAny', { from: '../out/secret.txt', to: 'stolen.txt' }, outsideWrite],
  ['delete an outside file', 'deleteAny', { p: '../out/secret.txt' }, outsideWrite],
  ['delete the workspace itself', 'deleteDirAny', { p: '.' }, { code: 'SECURITY', reason: 'workspace-root' }],
  ['delete a symlinked folder', 'deleteDirAny', { p: 'dir-out' }, viaSymlink],
];

function expectVerdict(seen: Seen, verdict: Case[3]): void {
  if ('text' in verdict) {
    expect(seen, seen.text).toMatchObject({ isError: false, text: verdict.text });
    return;
  }
  expect(seen, seen.text).toMatchObject({ isError: true, code: verdict.code, reason: verdict.reason });
  // Refusals name the tool's own path, never the host's absolute location of the workspace.
  expect(seen.text).not.toContain(ws);
  expect(seen.text).not.toContain('OUTSIDE');
}

describe('safety.fs escapes through the gateway', () => {
  it.each(CASES)('%s is refused or contained', async (_name, tool, args, verdict) => {
    expectVerdict(await bench.call(tool, args), verdict);
    expect(snapshotOutside()).toEqual(OUTSIDE);
  });

  it('walks past symlinked folders without entering them', async () => {
    const seen = await bench.call('findAny', { p: '.' });
    expect(seen.isError, seen.text).toBe(false);
    expect(seen.text).toContain('dir-out');
    expect(seen.text).not.toContain('secret.txt');
  });

  it('offers tool code no way to make links, FIFOs or raw descriptors', async () => {
    expect(await bench.call('linkHelpers')).toMatchObject({ isError: false, text: 'none' });
  });
});

// A child process swaps race/ between a real folder and a symlink to the outside folder in a tight loop.
const SWAP = `
const { renameSync } = require('node:fs');
const [race, real, link] = process.argv.slice(1);
for (;;) {
  try { renameSync(real, race); renameSync(race, real); renameSync(link, race); renameSync(race, link); } catch {}
}`;

describe('safety.fs under a symlink swap race', () => {
  let swapper: ChildProcess | undefined;
  beforeAll(() => {
    mkdirSync(path.join(ws, 'race-real'));
    writeFileSync(path.join(ws, 'race-real', 'file.txt'), 'inside race\n');
    writeFileSync(path.join(out, 'file.txt'), 'OUTSIDE race\n');
    symlinkSync(out, path.join(ws, 'race-link'));
    swapper = spawn(
      process.execPath,
      ['-e', SWAP, path.join(ws, 'race'), path.join(ws, 'race-real'), path.join(ws, 'race-link')],
      { stdio: 'ignore' },
    );
  });
  afterAll(() => {
    swapper?.kill('SIGKILL');
  });

  it('never reads or lists the outside folder', { timeout: 120_000 }, async () => {
    const seen = await bench.call('raceReader');
    expect(seen.isError, seen.text).toBe(false);
    const counts = JSON.parse(seen.text) as { inside: number; leaked: number; refused: number };
    expect(counts.inside).toBeGreaterThan(0);
    expect(counts.leaked).toBe(0);
  });

  it('never writes into the outside folder', { timeout: 120_000 }, async () => {
    const seen = await bench.call('raceWriter');
    expect(seen.isError, seen.text).toBe(false);
    const counts = JSON.parse(seen.text) as { written: number; refused: number };
    expect(counts.written + counts.refused).toBe(400);
    expect(readdirSync(out).filter((name) => name.startsWith('planted'))).toEqual([]);
  });
});
