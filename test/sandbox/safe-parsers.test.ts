// safety.parser output that is safe to hand on: CSV formula cells neutralized, HTML markup sanitized by default.
import { afterAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import { testPolicy } from './policy-fixture.ts';

const runner = createToolRunner({});
afterAll(async () => {
  await runner.close();
});

async function value(code: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const result = await runner.run({
    toolId: 'parsers',
    toolName: 'parsers',
    code,
    args,
    secrets: [],
    policy: testPolicy(),
  });
  if (!result.ok) throw new Error(`${result.code}/${result.reason ?? ''}: ${result.message}`);
  return result.value;
}

const FORMULAS = '=1+2,+SUM(A1),-3+cmd|\' /C calc\'!A0,@SUM(1),"\tx","\ry",plain,"a=b"\n';

describe('safety.parser.csv neutralizes formula cells', () => {
  it('prefixes every cell that starts with = + - @ tab or CR with a quote, by default', async () => {
    expect(await value('return safety.parser.csv(input);', { input: FORMULAS })).toEqual([
      ["'=1+2", "'+SUM(A1)", "'-3+cmd|' /C calc'!A0", "'@SUM(1)", "'\tx", "'\ry", 'plain', 'a=b'],
    ]);
  });

  it('neutralizes header names and values of header rows', async () => {
    expect(
      await value('return safety.parser.csv(input, { header: true });', { input: '=name,city\n@x,Seoul\n' }),
    ).toEqual([{ "'=name": "'@x", city: 'Seoul' }]);
  });

  it('keeps formula cells as they are when asked to', async () => {
    expect(
      await value('return safety.parser.csv(input, { keepFormulas: true });', { input: FORMULAS }),
    ).toEqual([['=1+2', '+SUM(A1)', "-3+cmd|' /C calc'!A0", '@SUM(1)', '\tx', '\ry', 'plain', 'a=b']]);
  });
});

const HOSTILE =
  '<html><head><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example">' +
  '<title>t</title><script>alert(1)</script></head><body>' +
  '<p onclick="steal()" class="x">hello <a href="javascript:alert(1)">j</a> <a href="https://ok.example/">ok</a></p>' +
  '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>' +
  '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">d</a>' +
  '<form action="https://evil.example"><input name="q"><button>go</button></form>' +
  '<object data="x.swf"></object><embed src="x.swf"><img src="https://ok.example/i.png" onerror="steal()" alt="i">' +
  '</body></html>';

const DANGERS = [
  '<script',
  'onclick',
  'onerror',
  'javascript:',
  'data:text/html',
  'srcdoc',
  '<base',
  '<form',
  '<input',
  '<object',
  '<embed',
  '<meta',
  'refresh',
];

describe('safety.parser.html sanitizes the markup it hands back', () => {
  it('html() and outerHtml() are sanitized by default', async () => {
    const out = (await value(
      'const doc = safety.parser.html(input); return [doc.html(), doc.body().outerHtml(), doc.select("p").outerHtml()];',
      { input: HOSTILE },
    )) as string[];
    for (const markup of out) {
      for (const danger of DANGERS) expect(markup.toLowerCase()).not.toContain(danger);
    }
    expect(out[0]).toContain('<a href="https://ok.example/">ok</a>');
    expect(out[0]).toContain('hello');
    expect(out[2]).toBe('<p class="x">hello <a>j</a> <a href="https://ok.example/">ok</a></p>');
  });

  it('sanitized() returns the sanitized markup of an element or a selection', async () => {
    const out = (await value(
      'const doc = safety.parser.html(input); return [doc.sanitized(), doc.select("p").sanitized(), doc.selectFirst("img").sanitized()];',
      { input: HOSTILE },
    )) as string[];
    for (const markup of out) {
      for (const danger of DANGERS) expect(markup.toLowerCase()).not.toContain(danger);
    }
    expect(out[1]).toBe('<p class="x">hello <a>j</a> <a href="https://ok.example/">ok</a></p>');
    expect(out[2]).toBe('<img src="https://ok.example/i.png" alt="i" />');
  });

  it('hands back the markup as parsed only when asked for it by name', async () => {
    const raw = (await value('return safety.parser.html(input).select("p").outerHtml({ raw: true });', {
      input: HOSTILE,
    })) as string;
    expect(raw).toContain('onclick="steal()"');
    expect(raw).toContain('javascript:alert(1)');
  });
});
