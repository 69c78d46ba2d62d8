// The host side of safe parser output, table by table: CSV formula neutralization and the HTML sanitizer.
import { describe, expect, it } from 'vitest';
import { neutralizeFormula, parseCsv } from '../../src/sandbox/parsers/data.ts';
import { sanitizeMarkup } from '../../src/sandbox/parsers/sanitize.ts';

describe('neutralizeFormula', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['', ''],
    ['plain', 'plain'],
    [' =1', ' =1'],
    ['1=1', '1=1'],
  ])('%j becomes %j', (cell, expected) => {
    expect(neutralizeFormula(cell)).toBe(expected);
  });

  it('applies to quoted cells too, since quoting does not stop a spreadsheet', () => {
    expect(parseCsv('"=1+1",x\n')).toEqual([["'=1+1", 'x']]);
    expect(parseCsv('"=1+1",x\n', { keepFormulas: true })).toEqual([['=1+1', 'x']]);
  });
});

describe('sanitizeMarkup', () => {
  it.each([
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['<p onclick="a()" onmouseover="b()">x</p>', '<p>x</p>'],
    ['<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['<a href="//evil.example/">x</a>', '<a>x</a>'],
    ['<a href="/relative?q=1">x</a>', '<a href="/relative?q=1">x</a>'],
    ['<iframe srcdoc="<script>alert(1)</script>">in</iframe>', ''],
    ['<base href="https://evil.example/"><p>x</p>', '<p>x</p>'],
    ['<meta http-equiv="refresh" content="0;url=https://evil.example">', ''],
    ['<form action="https://evil.example"><input name="q"><button>go</button></form>', 'go'],
    ['<object data="x.swf">fallback</object><embed src="x.swf">', ''],
    ['<style>p{}</style><svg><script>alert(1)</script></svg>', ''],
    [
      '<img src="https://ok.example/a.png" onerror="x()" alt="a">',
      '<img src="https://ok.example/a.png" alt="a" />',
    ],
    ['<img src="data:image/svg+xml,<svg onload=alert(1)>">', '<img />'],
    [
      '<table><tr><td colspan="2" style="x">c</td></tr></table>',
      '<table><tr><td colspan="2">c</td></tr></table>',
    ],
  ])('%s', (input, expected) => {
    expect(sanitizeMarkup(input)).toBe(expected);
  });
});
