/** Encoders the obfuscated poisoned entries apply to a hand-written plaintext payload. Deterministic. */

/** Unicode tag characters (U+E0000 block): invisible in most renderers, read by many tokenizers. */
export const toTags = (text: string): string =>
  [...text].map((ch) => String.fromCodePoint(0xe0000 + (ch.codePointAt(0) as number))).join('');

/** Bytes as variation selectors (VS1–VS16 for 0–15, VS17–VS256 for 16–255), riding on a base character. */
export const toVariationSelectors = (base: string, text: string): string =>
  base +
  [...Buffer.from(text, 'utf8')]
    .map((byte) => String.fromCodePoint(byte < 16 ? 0xfe00 + byte : 0xe0100 + byte - 16))
    .join('');

/** Bits as zero-width characters: U+200B for 0, U+200C for 1, U+200D between bytes. */
export const toZeroWidthBits = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) => byte.toString(2).padStart(8, '0').replace(/0/g, '\u200B').replace(/1/g, '\u200C'))
    .join('\u200D');

/** Inserts `joiner` between the letters of every word. */
export const splitLetters = (text: string, joiner: string): string =>
  text.replace(/[A-Za-z]{2,}/g, (word) => [...word].join(joiner));

/** ASCII letters and digits as fullwidth forms (NFKC folds them back). */
export const toFullwidth = (text: string): string =>
  text.replace(/[!-~]/g, (ch) => String.fromCodePoint((ch.codePointAt(0) as number) + 0xfee0));

/** ASCII letters as mathematical bold letters (NFKC folds them back). */
export const toMathBold = (text: string): string =>
  text.replace(/[A-Za-z]/g, (ch) => {
    const code = ch.codePointAt(0) as number;
    return String.fromCodePoint(code >= 97 ? 0x1d41a + code - 97 : 0x1d400 + code - 65);
  });

export const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
export const base64Url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
export const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
export const hexSpaced = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => b.toString(16).padStart(2, '0')).join(' ');
export const hexEscaped = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
/** Percent-encodes every byte, so even letters are hidden. */
export const percentAll = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
export const htmlDecimal = (text: string): string =>
  [...text].map((ch) => `&#${ch.codePointAt(0) as number};`).join('');
export const htmlHex = (text: string): string =>
  [...text].map((ch) => `&#x${(ch.codePointAt(0) as number).toString(16)};`).join('');
export const rot13 = (text: string): string =>
  text.replace(/[A-Za-z]/g, (ch) => {
    const base = ch <= 'Z' ? 65 : 97;
    return String.fromCharCode(((ch.charCodeAt(0) - base + 13) % 26) + base);
  });
const LEET: Record<string, string> = {
  a: '4',
  e: '3',
  i: '1',
  o: '0',
  s: '5',
  t: '7',
  l: '1',
  g: '9',
  b: '8',
};
export const leet = (text: string): string =>
  text.replace(/[aeiostlgb]/gi, (ch) => LEET[ch.toLowerCase()] ?? ch);
export const reversed = (text: string): string => [...text].reverse().join('');
/** RFC 4648 base32 without padding. */
export const base32 = (text: string): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of Buffer.from(text, 'utf8')) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
};
export const unicodeEscapes = (text: string): string =>
  [...text].map((ch) => `\\u${(ch.codePointAt(0) as number).toString(16).padStart(4, '0')}`).join('');
