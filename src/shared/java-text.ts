// Text helpers that reproduce the Java semantics the reference scorers rely on
// (docs/rules/risk-model.md#r-risk-3-text-semantics).

/** Java's regex `\s`: ASCII whitespace only, as a character-class body for building patterns. */
export const JAVA_SPACE = '[ \\t\\n\\x0B\\f\\r]';

/** True when the UTF-16 code unit is whitespace for Java's `Character.isWhitespace`. */
function isJavaWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  // Java excludes the no-break spaces U+00A0, U+2007 and U+202F from isWhitespace.
  return (
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x2006) ||
    (code >= 0x2008 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** True when the value is null, undefined, empty or only Java whitespace (Java's `String.isBlank`). */
export function isBlank(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return true;
  for (let i = 0; i < value.length; i += 1) {
    if (!isJavaWhitespace(value.charCodeAt(i))) return false;
  }
  return true;
}

/** Java's `String.trim`: removes code units at or below U+0020 from both ends. */
export function javaTrim(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start += 1;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end -= 1;
  return value.slice(start, end);
}

/**
 * Lower-cases per UTF-16 code unit and keeps the length, so offsets found in the result are offsets in the
 * input. The only code unit whose lower case is longer (U+0130, `İ`) is kept as is.
 */
export function lowerKeepingOffsets(value: string): string {
  const lowered = value.toLowerCase();
  if (lowered.length === value.length) return lowered;
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const unit = value[i] as string;
    const lower = unit.toLowerCase();
    out += lower.length === 1 ? lower : unit;
  }
  return out;
}
