// The characters the committed corpus JSON writes as \uXXXX escapes so a reviewer can see them: controls
// (but not the layout's own newlines), format characters (zero-width, bidi, tags), odd spaces, fillers and
// variation selectors.
const FORMAT_LIKE = /^[\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]$/u;
const ODD_SPACES = new Set([0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800]);

/** True for a code point a reviewer cannot see in a string. */
export function isInvisible(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x2000 && code <= 0x200a) ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xe0100 && code <= 0xe01ef) ||
    ODD_SPACES.has(code) ||
    FORMAT_LIKE.test(String.fromCodePoint(code))
  );
}

/** Rewrites every invisible character of a JSON text as \uXXXX escapes (UTF-16 units). */
export function escapeInvisible(json: string): string {
  let out = '';
  for (const ch of json) {
    if (!isInvisible(ch.codePointAt(0) as number)) out += ch;
    else
      for (let i = 0; i < ch.length; i += 1)
        out += `\\u${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}
