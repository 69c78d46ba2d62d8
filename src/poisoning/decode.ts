// Embedded encodings decoded where they appear, so the decoded text is scanned again (docs/rules/poisoning.md,
// "Normalization"). Every decoder is one bounded pass; a decoding counts only when it yields readable text.

/** Encodings the scanner decodes. */
export type Encoding =
  | 'base64'
  | 'base32'
  | 'hex'
  | 'percent'
  | 'html-entities'
  | 'unicode-escapes'
  | 'rot13'
  | 'reversed'
  | 'leetspeak'
  | 'tag-characters'
  | 'variation-selectors';

/** One decoded payload and the span of the original text it was decoded from. */
export interface DecodedSegment {
  readonly encoding: Encoding;
  readonly offset: number;
  readonly length: number;
  readonly text: string;
}

const MIN_DECODED = 8;
const PRINTABLE_ASCII = /^[\x20-\x7e\t\n\r]*$/;
const MIN_BASE64_RUN = 20;
const COMMON_WORDS = new Set([
  'the',
  'to',
  'and',
  'of',
  'all',
  'every',
  'user',
  'send',
  'read',
  'file',
  'your',
  'you',
  'with',
  'from',
  'into',
  'this',
  'it',
  'before',
  'after',
  'email',
  'copy',
  'any',
  'in',
  'as',
  // Longer words an instruction uses, none of which reads as an English word in ROT13 or backwards.
  'then',
  'when',
  'that',
  'them',
  'their',
  'our',
  'for',
  'must',
  'always',
  'never',
  'instead',
  'install',
  'installing',
  'recommend',
  'include',
  'export',
  'upload',
  'forward',
  'ignore',
  'forget',
  'previous',
  'instructions',
  'system',
  'customer',
  'customers',
  'contact',
  'contacts',
  'password',
  'passwords',
  'private',
  'secret',
  'token',
  'tokens',
  'key',
  'keys',
  'credentials',
  'data',
  'list',
  'chat',
  'history',
  'message',
  'messages',
]);

// Readable: mostly printable ASCII with spaces, as an instruction is.
function isReadable(text: string): boolean {
  if (text.length < MIN_DECODED) return false;
  let printable = 0;
  let spaces = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) printable += 1;
    if (c === 0x20) spaces += 1;
  }
  return printable / text.length > 0.9 && spaces >= 1;
}

function fromBytes(bytes: readonly number[]): string {
  return String.fromCharCode(...bytes.slice(0, 65_536));
}

// The value of a base64 digit, standard or URL-safe; -1 for anything else (`=` included).
function base64Value(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c - 0x41;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 26;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 52;
  if (c === 0x2b || c === 0x2d) return 62;
  if (c === 0x2f || c === 0x5f) return 63;
  return -1;
}

/**
 * What `isReadable(atob(run))` says of a run of base64 digits and trailing `=`, with the bytes counted as they
 * are decoded and no string built: false where `atob` throws (4n + 1 digits).
 */
export function base64ReadsAsText(run: string): boolean {
  let digits = run.length;
  while (digits > 0 && run.charCodeAt(digits - 1) === 0x3d) digits -= 1;
  if (digits % 4 === 1) return false;
  const length = Math.floor((digits * 6) / 8);
  if (length < MIN_DECODED) return false;
  let buffer = 0;
  let bits = 0;
  let printable = 0;
  let spaces = 0;
  for (let i = 0; i < digits; i += 1) {
    const value = base64Value(run.charCodeAt(i));
    if (value < 0) return false;
    buffer = ((buffer << 6) | value) & 0xfff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      const byte = (buffer >> bits) & 0xff;
      if (byte >= 0x20 && byte < 0x7f) printable += 1;
      if (byte === 0x20) spaces += 1;
    }
  }
  return printable / length > 0.9 && spaces >= 1;
}

// Decoded only when it reads as text: most long runs are identifiers (`calendar_create_attendee_7`), whose
// bytes are noise, and `atob` would build a string (or throw) for each.
function decodeBase64(run: string): string | undefined {
  if (!base64ReadsAsText(run)) return undefined;
  return atob(run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''));
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

// A code unit, or -1 outside the text (a NaN would slow every comparison after it).
function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const LOWER_X = 0x78;

// The bytes of the `pairs` hex pairs from `start`, read as collectHexRuns found them.
function hexBytes(text: string, start: number, pairs: number): number[] {
  const bytes: number[] = [];
  let j = start;
  while (bytes.length < pairs) {
    const c = text.charCodeAt(j);
    if (c === PERCENT) j += 1;
    else if ((c === BACKSLASH || c === ZERO) && codeAt(text, j + 1) === LOWER_X) j += 2;
    bytes.push(hexValue(text.charCodeAt(j)) * 16 + hexValue(text.charCodeAt(j + 1)));
    j += 2;
    const separator = codeAt(text, j);
    if (separator === 0x20 || separator === 0x3a || separator === 0x2c) j += 1;
  }
  return bytes;
}

// Runs of hex byte pairs, each optionally prefixed (`%`, `\x`, `0x`) and followed by one separator. A position
// that starts no pair costs a few comparisons and no allocation.
function collectHexRuns(text: string, out: DecodedSegment[]): void {
  for (let i = 0; i < text.length;) {
    const unit = text.charCodeAt(i);
    // A unit that is neither a hex digit nor a prefix's first (`%`, `\`; `0` is a digit) starts no pair.
    if (unit !== PERCENT && unit !== BACKSLASH && hexValue(unit) < 0) {
      i += 1;
      continue;
    }
    const start = i;
    let pairs = 0;
    let percent = 0;
    let j = i;
    // Counted first: the bytes of a run (an array, then a string) are built only for a run long enough to count.
    for (;;) {
      let k = j;
      const c = codeAt(text, k);
      if (c === PERCENT) k += 1;
      else if ((c === BACKSLASH || c === ZERO) && codeAt(text, k + 1) === LOWER_X) k += 2;
      if (hexValue(codeAt(text, k)) < 0 || hexValue(codeAt(text, k + 1)) < 0) break;
      if (c === PERCENT) percent += 1;
      pairs += 1;
      j = k + 2;
      const separator = codeAt(text, j);
      if (separator === 0x20 || separator === 0x3a || separator === 0x2c) j += 1;
    }
    if (pairs >= MIN_DECODED) {
      const bytes = hexBytes(text, start, pairs);
      const decoded = fromBytes(bytes);
      if (isReadable(decoded))
        out.push({
          encoding: percent * 2 > bytes.length ? 'percent' : 'hex',
          offset: start,
          length: j - start,
          text: decoded,
        });
    }
    i = j > start ? j : start + 1;
  }
}

function isBase64Char(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2b ||
    c === 0x2f ||
    c === 0x5f ||
    c === 0x2d
  );
}

// Runs of at least MIN_BASE64_RUN base64 characters (standard or URL-safe) and up to two `=` after them: what
// /[A-Za-z0-9+/_-]{20,}={0,2}/g matches, found in one pass with no string for the runs too short to count.
function collectBase64Runs(text: string, out: DecodedSegment[]): void {
  for (let i = 0; i < text.length;) {
    if (!isBase64Char(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const start = i;
    while (i < text.length && isBase64Char(text.charCodeAt(i))) i += 1;
    if (i - start < MIN_BASE64_RUN) continue;
    if (text.charCodeAt(i) === 0x3d) i += text.charCodeAt(i + 1) === 0x3d ? 2 : 1;
    const run = text.slice(start, i);
    const decoded = decodeBase64(run);
    if (decoded !== undefined && isReadable(decoded))
      out.push({ encoding: 'base64', offset: start, length: run.length, text: decoded });
    else if (isBase32Run(run)) {
      // Base32 letters are base64 letters too; its padding runs up to six `=`.
      let end = i;
      while (end < text.length && end - i < 6 && text.charCodeAt(end) === 0x3d) end += 1;
      const plain = decodeBase32(text.slice(start, end));
      if (isReadable(plain))
        out.push({ encoding: 'base32', offset: start, length: end - start, text: plain });
      i = end;
    }
  }
}

// RFC 4648 base32: upper-case letters and the digits 2 to 7, with optional `=` padding.
function isBase32Run(run: string): boolean {
  for (let i = 0; i < run.length; i += 1) {
    const c = run.charCodeAt(i);
    if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x32 && c <= 0x37) || c === 0x3d)) return false;
  }
  return true;
}

function decodeBase32(run: string): string {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < run.length && bytes.length < 65_536; i += 1) {
    const c = run.charCodeAt(i);
    if (c === 0x3d) break;
    buffer = ((buffer << 5) | (c >= 0x41 ? c - 0x41 : c - 0x32 + 26)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return fromBytes(bytes);
}

function isPercentTokenEnd(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x22 || c === 0x27 || c === 0x3c;
}

// URL-encoded text with literal letters between the escapes (`ignore%20previous%20instructions`), which the
// hex runs above do not read: each run of characters up to a space or quote that holds at least three `%XX`
// escapes is decoded (`+` as a space, as in a query string). Runs made only of escapes are left to the hex runs.
function collectPercentTokens(text: string, out: DecodedSegment[]): void {
  for (let i = text.indexOf('%'); i >= 0 && i < text.length;) {
    let start = i;
    while (start > 0 && !isPercentTokenEnd(text.charCodeAt(start - 1))) start -= 1;
    let end = i;
    let escapes = 0;
    let decoded = '';
    for (let k = start; k < text.length && !isPercentTokenEnd(text.charCodeAt(k));) {
      const c = text.charCodeAt(k);
      const high = c === PERCENT ? hexValue(codeAt(text, k + 1)) : -1;
      const low = high >= 0 ? hexValue(codeAt(text, k + 2)) : -1;
      if (low >= 0) {
        decoded += String.fromCharCode(high * 16 + low);
        escapes += 1;
        k += 3;
      } else {
        decoded += c === 0x2b ? ' ' : (text[k] as string);
        k += 1;
      }
      end = k;
    }
    if (escapes >= 3 && escapes * 3 < end - start && isReadable(decoded))
      out.push({ encoding: 'percent', offset: start, length: end - start, text: decoded });
    const next = text.indexOf('%', Math.max(end, i + 1));
    i = next;
  }
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  sol: '/',
  period: '.',
  commat: '@',
  colon: ':',
};
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#([0-9]{1,7})|([a-zA-Z]{2,8}));/g;
const UNICODE_ESCAPE = /\\u([0-9a-fA-F]{4})|\\u\{([0-9a-fA-F]{1,6})\}/g;

function decodeEntities(text: string, out: DecodedSegment[]): void {
  let count = 0;
  let first = -1;
  let last = 0;
  const decoded = text.replace(ENTITY, (whole, hex: string, dec: string, name: string, at: number) => {
    const cp = hex !== undefined ? parseInt(hex, 16) : dec !== undefined ? parseInt(dec, 10) : -1;
    const value = cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : NAMED_ENTITIES[name];
    if (value === undefined) return whole;
    count += 1;
    if (first < 0) first = at;
    last = at + whole.length;
    return value;
  });
  if (count >= 4) out.push({ encoding: 'html-entities', offset: first, length: last - first, text: decoded });
  let escapes = 0;
  let escFirst = -1;
  let escLast = 0;
  const unescaped = text.replace(UNICODE_ESCAPE, (whole, four: string, braced: string, at: number) => {
    escapes += 1;
    if (escFirst < 0) escFirst = at;
    escLast = at + whole.length;
    return String.fromCodePoint(parseInt(four ?? braced, 16) % 0x110000);
  });
  if (escapes >= 4)
    out.push({
      encoding: 'unicode-escapes',
      offset: escFirst,
      length: escLast - escFirst,
      text: unescaped,
    });
}

function rot13(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 && c <= 0x7a) out += String.fromCharCode(((c - 0x61 + 13) % 26) + 0x61);
    else if (c >= 0x41 && c <= 0x5a) out += String.fromCharCode(((c - 0x41 + 13) % 26) + 0x41);
    else out += text[i];
  }
  return out;
}

function reverse(text: string): string {
  let out = '';
  for (let i = text.length - 1; i >= 0; i -= 1) out += text[i];
  return out;
}

const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  '@': 'a',
  $: 's',
};

const MAX_COMMON_WORD = 12;
const ROTATED_WORDS = new Set([...COMMON_WORDS].map(rot13).filter((w) => !COMMON_WORDS.has(w)));
const REVERSED_WORDS = new Set([...COMMON_WORDS].map(reverse).filter((w) => !COMMON_WORDS.has(w)));

const MIN_COMMON_WORD = 2;

// FNV-1a of a word of ASCII letters and digits in lower case, kept in small-integer range.
function lowerWordHash(text: string, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i += 1) hash = Math.imul(hash ^ (text.charCodeAt(i) | 0x20), 0x01000193);
  return hash & 0x3fffffff;
}

// The hashes of every ROT13 or reversed common word: a word whose hash is not here is in neither set, and is
// not cut out of the text to be looked up (a shared hash only costs that look-up).
const DISGUISED_HASHES = new Set(
  [...ROTATED_WORDS, ...REVERSED_WORDS].map((word) => lowerWordHash(word, 0, word.length)),
);

function isAlnumCode(c: number): boolean {
  const lower = c | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function isLeetDigit(c: number): boolean {
  return c === 0x30 || c === 0x31 || c === 0x33 || c === 0x34 || c === 0x35 || c === 0x37;
}

/**
 * One pass over the words of a text: how many are common English words after ROT13 and read backwards, and
 * how many mix letters with the digits leetspeak uses for letters.
 */
function countWords(text: string): { rotated: number; reversed: number; leet: number } {
  const counts = { rotated: 0, reversed: 0, leet: 0 };
  let start = -1;
  let letters = 0;
  let leetDigits = 0;
  let digitThenLetter = false;
  let before = -1;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    const c = code | 0x20;
    const letter = c >= 0x61 && c <= 0x7a;
    const digit = code >= 0x30 && code <= 0x39;
    if (letter || digit) {
      if (start < 0) start = i;
      if (letter && i > start && before >= 0x30 && before <= 0x39) digitThenLetter = true;
      if (letter) letters += 1;
      else if (isLeetDigit(code)) leetDigits += 1;
      before = code;
      continue;
    }
    before = code;
    if (start >= 0) {
      // A leet word has a digit where a letter goes (r34d, 7h3); python3, ES2015 and sha256 do not.
      if (leetDigits > 0 && digitThenLetter) counts.leet += 1;
      // No common word is spelled the same in ROT13 or backwards, so the plain words need no count.
      if (
        leetDigits === 0 &&
        letters <= MAX_COMMON_WORD &&
        i - start >= MIN_COMMON_WORD &&
        DISGUISED_HASHES.has(lowerWordHash(text, start, i))
      ) {
        const word = text.slice(start, i).toLowerCase();
        if (ROTATED_WORDS.has(word)) counts.rotated += 1;
        else if (REVERSED_WORDS.has(word)) counts.reversed += 1;
      }
    }
    start = -1;
    letters = 0;
    leetDigits = 0;
    digitThenLetter = false;
  }
  return counts;
}

// Tag characters and variation selectors carry bytes: U+E0000+n is ASCII n; VS1–16 and VS17–256 are bytes.
function decodeInvisiblePayloads(text: string, out: DecodedSegment[]): void {
  for (const [encoding, decode] of [
    ['tag-characters', (cp: number) => (cp >= 0xe0020 && cp <= 0xe007e ? cp - 0xe0000 : -1)],
    [
      'variation-selectors',
      (cp: number) =>
        cp >= 0xfe00 && cp <= 0xfe0f ? cp - 0xfe00 : cp >= 0xe0100 && cp <= 0xe01ef ? cp - 0xe0100 + 16 : -1,
    ],
  ] as const) {
    let bytes: number[] = [];
    let start = -1;
    const flush = (end: number): void => {
      const decoded = fromBytes(bytes);
      if (bytes.length >= MIN_DECODED && isReadable(decoded))
        out.push({ encoding, offset: start, length: end - start, text: decoded });
      bytes = [];
      start = -1;
    };
    for (let i = 0; i < text.length;) {
      const cp = text.codePointAt(i) as number;
      const size = cp > 0xffff ? 2 : 1;
      const byte = decode(cp);
      if (byte >= 0) {
        if (start < 0) start = i;
        bytes.push(byte);
      } else if (start >= 0) flush(i);
      i += size;
    }
    if (start >= 0) flush(text.length);
  }
}

/**
 * Every embedded payload of `visible` (the text after hidden characters are removed, original case) and of
 * `original` (for payloads carried by invisible characters). Offsets of the visible ones are positions in
 * `visible`; the caller maps them back.
 */
export function decodeEmbedded(
  original: string,
  visible: string,
): { visible: DecodedSegment[]; original: DecodedSegment[] } {
  const fromVisible: DecodedSegment[] = [];
  collectBase64Runs(visible, fromVisible);
  collectHexRuns(visible, fromVisible);
  if (visible.includes('%')) collectPercentTokens(visible, fromVisible);
  if (visible.includes('&') || visible.includes('\\u')) decodeEntities(visible, fromVisible);
  const words = countWords(visible);
  // Common words spelled in ROT13 or backwards hardly occur in honest text; two of them mark a payload.
  if (words.rotated >= 2)
    fromVisible.push({ encoding: 'rot13', offset: 0, length: visible.length, text: rot13(visible) });
  if (words.reversed >= 2)
    fromVisible.push({ encoding: 'reversed', offset: 0, length: visible.length, text: reverse(visible) });
  if (words.leet >= 3)
    fromVisible.push({
      encoding: 'leetspeak',
      offset: 0,
      length: visible.length,
      // An `@` between two letters or digits is an address (`70d0@1157-134k.10`), not an `a`.
      text: visible.replace(/[01345789@$]/g, (c, at: number) =>
        c === '@' && isAlnumCode(codeAt(visible, at - 1)) && isAlnumCode(codeAt(visible, at + 1))
          ? c
          : (LEET[c] ?? c),
      ),
    });
  const fromOriginal: DecodedSegment[] = [];
  // Tag characters and variation selectors are astral or U+FE0x: only text with non-ASCII can carry them.
  if (!PRINTABLE_ASCII.test(original)) decodeInvisiblePayloads(original, fromOriginal);
  return { visible: fromVisible, original: fromOriginal };
}
