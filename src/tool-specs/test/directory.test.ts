import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSpecDirectory, watchSpecDirectory, type SpecDirectory } from '../directory.ts';
import { writeFileAtomic } from '../persist.ts';

const spec = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, code: 'return 1;', codeType: 'Javascript', ...extra });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-specdir-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loadSpecDirectory', () => {
  it('loads good files and reports broken ones without hiding the others', async () => {
    await writeFile(join(dir, 'a.json'), spec('alpha'));
    await writeFile(join(dir, 'b.json'), '{ not json');
    await writeFile(
      join(dir, 'c.json'),
      spec('gamma', { params: [{ name: 'q', type: 'STRING', required: true }] }),
    );
    await writeFile(join(dir, 'd.json'), spec('delta'));
    await writeFile(join(dir, 'notes.txt'), 'ignored');
    await writeFile(join(dir, '.hidden.json'), spec('hidden'));
    const loaded = await loadSpecDirectory(dir);
    expect(loaded.specs.map((s) => s.name)).toEqual(['alpha', 'delta']);
    expect(loaded.specs[0]?.source).toBe(join(dir, 'a.json'));
    expect(loaded.failures.map((f) => [f.file, f.errors[0]?.code, f.errors[0]?.pointer])).toEqual([
      [join(dir, 'b.json'), 'SPEC_PARSE', ''],
      [join(dir, 'c.json'), 'SPEC_INVARIANT', '/params/0/testValue'],
    ]);
    expect(loaded.conflicts).toEqual([]);
  });

  it('reports two published specs with one name as a conflict', async () => {
    await writeFile(join(dir, 'one.json'), spec('same', { draft: false, toolId: 'id-1' }));
    await writeFile(join(dir, 'two.json'), spec('same', { draft: false, toolId: 'id-2' }));
    const loaded = await loadSpecDirectory(dir);
    expect(loaded.specs).toHaveLength(2);
    expect(loaded.conflicts.map((c) => c.reason)).toEqual(['duplicate-name']);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the content and leaves no temp file behind', async () => {
    const file = join(dir, 'x.json');
    await writeFile(file, 'old');
    await writeFileAtomic(file, 'new');
    const loaded = await import('node:fs/promises').then((fs) =>
      Promise.all([fs.readFile(file, 'utf8'), fs.readdir(dir)]),
    );
    expect(loaded).toEqual(['new', ['x.json']]);
  });
});

describe('watchSpecDirectory', () => {
  it('reloads after changes and stops after close', async () => {
    await writeFile(join(dir, 'a.json'), spec('alpha'));
    const seen: SpecDirectory[] = [];
    let notify: (() => void) | undefined;
    const next = () =>
      new Promise<void>((resolve) => {
        notify = resolve;
      });
    const close = watchSpecDirectory(
      dir,
      (directory) => {
        seen.push(directory);
        notify?.();
      },
      { debounceMs: 20 },
    );
    try {
      const first = next();
      await writeFile(join(dir, 'b.json'), spec('beta'));
      await first;
      expect(seen.at(-1)?.specs.map((s) => s.name)).toEqual(['alpha', 'beta']);

      const second = next();
      await writeFileAtomic(join(dir, 'a.json'), spec('alpha2'));
      await second;
      // A reload may have been triggered by an intermediate event; wait until the final content is seen.
      while (!seen.at(-1)?.specs.some((s) => s.name === 'alpha2')) await next();
      expect(seen.at(-1)?.specs.map((s) => s.name)).toEqual(['alpha2', 'beta']);
    } finally {
      await close();
    }
    const count = seen.length;
    await writeFile(join(dir, 'c.json'), spec('gamma'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.length).toBe(count);
  });
});
