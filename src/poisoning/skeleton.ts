// The skeleton of a name (after Unicode TR39): what a reader takes it for. Invisible characters out, NFKC, and
// each Cyrillic or Greek look-alike of a Latin letter (the letters homoglyph.ts flags) read as that letter, so
// `pаypal` (Cyrillic а) and `pay\u200Bpal` both read `paypal`.
import { stripHidden } from './normalize.ts';

// Look-alike → the Latin letter it renders as; the keys are exactly homoglyph.ts's look-alikes (a test checks).
const LATIN_OF = new Map<number, string>([
  // Cyrillic lower case
  [0x0430, 'a'],
  [0x0435, 'e'],
  [0x043e, 'o'],
  [0x0440, 'p'],
  [0x0441, 'c'],
  [0x0443, 'y'],
  [0x0445, 'x'],
  [0x0455, 's'],
  [0x0456, 'i'],
  [0x0458, 'j'],
  [0x04bb, 'h'],
  [0x04cf, 'l'],
  [0x0501, 'd'],
  [0x051b, 'q'],
  [0x051d, 'w'],
  // Cyrillic upper case
  [0x0410, 'A'],
  [0x0412, 'B'],
  [0x0415, 'E'],
  [0x041a, 'K'],
  [0x041c, 'M'],
  [0x041d, 'H'],
  [0x041e, 'O'],
  [0x0420, 'P'],
  [0x0421, 'C'],
  [0x0422, 'T'],
  [0x0423, 'Y'],
  [0x0425, 'X'],
  [0x0405, 'S'],
  [0x0406, 'I'],
  [0x0408, 'J'],
  [0x04ae, 'Y'],
  [0x04c0, 'I'],
  [0x04ba, 'H'],
  [0x0500, 'D'],
  [0x051a, 'Q'],
  [0x051c, 'W'],
  // Greek upper case
  [0x0391, 'A'],
  [0x0392, 'B'],
  [0x0395, 'E'],
  [0x0396, 'Z'],
  [0x0397, 'H'],
  [0x0399, 'I'],
  [0x039a, 'K'],
  [0x039c, 'M'],
  [0x039d, 'N'],
  [0x039f, 'O'],
  [0x03a1, 'P'],
  [0x03a4, 'T'],
  [0x03a5, 'Y'],
  [0x03a7, 'X'],
  // Greek lower case
  [0x03b1, 'a'],
  [0x03b3, 'y'],
  [0x03b9, 'i'],
  [0x03ba, 'k'],
  [0x03bd, 'v'],
  [0x03bf, 'o'],
  [0x03c1, 'p'],
  [0x03c5, 'u'],
  [0x03c7, 'x'],
  [0x03f2, 'c'],
  [0x03f3, 'j'],
]);

/** The code points the skeleton reads as Latin letters (for the test that keeps homoglyph.ts in step). */
export const SKELETON_LOOK_ALIKES: ReadonlySet<number> = new Set(LATIN_OF.keys());

/** The skeleton of `text`: invisible characters removed, NFKC, look-alikes read as Latin letters. */
export function skeletonOf(text: string): string {
  const visible = stripHidden(text, false).text;
  let out = '';
  for (const char of visible) out += LATIN_OF.get(char.codePointAt(0) as number) ?? char;
  return out;
}
