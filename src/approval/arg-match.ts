/**
 * Argument matching of approval rules (docs/configuration.md, "Approval rules"): a glob or `{ regex }` per JSON
 * pointer, or `anyArg` over every string argument. Restrictive rules (deny, ask, rate limit) also try the forms
 * of a value that the upstream may act on: Unicode NFC, and for path-like values slashes, `.` and `..`
 * resolved posix-style, repeated slashes collapsed, and `..` above the start dropped.
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';
import { canonicalJson, linearRegExp, NonLinearPatternError } from '../shared/index.ts';

/** A compiled test of one argument text. */
export type TextTest = (value: string) => boolean;

/** How a rule compares argument text. */
export interface TextMatchOptions {
  /** deny, ask and rate-limit rules: also try the normalized forms of a value. */
  restrictive: boolean;
  /** Compare without regard to case (globs with `nocase`, regexes with the `i` flag). */
  foldCase: boolean;
}

/** How many values anyArg visits at most; past it a restrictive rule matches and an allow rule does not. */
export const ANY_ARG_MAX_VALUES = 10_000;

/** Compiles a glob; throws the glob library's error for an invalid one. */
export function compileGlobTest(glob: string, options: TextMatchOptions): TextTest {
  return picomatch(glob.normalize('NFC'), { dot: true, nocase: options.foldCase });
}

/**
 * Compiles a regex to run in linear time (rule patterns are tested against client arguments, so a backtracking
 * pattern would let a client hold the event loop); throws for an invalid pattern or one that needs backtracking.
 */
export function compileRegexTest(source: string, options: TextMatchOptions): TextTest {
  // No flags unless the rule folds case: the operator writes anchors into the pattern.
  let regex: { test(value: string): boolean };
  try {
    regex = linearRegExp(source, options.foldCase ? 'i' : '');
  } catch (error) {
    if (!(error instanceof NonLinearPatternError)) throw error;
    throw new Error(
      `it needs a feature that cannot run in linear time (backreference, lookahead or a repeat over 1000): ${error.message.slice(error.message.indexOf('"'))}`,
      { cause: error },
    );
  }
  return (value) => regex.test(value);
}

/** The text a rule sees for one argument value: strings as they are, anything else as canonical JSON. */
export function argumentText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value, 'stringify');
}

/** True when `test` accepts the text or (restrictive rules) one of its normalized forms. */
export function matchesText(test: TextTest, text: string, restrictive: boolean): boolean {
  if (test(text)) return true;
  return restrictive && normalizedForms(text).some(test);
}

/**
 * True when any string anywhere in `args` matches. Iterative and bounded: past ANY_ARG_MAX_VALUES visited
 * values the answer is `restrictive` (fail closed for deny, ask and rate limit; no match for allow).
 */
export function anyStringMatches(args: unknown, test: TextTest, restrictive: boolean): boolean {
  const stack: unknown[] = [args];
  let visited = 0;
  while (stack.length > 0) {
    visited += 1;
    if (visited > ANY_ARG_MAX_VALUES) return restrictive;
    const value = stack.pop();
    if (typeof value === 'string') {
      if (matchesText(test, value, restrictive)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

function normalizedForms(text: string): string[] {
  const nfc = text.normalize('NFC');
  const forms = [nfc];
  if (nfc.includes('/') || nfc.includes('\\')) {
    const slashed = nfc.replaceAll('\\', '/');
    const resolved = posix.normalize(slashed);
    // `..` above the start names a place outside wherever the path is resolved from: drop it so that a rule
    // on `**/secrets/**` still sees `../secrets/x`.
    forms.push(slashed, resolved, resolved.replace(/^(\.\.\/)+/, ''));
  }
  return [...new Set(forms)].filter((form) => form !== text);
}
