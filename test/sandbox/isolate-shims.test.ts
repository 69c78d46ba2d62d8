// The in-isolate shims as tool code sees them: the bundled program leaves nothing of its own on the global object,
// selectors (css-select over the in-isolate tree) and file-name globs (picomatch) behave as documented.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import type { SandboxPolicy } from '../../src/sandbox/index.ts';
import { bootstrapSource } from '../../src/sandbox/isolate/bootstrap.ts';
import { testPolicy } from './policy-fixture.ts';

const runner = createToolRunner();
let ws: string;

beforeAll(() => {
  ws = mkdtempSync(path.join(tmpdir(), 'portcullis-shims-'));
  mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
  for (const file of ['.env', 'a.ts', 'b.js', 'c.md', 'src/x.ts', 'src/deep/y.tsx', 'src/deep/z.json']) {
    writeFileSync(path.join(ws, file), 'x\n');
  }
});

afterAll(async () => {
  await runner.close();
  rmSync(ws, { recursive: true, force: true });
});

async function value(code: string, policy: SandboxPolicy = testPolicy()): Promise<unknown> {
  const result = await runner.run({
    toolId: 'shims',
    toolName: 'shims',
    code,
    args: {},
    secrets: [],
    policy,
  });
  if (!result.ok) throw new Error(`${result.code}/${result.reason ?? ''}: ${result.message}`);
  return result.value;
}

describe('the bundled shim program', () => {
  it('is built once and is the same text on every use', async () => {
    expect(await bootstrapSource()).toBe(await bootstrapSource());
  });

  it('leaves only the documented globals, under their own names', async () => {
    expect(
      await value(`
      const own = Object.getOwnPropertyNames(globalThis).filter((name) => name.startsWith('__pc'));
      return [own, typeof WebAssembly, URL.name, URLSearchParams.name, TextEncoder.name, TextDecoder.name,
        typeof Headers, typeof fetch, btoa.name, typeof queueMicrotask];`),
    ).toEqual([
      [],
      'undefined',
      'URL',
      'URLSearchParams',
      'TextEncoder',
      'TextDecoder',
      'function',
      'undefined',
      'btoa',
      'function',
    ]);
  });
});

const PAGE =
  '<html><head><title>T</title></head><body>' +
  '<ul id="list"><li class="item first" data-n="1">One</li><li class="item" data-n="2">Two <b>bold</b></li>' +
  '<li class="item last" data-n="3" lang="en-GB">Three</li></ul>' +
  '<div class="box"><p>para <span>inner</span></p><p>second</p></div><p id="solo">Solo</p></body></html>';

describe('safety.parser.html selectors', () => {
  it.each([
    ['li.item', ['One', 'Two bold', 'Three']],
    ['#list > li:first-child', ['One']],
    ['li:last-child', ['Three']],
    ['li:nth-child(odd)', ['One', 'Three']],
    ['li:nth-child(2)', ['Two bold']],
    ['li:not(.first)', ['Two bold', 'Three']],
    ['li + li', ['Two bold', 'Three']],
    ['li.first ~ li', ['Two bold', 'Three']],
    ['div p span', ['inner']],
    ['div:has(span) > p', ['para inner', 'second']],
    ['li[data-n="2"]', ['Two bold']],
    ['li[data-n^=1], li[data-n$="3"]', ['One', 'Three']],
    ['li[class~=last]', ['Three']],
    ['li[lang|=en]', ['Three']],
    ['li[class*=irs]', ['One']],
    ['p:contains(SOLO)', ['Solo']],
    ['p:containsOwn(para)', ['para inner']],
    ['li:containsOwn(bold)', []],
    ['title, b', ['T', 'bold']],
  ])('%s', async (css, texts) => {
    expect(
      await value(
        `return safety.parser.html(page).select(css).eachText();`
          .replace('page', JSON.stringify(PAGE))
          .replace('css', JSON.stringify(css)),
      ),
    ).toEqual(texts);
  });

  it('selects from an element: the element itself and its descendants', async () => {
    expect(
      await value(`
      const doc = safety.parser.html(${JSON.stringify(PAGE)});
      const list = doc.selectFirst('ul');
      return [list.select('ul').size(), list.select('p').size(), list.selectFirst('li').is('.first'),
        doc.getElementById('solo').text(), doc.getElementsByClass('item').size(), doc.getElementsByTag('p').eachText()];`),
    ).toEqual([1, 0, true, 'Solo', 3, ['para inner', 'second', 'Solo']]);
  });

  it.each(['', 'p[', 'li:nope', '> > p', 'p:contains'])('refuses the selector %j', async (css) => {
    expect(
      await value(
        `try { safety.parser.html('<p>x</p>').select(${JSON.stringify(css)}); return 'parsed'; } catch (e) { return [e.code, e.reason]; }`,
      ),
    ).toEqual(['INVALID_INPUT', 'invalid-selector']);
  });
});

describe('safety.fs globs', () => {
  const read = (): SandboxPolicy => testPolicy({ fileRead: true, fsBasePath: ws });
  it.each([
    ['*', ['.env', 'a.ts', 'b.js', 'c.md', 'x.ts', 'y.tsx', 'z.json']],
    ['*.ts', ['a.ts', 'x.ts']],
    ['*.{ts,tsx}', ['a.ts', 'x.ts', 'y.tsx']],
    ['[ab].*', ['a.ts', 'b.js']],
    ['[!ab].*', ['c.md', 'x.ts', 'y.tsx', 'z.json']],
    ['?.js*', ['b.js', 'z.json']],
    ['.*', ['.env']],
    ['!*.ts', []],
  ])('find %s matches file names, dot files included', async (glob, names) => {
    const found = (await value(
      `return safety.fs.find('.', ${JSON.stringify(glob)}, { type: 'file' }).map((p) => p.split('/').pop()).sort();`,
      read(),
    )) as string[];
    expect(found).toEqual([...names].sort());
  });
});
