/**
 * The regular-expression engine of argument validation (docs/security.md, "Regular expressions in tool
 * schemas"): JSON Schema `pattern` and `patternProperties` run on RE2 (re2js), whose matching time is linear
 * in the input, so no schema an upstream sends can freeze the event loop with catastrophic backtracking.
 */
import { RE2JS } from 're2js';

/** The prefix of every refusal of a pattern RE2 cannot run; operators see it as the tool's withheld detail. */
export const NON_LINEAR_PATTERN =
  'input schema uses a regular expression feature that cannot run in linear time';

/** A pattern that is valid ECMAScript but needs backtracking (backreference, lookahead, huge repeat). */
export class NonLinearPatternError extends Error {
  constructor(pattern: string, reason: string) {
    super(`${NON_LINEAR_PATTERN}: "${printable(pattern)}" (${reason})`);
    this.name = 'NonLinearPatternError';
  }
}

/** What ajv's `code.regExp` option takes: compiles once, then `test` per value. */
export interface LinearRegExp {
  test(input: string): boolean;
  toString(): string;
}

// ECMAScript's WhiteSpace and LineTerminator (ECMA-262 §12.2, §12.3; Zs as of Unicode 15), which RE2's
// ASCII-only `\s` and its newline-only `.` would otherwise miss.
const JS_SPACE =
  '\\t-\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const JS_DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * Compiles an ECMAScript pattern (as JSON Schema defines `pattern`) to a linear-time matcher with the same
 * answers (flag `i` folds case; other flags are only checked for validity); throws a SyntaxError for an invalid
 * pattern and NonLinearPatternError for one RE2 cannot run.
 */
export function linearRegExp(pattern: string, flags = ''): LinearRegExp {
  // The native parser decides validity, so what was a syntax error stays one; it never runs here.
  new RegExp(pattern, flags);
  let compiled: RE2JS;
  try {
    const re2Flags = RE2JS.LOOKBEHINDS | (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    compiled = RE2JS.compile(toRe2Syntax(RE2JS.translateRegExp(pattern)), re2Flags);
  } catch (error) {
    throw new NonLinearPatternError(pattern, (error as Error).message.replace(/^error parsing regexp: /, ''));
  }
  return {
    test: (input) => compiled.test(input),
    toString: () => `/${pattern}/${flags}`,
  };
}
// ajv writes this name into standalone code only; the gateway never generates standalone validators.
linearRegExp.code = 'linearRegExp';

/** Rewrites `.`, `\s` and `\S` (RE2 meanings differ) to their ECMAScript meanings; one pass, no recursion. */
function toRe2Syntax(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i += 1) {
    const ch = source[i] as string;
    if (ch === '\\' && i + 1 < source.length) {
      const next = source[i + 1] as string;
      i += 1;
      if (next === 's') out += inClass ? JS_SPACE : `[${JS_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${JS_SPACE}]`;
      else out += ch + next;
    } else if (ch === '[' && !inClass) {
      inClass = true;
      out += ch;
    } else if (ch === ']' && inClass) {
      inClass = false;
      out += ch;
    } else if (ch === '.' && !inClass) {
      out += JS_DOT;
    } else {
      out += ch;
    }
  }
  return out;
}

/** The pattern as an operator reads it: control characters escaped, long ones clipped. */
function printable(pattern: string): string {
  const escaped = pattern.replace(
    // eslint-disable-next-line no-control-regex -- exactly the characters a log line must not carry raw
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > 120 ? `${escaped.slice(0, 117)}...` : escaped;
}
