// The normalization stage that runs before every detector (docs/rules/poisoning.md, "Normalization"): one
// linear pass removes what a model reads but a person does not see, recording each run as a hidden finding,
// then NFKC, identifier splitting and letter-spacing joins give the text a careful human would read. Every
// character of the result keeps the UTF-16 offset of the original character it came from.
// Longer than most files on purpose: the pass is one loop over one offset map, and each character class it
// removes or keeps (emoji sequences, joiners in scripts, bidi marks) is a case of that same loop.

/** Kinds of characters removed because a reader cannot see them. */
export type HiddenKind =
  | 'zero-width'
  | 'soft-hyphen'
  | 'variation-selector'
  | 'tag-character'
  | 'bidi-control'
  | 'bidi-mark'
  | 'invisible-operator'
  | 'filler'
  | 'terminal-control';

/** One run of removed characters of one kind, in the original text. */
export interface HiddenRun {
  readonly kind: HiddenKind;
  readonly offset: number;
  readonly length: number;
}

/** The text a reader sees: lower case, words split, and where each character came from. */
export interface NormalizedText {
  readonly text: string;
  /** `offsets[i]` is the UTF-16 offset in the original of `text[i]`. */
  readonly offsets: Int32Array;
  readonly hidden: readonly HiddenRun[];
}

const ESC = 0x1b;
const BEL = 0x07;
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}/u;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;
const MARK = /\p{M}/u;

function hiddenKind(cp: number): HiddenKind | undefined {
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x2060 || cp === 0xfeff || cp === 0x180e)
    return 'zero-width';
  if (cp === 0x00ad) return 'soft-hyphen';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'variation-selector';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'tag-character';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'bidi-control';
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return 'bidi-mark';
  if (cp >= 0x2061 && cp <= 0x2064) return 'invisible-operator';
  if (cp === 0x034f || cp === 0x17b4 || cp === 0x17b5) return 'zero-width';
  if (cp === 0x3164 || cp === 0x115f || cp === 0x1160 || cp === 0xffa0 || cp === 0x2800) return 'filler';
  if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f))
    return 'terminal-control';
  return undefined;
}

function isEmoji(cp: number): boolean {
  return cp >= 0xa9 && EMOJI.test(String.fromCodePoint(cp));
}

function isLetter(cp: number): boolean {
  return cp >= 0x41 && LETTER.test(String.fromCodePoint(cp));
}

function isScriptLetterOrMark(cp: number): boolean {
  if (cp < 0x0370) return false;
  const ch = String.fromCodePoint(cp);
  return (LETTER.test(ch) || MARK.test(ch)) && !LATIN.test(ch);
}

function codePointBefore(text: string, at: number): number {
  if (at <= 0) return -1;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) return text.codePointAt(at - 2) ?? -1;
  return low;
}

/**
 * Honest uses of invisible characters, which are removed without a finding: ZWJ and variation selectors in
 * emoji sequences, VS15/VS16 after a keycap base, subdivision-flag tags, ZWJ/ZWNJ inside non-Latin words
 * (Persian, Indic scripts) and soft hyphens inside words (typography).
 */
function isHonestInvisible(text: string, at: number, cp: number, size: number): boolean {
  const before = codePointBefore(text, at);
  const after = text.codePointAt(at + size) ?? -1;
  if (cp === 0x200d && (isEmoji(before) || before === 0xfe0f) && isEmoji(after)) return true;
  // Joiners shape Arabic, Persian and Indic words: honest after a non-Latin letter or mark.
  if (cp === 0x200c || cp === 0x200d) return isScriptLetterOrMark(before);
  if (cp === 0xfe0e || cp === 0xfe0f)
    return isEmoji(before) || before === 0x23 || before === 0x2a || (before >= 0x30 && before <= 0x39);
  if (cp === 0x00ad) return isLetter(before) && isLetter(after);
  // Directional marks (LRM, RLM, ALM) fix the order of neutral characters in right-to-left text; they
  // cannot reorder letters the way embeddings, overrides and isolates do.
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return true;
  if (cp >= 0xe0020 && cp <= 0xe007f) return isInFlag(text, at);
  return false;
}

// A tag character belongs to a subdivision flag when its run follows U+1F3F4, holds one to seven tag letters
// or digits and ends in CANCEL TAG. Both scans are bounded, so a long tag run costs O(1) per character.
function isInFlag(text: string, at: number): boolean {
  let start = at;
  while (start >= 2 && text.charCodeAt(start - 2) === 0xdb40 && at - start < 16) start -= 2;
  if (text.codePointAt(start - 2) !== 0x1f3f4) return false;
  for (let end = start, letters = 0; letters <= 7 && text.charCodeAt(end) === 0xdb40; end += 2, letters += 1)
    if (text.codePointAt(end) === 0xe007f) return letters >= 1 && at <= end;
  return false;
}

// Skips an ANSI/OSC escape sequence at `at` (ESC or C1 CSI/OSC); returns its end.
function escapeEnd(text: string, at: number): number {
  const code = text.charCodeAt(at);
  let i = at + 1;
  let kind = code === 0x9b ? 0x5b : code === 0x9d ? 0x5d : -1;
  if (code === ESC) {
    kind = text.charCodeAt(i);
    i += 1;
  }
  if (kind === 0x5b) {
    while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x3f) i += 1;
    return Math.min(text.length, i + 1);
  }
  if (kind === 0x5d) {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === BEL || c === 0x9c) return i + 1;
      if (c === ESC && text.charCodeAt(i + 1) === 0x5c) return i + 2;
      i += 1;
    }
    return i;
  }
  return Math.min(text.length, i);
}

const nfkcCache = new Map<number, string>();

function nfkc(cp: number): string {
  let folded = nfkcCache.get(cp);
  if (folded === undefined) {
    folded = String.fromCodePoint(cp).normalize('NFKC');
    if (nfkcCache.size < 4096) nfkcCache.set(cp, folded);
  }
  return folded;
}

const UNTRACKED = new Int32Array(0);

// Text and offsets grow together; offsets live in a typed array so a long text costs no boxed numbers, and are
// only kept when asked for (a span is mapped back only when something was found).
class Builder {
  text = '';
  offsets: Int32Array;
  length = 0;
  // Kept apart from `text`: reading the end of a string built by `+=` would flatten it on every call.
  lastChar = '';
  readonly track: boolean;
  constructor(capacity: number, track: boolean) {
    this.track = track;
    this.offsets = track ? new Int32Array(Math.max(16, capacity)) : UNTRACKED;
  }
  push(chars: string, offset: number): void {
    if (!this.track) {
      this.text += chars;
      this.length += chars.length;
      if (chars.length > 0) this.lastChar = chars.charAt(chars.length - 1);
      return;
    }
    this.reserve(chars.length);
    for (let k = 0; k < chars.length; k += 1) this.offsets[this.length + k] = offset;
    this.text += chars;
    this.length += chars.length;
    if (chars.length > 0) this.lastChar = chars.charAt(chars.length - 1);
  }
  append(chunk: string, chunkOffsets: Int32Array): void {
    if (!this.track) {
      this.push(chunk, 0);
      return;
    }
    this.reserve(chunk.length);
    this.offsets.set(chunkOffsets, this.length);
    this.text += chunk;
    this.length += chunk.length;
    if (chunk.length > 0) this.lastChar = chunk.charAt(chunk.length - 1);
  }
  // Room in `offsets` for `more` units after the first `length`.
  private reserve(more: number): void {
    if (this.length + more <= this.offsets.length) return;
    const grown = new Int32Array(this.offsets.length * 2 + more);
    grown.set(this.offsets);
    this.offsets = grown;
  }
  /** Appends `source[start, end)` unchanged, each unit keeping its own offset. */
  copy(source: string, start: number, end: number): void {
    if (end <= start) return;
    if (this.track) {
      this.reserve(end - start);
      for (let k = start; k < end; k += 1) this.offsets[this.length + k - start] = k;
    }
    this.text += source.slice(start, end);
    this.length += end - start;
    this.lastChar = source.charAt(end - 1);
  }
  last(): string {
    return this.lastChar;
  }
}

/** Text with the original offset of each of its UTF-16 units. */
export interface Mapped {
  readonly text: string;
  readonly offsets: Int32Array;
}

function identity(length: number): Int32Array {
  const offsets = new Int32Array(length);
  for (let i = 0; i < length; i += 1) offsets[i] = i;
  return offsets;
}

const PLAIN = /^[\x20-\x7e]*$/;

// Runs of one kind kept per text: the scanner reports the first run of each kind and a feature per kind, so
// more runs (hidden characters of two kinds alternating) would only cost memory.
const MAX_RUNS_PER_KIND = 16;

// Module-level helpers rather than closures: tsx names every closure it creates, once per call.
function record(
  hidden: HiddenRun[],
  runs: Map<HiddenKind, number>,
  kind: HiddenKind,
  offset: number,
  length: number,
): void {
  const last = hidden[hidden.length - 1];
  if (last !== undefined && last.kind === kind && last.offset + last.length === offset) {
    hidden[hidden.length - 1] = { kind, offset: last.offset, length: last.length + length };
    return;
  }
  const count = runs.get(kind) ?? 0;
  if (count === MAX_RUNS_PER_KIND) return;
  runs.set(kind, count + 1);
  hidden.push({ kind, offset, length });
}

function isPrintableAscii(c: number): boolean {
  return c >= 0x20 && c < 0x7f;
}

/** Pass 1: invisible and control characters out (recorded), NFKC in, original case kept. */
export function stripHidden(text: string, track = true): Mapped & { hidden: HiddenRun[] } {
  // Most tool text is printable ASCII: nothing to remove or fold.
  if (PLAIN.test(text)) return { text, offsets: track ? identity(text.length) : UNTRACKED, hidden: [] };
  const out = new Builder(text.length, track);
  const hidden: HiddenRun[] = [];
  const runs = new Map<HiddenKind, number>();
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    const size = cp > 0xffff ? 2 : 1;
    if (cp < 0x80 && cp >= 0x20 && cp !== 0x7f) {
      // A run of printable ASCII is copied at once.
      let end = i + 1;
      while (end < text.length && isPrintableAscii(text.charCodeAt(end))) end += 1;
      out.copy(text, i, end);
      i = end;
      continue;
    }
    if (cp === ESC || cp === 0x9b || cp === 0x9d) {
      const end = escapeEnd(text, i);
      record(hidden, runs, 'terminal-control', i, end - i);
      i = end;
      continue;
    }
    // A carriage return not followed by a newline rewinds a terminal line: text after it hides text before it.
    if (cp === 0x0d && text.charCodeAt(i + 1) !== 0x0a) {
      record(hidden, runs, 'terminal-control', i, 1);
      out.push(' ', i);
      i += 1;
      continue;
    }
    const kind = hiddenKind(cp);
    if (kind !== undefined) {
      if (!isHonestInvisible(text, i, cp, size)) record(hidden, runs, kind, i, size);
      if (kind === 'filler') out.push(' ', i);
      i += size;
      continue;
    }
    out.push(cp < 0x80 ? (text[i] as string) : nfkc(cp), i);
    i += size;
  }
  return { text: out.text, offsets: out.offsets.subarray(0, out.length), hidden };
}

// A code unit, or -1 outside the text: reading past either end would yield NaN, a double that slows every
// comparison after it.
function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isAlnum(c: number): boolean {
  return isAsciiLetter(c) || (c >= 0x30 && c <= 0x39);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x5f;
}

// End of a letter-spaced run at i ("I G N O R E   A L L"): single characters split by one to four spaces.
function spacedRunEnd(text: string, i: number): number {
  let j = i;
  let letters = 0;
  while (isAlnum(codeAt(text, j)) && !isAlnum(codeAt(text, j + 1))) {
    letters += 1;
    let k = j + 1;
    while (codeAt(text, k) === 0x20 && k - j <= 4) k += 1;
    if (k === j + 1 || !isAlnum(codeAt(text, k))) {
      j += 1;
      break;
    }
    j = k;
  }
  return letters >= 4 ? j : i;
}

/**
 * Pass 2: identifiers split (snake_case, kebab-case, camelCase), letter-spaced runs joined (a wider gap stays a
 * word break), whitespace collapsed, lower case.
 */
export function readAsWords(source: Mapped, track = true): NormalizedText {
  const { text, offsets } = source;
  const out = new Builder(text.length, track && offsets.length === text.length);
  // Lower-cased once, and runs sliced from it rather than lower-cased one by one, when that gives the same
  // units: no letter grew (U+0130 does) and no capital sigma, whose lower case depends on the letters around it
  // (a run cut out of the text sees fewer of them).
  const whole = text.toLowerCase();
  const lower = whole.length === text.length && !text.includes('\u03a3') ? whole : undefined;
  // Most schema texts are single-spaced words already: the lower-cased text is the reading, and no string is
  // built run by run.
  if (!out.track && lower !== undefined && readsAsItStands(text))
    return { text: lower, offsets: UNTRACKED, hidden: [] };
  // Copies runs of plain characters at once; a run ends before any character that needs a decision.
  let runStart = 0;
  for (let i = 0; i < text.length;) {
    const c = codeAt(text, i);
    const previous = codeAt(text, i - 1);
    if (isAlnum(c) && !isAlnum(previous) && codeAt(text, i + 1) === 0x20) {
      const end = spacedRunEnd(text, i);
      if (end > i) {
        flushRun(out, text, lower, offsets, runStart, i);
        for (let k = i; k < end; k += 1) {
          const ch = codeAt(text, k);
          if (ch !== 0x20) out.push((text[k] as string).toLowerCase(), offsets[k] ?? 0);
          else if (codeAt(text, k + 1) === 0x20 && codeAt(text, k - 1) !== 0x20)
            spaceOnce(out, offsets[k] ?? 0);
        }
        i = end;
        runStart = i;
        continue;
      }
    }
    const kebab = c === 0x2d && isAsciiLetter(previous) && isAsciiLetter(codeAt(text, i + 1));
    if (isSpace(c) || kebab) {
      flushRun(out, text, lower, offsets, runStart, i);
      spaceOnce(out, offsets[i] ?? 0);
      i += 1;
      runStart = i;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a && previous >= 0x61 && previous <= 0x7a) {
      flushRun(out, text, lower, offsets, runStart, i);
      spaceOnce(out, offsets[i] ?? 0);
      runStart = i;
    }
    i += 1;
  }
  flushRun(out, text, lower, offsets, runStart, text.length);
  return { text: out.text, offsets: out.offsets.subarray(0, out.length), hidden: [] };
}

// Whether the loop of readAsWords would copy `text` unit for unit: no space but single spaces after a
// character, no underscore or line break, no kebab or camel case joint and no letter-spaced run.
function readsAsItStands(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const previous = codeAt(text, i - 1);
    if (c === 0x20) {
      if (previous === 0x20 || previous === -1) return false;
    } else if (isSpace(c)) return false;
    else if (c === 0x2d) {
      if (isAsciiLetter(previous) && isAsciiLetter(codeAt(text, i + 1))) return false;
    } else if (c >= 0x41 && c <= 0x5a) {
      if (previous >= 0x61 && previous <= 0x7a) return false;
    }
    if (isAlnum(c) && !isAlnum(previous) && codeAt(text, i + 1) === 0x20 && spacedRunEnd(text, i) > i)
      return false;
  }
  return true;
}

function spaceOnce(out: Builder, offset: number): void {
  if (out.length > 0 && out.last() !== ' ') out.push(' ', offset);
}

// `lower`: the whole text lower-cased unit for unit, when it could be.
function flushRun(
  out: Builder,
  text: string,
  lower: string | undefined,
  offsets: Int32Array,
  start: number,
  end: number,
): void {
  if (end <= start) return;
  const chunk = lower === undefined ? text.slice(start, end).toLowerCase() : lower.slice(start, end);
  if (chunk.length === end - start) out.append(chunk, out.track ? offsets.subarray(start, end) : UNTRACKED);
  else for (let k = start; k < end; k += 1) out.push((text[k] as string).toLowerCase(), offsets[k] ?? 0);
}

/** Normalizes one text: hidden characters out and recorded, NFKC, words split, lower case. */
export function normalizeText(text: string): NormalizedText {
  const stripped = stripHidden(text);
  return { ...readAsWords(stripped), hidden: stripped.hidden };
}

/** The original span of `length` normalized characters starting at `start`. */
export function originalSpan(
  normalized: NormalizedText,
  start: number,
  length: number,
): { offset: number; length: number } {
  const from = normalized.offsets[start] ?? 0;
  const last = normalized.offsets[Math.max(start, start + length - 1)] ?? from;
  return { offset: from, length: last - from + 1 };
}
