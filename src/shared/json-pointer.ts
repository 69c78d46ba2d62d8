/** RFC 6901 JSON pointers over call arguments: parsed once at compile time, resolved per call. */

/** Splits a pointer into its unescaped reference tokens; returns undefined when it is not a valid pointer. */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (/~(?![01])/.test(raw)) return undefined;
    tokens.push(unescapeJsonPointerToken(raw));
  }
  return tokens;
}

/** The value the tokens point at inside `root`, or undefined when nothing is there. Own properties only. */
export function resolveJsonPointer(root: unknown, tokens: readonly string[]): unknown {
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object') {
      // Own properties only: a pointer must never reach Object.prototype (`/__proto__`, `/constructor`).
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}

/** One reference token written for a pointer: `~` as `~0`, then `/` as `~1` (RFC 6901 §3). */
export function escapeJsonPointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** One reference token read from a pointer: `~1` as `/`, then `~0` as `~` (that order, RFC 6901 §4). */
export function unescapeJsonPointerToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Joins reference tokens into a pointer (`''` for no tokens, the whole document). */
export function formatJsonPointer(tokens: readonly (string | number)[]): string {
  let pointer = '';
  for (const token of tokens) pointer += '/' + escapeJsonPointerToken(token);
  return pointer;
}
