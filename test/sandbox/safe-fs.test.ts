import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import type { SandboxPolicy } from '../../src/sandbox/index.ts';
import { testPolicy } from './policy-fixture.ts';

let root: string;
let ws: string;
let outside: string;
let sibling: string;
const runner = createToolRunner();

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'portcullis-fs-'));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  sibling = path.join(root, 'ws-evil');
  for (const dir of [ws, outside, sibling, path.join(ws, 'sub'), path.join(ws, 'sub', 'deeper')])
    mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'outside secret');
  writeFileSync(path.join(sibling, 'secret.txt'), 'sibling secret');
  writeFileSync(path.join(ws, 'notes.txt'), 'alpha\nbeta\ngamma\nbeta two\n');
  writeFileSync(path.join(ws, 'numbers.txt'), '10\n9\nx\n100\n9\n');
  writeFileSync(path.join(ws, 'sub', 'table.tsv'), 'a\tb\tc\n1\t2\t3\n');
  writeFileSync(path.join(ws, 'sub', 'deeper', 'needle.txt'), 'hay\nneedle here\n');
  symlinkSync(outside, path.join(ws, 'link-out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'file-link'));
  symlinkSync(path.join(ws, 'notes.txt'), path.join(ws, 'inside-link'));
});

afterAll(async () => {
  await runner.close();
  rmSync(root, { recursive: true, force: true });
});

const read = (): SandboxPolicy => testPolicy({ fileRead: true, fsBasePath: ws });
const readWrite = (destructive = false): SandboxPolicy =>
  testPolicy({ fileRead: true, fileWrite: true, fsBasePath: ws, destructive });

async function attempt(
  code: string,
  policy: SandboxPolicy,
  args: Record<string, unknown> = {},
): Promise<unknown> {
  const wrapped = `try { return { ok: (() => { ${code} })() }; } catch (e) { return { code: e.code, reason: e.reason }; }`;
  const result = await runner.run({
    toolId: 'fs-tool',
    toolName: 'fs',
    code: wrapped,
    args,
    secrets: [],
    policy,
  });
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.value;
}

describe('safety.fs confinement', () => {
  it('is absent without file access', async () => {
    expect(await attempt('return typeof safety.fs;', testPolicy())).toEqual({ ok: 'undefined' });
  });

  it('reads inside the base, including through a symlink that stays inside', async () => {
    expect(
      await attempt(
        "return [safety.fs.readText('notes.txt').length, safety.fs.readText('inside-link').length];",
        read(),
      ),
    ).toEqual({
      ok: [26, 26],
    });
  });

  it.each([
    ['a ../ traversal', '../outside/secret.txt'],
    ['a deep traversal', 'sub/../../outside/secret.txt'],
    ['an absolute path outside', '/etc/passwd'],
    ['a symlinked directory pointing out', 'link-out/secret.txt'],
    ['a symlinked file pointing out', 'file-link'],
    ['a sibling directory named like the base', '../ws-evil/secret.txt'],
  ])('refuses %s', async (_name, target) => {
    expect(await attempt('return safety.fs.readText(target);', read(), { target })).toEqual({
      code: 'SECURITY',
      reason: 'path-escapes-base',
    });
    expect(await attempt('return safety.fs.exists(target);', read(), { target })).toEqual({ ok: false });
  });

  it('refuses the absolute path of the sibling directory', async () => {
    expect(
      await attempt('return safety.fs.readText(target);', read(), {
        target: path.join(sibling, 'secret.txt'),
      }),
    ).toEqual({
      code: 'SECURITY',
      reason: 'path-escapes-base',
    });
  });

  it.each([
    ['a NUL byte', 'notes.txt\u0000.png', 'invalid-path'],
    ['a missing path', undefined, 'path-required'],
    ['a non-string path', 42, 'path-required'],
  ])('refuses %s as INVALID_INPUT', async (_name, target, reason) => {
    expect(await attempt('return safety.fs.readText(target);', read(), { target })).toEqual({
      code: 'INVALID_INPUT',
      reason,
    });
  });

  it('refuses every write without fileWrite', async () => {
    for (const call of ["writeText('x.txt', 'y')", "appendText('notes.txt', 'y')", "deleteDir('sub')"]) {
      expect(await attempt(`return safety.fs.${call};`, read())).toEqual({
        code: 'SECURITY',
        reason: 'file-write-not-allowed',
      });
    }
    expect(existsSync(path.join(ws, 'x.txt'))).toBe(false);
  });

  it('refuses reads with fileWrite alone', async () => {
    expect(
      await attempt(
        "return safety.fs.readText('notes.txt');",
        testPolicy({ fileWrite: true, fsBasePath: ws }),
      ),
    ).toEqual({
      code: 'SECURITY',
      reason: 'file-read-not-allowed',
    });
  });

  it.each([
    ['through a symlinked file', 'file-link', 'write-through-symlink'],
    ['into a symlinked directory', 'link-out/planted.txt', 'write-outside-workspace'],
    ['into the sibling directory', '../ws-evil/planted.txt', 'write-outside-workspace'],
    ['to an absolute path outside', '<outside>/planted.txt', 'write-outside-workspace'],
  ])('refuses a write %s', async (_name, pattern, reason) => {
    const target = pattern.replace('<outside>', outside);
    expect(await attempt("return safety.fs.writeText(target, 'pwned');", readWrite(), { target })).toEqual({
      code: 'SECURITY',
      reason,
    });
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(sibling, 'planted.txt'))).toBe(false);
  });

  it('gates move, delete and deleteDir on destructive', async () => {
    for (const call of ["move('notes.txt', 'moved.txt')", "delete('notes.txt')", "deleteDir('sub')"]) {
      expect(await attempt(`return safety.fs.${call};`, readWrite(false))).toEqual({
        code: 'SECURITY',
        reason: 'destructive-not-allowed',
      });
    }
    expect(existsSync(path.join(ws, 'notes.txt'))).toBe(true);
  });
});

describe('safety.fs operations', () => {
  it('offers the read group', async () => {
    expect(
      await attempt(
        `
      const fs = safety.fs;
      return {
        list: fs.list('.'),
        grep: fs.grep('^beta', 'notes.txt', { numbered: true }),
        grepCase: fs.grep('ALPHA', 'notes.txt', { caseInsensitive: true }),
        lines: fs.lineCount('notes.txt'),
        tail: fs.slice('notes.txt', -2),
        cut: fs.cut('sub/table.tsv', { fields: [3, 1] }),
        sorted: fs.sort('numbers.txt', { numeric: true, unique: true }),
        found: fs.find('.', '*.t?t', { type: 'file' }),
        shallow: fs.find('.', '*.txt', { maxDepth: 1 }),
        hits: fs.searchInFiles('.', 'needle', { glob: '*.txt' }),
        stat: fs.stat('notes.txt').size,
        roots: [fs.workspace() === base, fs.readRoots().length],
      };`,
        read(),
        { base: ws },
      ),
    ).toEqual({
      ok: {
        list: ['file-link', 'inside-link', 'link-out', 'notes.txt', 'numbers.txt', 'sub'],
        grep: ['2:beta', '4:beta two'],
        grepCase: ['alpha'],
        lines: 4,
        tail: ['gamma', 'beta two'],
        cut: ['c\ta', '3\t1'],
        sorted: ['9', '10', '100', 'x'],
        found: ['notes.txt', 'numbers.txt', 'sub/deeper/needle.txt'],
        shallow: ['notes.txt', 'numbers.txt'],
        hits: [{ path: 'sub/deeper/needle.txt', line: 2, text: 'needle here' }],
        stat: 26,
        roots: [true, 1],
      },
    });
  });

  it('runs tool-supplied regexes inside the isolate, under the CPU budget', async () => {
    writeFileSync(path.join(ws, 'redos.txt'), `${'a'.repeat(40)}b\n`);
    const result = await runner.run({
      toolId: 'fs-tool',
      toolName: 'fs',
      code: "return safety.fs.grep('^(a+)+$', 'redos.txt');",
      args: {},
      secrets: [],
      policy: testPolicy({ fileRead: true, fsBasePath: ws }, { cpuTimeMs: 200, wallTimeMs: 60_000 }),
    });
    expect(result).toMatchObject({ ok: false, code: 'SANDBOX_LIMIT', reason: 'cpu-time' });
    rmSync(path.join(ws, 'redos.txt'));
  });

  it('offers the write group, creating parents and editing in place', async () => {
    expect(
      await attempt(
        `
      const fs = safety.fs;
      const written = fs.writeText('out/deep/a.txt', 'one two two');
      fs.appendText('out/deep/a.txt', '!');
      const ambiguous = (() => { try { fs.editText('out/deep/a.txt', 'two', '2'); } catch (e) { return e.reason; } })();
      const missing = (() => { try { fs.editText('out/deep/a.txt', 'zzz', '2'); } catch (e) { return e.reason; } })();
      const replaced = fs.editText('out/deep/a.txt', 'two', '2', { replaceAll: true });
      fs.copy('out/deep/a.txt', 'out/copy.txt');
      return [written, ambiguous, missing, replaced, fs.readText('out/copy.txt')];`,
        readWrite(),
      ),
    ).toEqual({
      ok: ['out/deep/a.txt', 'edit-ambiguous', 'edit-no-match', 2, 'one 2 2!'],
    });
    expect(readFileSync(path.join(ws, 'out', 'deep', 'a.txt'), 'utf8')).toBe('one 2 2!');
  });

  it('moves and deletes with destructive, but never the workspace root', async () => {
    expect(
      await attempt(
        `
      const fs = safety.fs;
      fs.writeText('trash/a.txt', 'a');
      fs.writeText('trash/b/c.txt', 'c');
      const moved = fs.move('trash/a.txt', 'kept/a.txt');
      const rootRefused = (() => { try { fs.deleteDir('.'); } catch (e) { return e.code + '/' + e.reason; } })();
      return [moved, fs.deleteDir('trash'), fs.delete('kept/a.txt'), fs.delete('kept/a.txt'), fs.deleteDir('nothing-here'), rootRefused];`,
        readWrite(true),
      ),
    ).toEqual({ ok: ['kept/a.txt', 3, true, false, 0, 'SECURITY/workspace-root'] });
    expect(existsSync(path.join(ws, 'trash'))).toBe(false);
    expect(existsSync(ws)).toBe(true);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('lets extra read roots be read but never written when not confined', async () => {
    const scoped = createToolRunner({ workspaceDir: ws, readRoots: [outside] });
    try {
      const policy = testPolicy({ fileRead: true, fileWrite: true });
      const result = await scoped.run({
        toolId: 'roots',
        toolName: 'roots',
        code: `
          const readable = safety.fs.readText(target);
          try { safety.fs.writeText(target, 'x'); return 'wrote'; }
          catch (e) { return [readable, e.reason, safety.fs.readRoots().length]; }`,
        args: { target: path.join(outside, 'secret.txt') },
        secrets: [],
        policy,
      });
      expect(result).toMatchObject({ ok: true, value: ['outside secret', 'write-outside-workspace', 2] });
    } finally {
      await scoped.close();
    }
  });
});
