import { describe, expect, it } from 'vitest';
import { linearRegExp, NonLinearPatternError } from './linear-regexp.ts';

describe('linearRegExp', () => {
  it('keeps ECMAScript syntax errors as SyntaxError (never a linear-time refusal)', () => {
    expect(() => linearRegExp('(unclosed', 'u')).toThrow(SyntaxError);
    expect(() => linearRegExp('\\-', 'u')).toThrow(SyntaxError);
  });

  it('refuses what needs backtracking, naming the pattern readably and the reason', () => {
    expect(() => linearRegExp('^(a)\\1$', 'u')).toThrow(NonLinearPatternError);
    expect(() => linearRegExp('^(a)\\1$', 'u')).toThrow(
      'input schema uses a regular expression feature that cannot run in linear time: "^(a)\\1$" (invalid escape sequence: `\\1`)',
    );
  });

  it('escapes control characters and clips long patterns in the refusal', () => {
    let message = '';
    try {
      linearRegExp(`(?=\n)${'x'.repeat(300)}`, 'u');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('"(?=\\u000a)xxx');
    expect(message).not.toContain('\n');
    expect(message).toMatch(/x\.\.\." \(/);
  });

  it('gives each pattern its own key for ajv (toString) and answers test() like RegExp', () => {
    const a = linearRegExp('^a$', 'u');
    const b = linearRegExp('^b$', 'u');
    expect(String(a)).not.toBe(String(b));
    expect([a.test('a'), a.test('b'), b.test('b')]).toEqual([true, false, true]);
  });
});
