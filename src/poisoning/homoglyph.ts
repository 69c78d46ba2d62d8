// Mixed-script words: Latin letters next to Cyrillic or Greek look-alikes inside one word (R-POISON-8,
// after Unicode TR39 mixed-script confusables). Honest Russian or Greek text next to English words is clean.

// Cyrillic and Greek letters that render like a Latin letter in common fonts (a subset of TR39 confusables).
const LOOK_ALIKES = new Set([
  // Cyrillic lower case: а е о р с у х ѕ і ј һ ӏ ԁ ԛ ԝ
  0x0430, 0x0435, 0x043e, 0x0440, 0x0441, 0x0443, 0x0445, 0x0455, 0x0456, 0x0458, 0x04bb, 0x04cf, 0x0501,
  0x051b, 0x051d,
  // Cyrillic upper case: А В Е К М Н О Р С Т У Х Ѕ І Ј Ү Ӏ Һ Ԁ Ԛ Ԝ
  0x0410, 0x0412, 0x0415, 0x041a, 0x041c, 0x041d, 0x041e, 0x0420, 0x0421, 0x0422, 0x0423, 0x0425, 0x0405,
  0x0406, 0x0408, 0x04ae, 0x04c0, 0x04ba, 0x0500, 0x051a, 0x051c,
  // Greek upper case: Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ
  0x0391, 0x0392, 0x0395, 0x0396, 0x0397, 0x0399, 0x039a, 0x039c, 0x039d, 0x039f, 0x03a1, 0x03a4, 0x03a5,
  0x03a7,
  // Greek lower case: α γ ι κ ν ο ρ υ χ ϲ ϳ
  0x03b1, 0x03b3, 0x03b9, 0x03ba, 0x03bd, 0x03bf, 0x03c1, 0x03c5, 0x03c7, 0x03f2, 0x03f3,
]);

function isLatinLetter(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0xc0 && code <= 0x24f && code !== 0xd7 && code !== 0xf7) ||
    (code >= 0x1e00 && code <= 0x1eff)
  );
}

function isCyrillicOrGreek(code: number): boolean {
  return (code >= 0x0370 && code <= 0x052f) || (code >= 0x1f00 && code <= 0x1fff);
}

// Digits, combining marks and invisible format characters continue a word, so `p\u200Bаypal` is one word.
function continuesWord(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x0300 && code <= 0x036f) ||
    code === 0x00ad ||
    (code >= 0x200b && code <= 0x200d) ||
    code === 0x2060 ||
    code === 0xfeff
  );
}

/** One word that mixes scripts: the word and where it starts (UTF-16 offset). */
export interface MixedScriptWord {
  readonly matchedText: string;
  readonly offset: number;
}

/**
 * Every word (a run of Latin, Cyrillic and Greek letters, digits and combining marks) that holds at least one
 * Latin letter and at least one Cyrillic or Greek look-alike of a Latin letter, up to `limit` words. One
 * linear pass.
 */
export function findMixedScriptWords(text: string, limit = Infinity): MixedScriptWord[] {
  const words: MixedScriptWord[] = [];
  let start = -1;
  let latin = false;
  let lookAlike = false;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : -1;
    const letterLatin = isLatinLetter(code);
    const letterOther = isCyrillicOrGreek(code);
    if (letterLatin || letterOther || (start >= 0 && continuesWord(code))) {
      if (start < 0) start = i;
      latin ||= letterLatin;
      lookAlike ||= LOOK_ALIKES.has(code);
      continue;
    }
    if (start >= 0 && latin && lookAlike) {
      words.push({ matchedText: text.slice(start, i), offset: start });
      if (words.length >= limit) break;
    }
    start = -1;
    latin = false;
    lookAlike = false;
  }
  return words;
}
