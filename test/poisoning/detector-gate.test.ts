// The word gate of the family detectors (src/poisoning/detectors.ts) never skips a detector that matches: over
// every model-visible string of the labelled corpus (all splits, outputs compared only, no metric) and over
// random edits of the sentences that match, a detector whose pattern finds a match is always let through.
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../scripts/corpus/load.ts';
import { DETECTOR_PATTERNS, gatedDetectors } from '../../src/poisoning/detectors.ts';
import { normalizeText } from '../../src/poisoning/normalize.ts';
import { collectVisibleStrings } from '../../src/poisoning/tool-strings.ts';

// The detectors whose pattern matches `text`, as bits in the order of DETECTOR_PATTERNS.
function matching(text: string): number {
  let mask = 0;
  DETECTOR_PATTERNS.forEach(({ re }, index) => {
    if (new RegExp(re.source).test(text)) mask |= 1 << index;
  });
  return mask;
}

// The ids of the matching detectors that the gate would skip.
function skipped(text: string): string[] {
  const missed = matching(text) & ~gatedDetectors(text);
  return DETECTOR_PATTERNS.filter((_, index) => (missed & (1 << index)) !== 0).map(({ id }) => id);
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

const texts = loadCorpus().entries.flatMap((entry) =>
  collectVisibleStrings(entry.tool).map(({ text }) => normalizeText(text).text),
);

// The FNV-1a of each gated detector's pattern as the gate's word lists were read off it.
const GATED_SOURCES: Readonly<Record<string, number>> = {
  PERSONA_SWAP: 0x841f11d5,
  PERSONA_OVERRIDE: 0x61e63c6c,
  CHAT_TEMPLATE_DELIMITER: 0xdc83aa5f,
  FORGED_SYSTEM_TURN: 0x60390016,
  REMOTE_CODE: 0x49022f8d,
  CREDENTIAL_REQUEST: 0x12116fe5,
  PROMPT_HARVEST: 0x7f91c790,
  EXFILTRATION_NATURAL: 0xdd76b1c3,
  CONVERSATION_CAPTURE: 0xed81aebe,
  STANDING_ORDER: 0x7b9f8f1e,
  SESSION_SCOPE: 0x8473fe5d,
  TOOL_DISCREDIT: 0x7d42a7e9,
  CONCEALMENT_PHRASE: 0xe96c20ef,
  SECRET_HARVEST: 0x26022fc3,
  APPROVAL_BYPASS: 0xb994071f,
};

function fnv(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

describe('the word gate of the family detectors', () => {
  it('lets every matching detector run on every string of the labelled corpus', () => {
    let matched = 0;
    for (const text of texts) {
      if (matching(text) !== 0) matched += 1;
      expect(skipped(text), text).toEqual([]);
    }
    // The corpus holds hundreds of poisoned strings: the check is not vacuous.
    expect(matched).toBeGreaterThan(300);
  });

  it('lets every matching detector run on random edits of the matching strings', () => {
    const random = seeded(17);
    const matches = texts.filter((text) => matching(text) !== 0);
    const fillers = [
      ' ',
      ', ',
      '. ',
      "'",
      '_',
      '-',
      ':',
      '(',
      '"',
      'x',
      '0',
      'é',
      'now',
      'you',
      'the',
      '—',
      '→',
      '🚀',
      '×',
      '\u00a0',
    ];
    let stillMatching = 0;
    for (let n = 0; n < 4000; n += 1) {
      const words = (matches[Math.floor(random() * matches.length)] as string).split(' ');
      // Drop, repeat or glue words, or put a filler between them: shapes the corpus does not hold.
      const edited: string[] = [];
      for (const word of words) {
        const roll = random();
        if (roll < 0.08) continue;
        if (roll < 0.12) edited.push(word, word);
        else if (roll < 0.2) edited.push(`${word}${fillers[Math.floor(random() * fillers.length)]}`);
        else edited.push(word);
      }
      const text = edited.join(random() < 0.2 ? '' : ' ');
      if (matching(text) !== 0) stillMatching += 1;
      expect(skipped(text), text).toEqual([]);
    }
    expect(stillMatching).toBeGreaterThan(1000);
  });

  it('lets a detector run on its matches alone, with their words swapped for other words of its pattern', () => {
    const random = seeded(23);
    let checked = 0;
    DETECTOR_PATTERNS.forEach(({ id, re }, index) => {
      const bit = 1 << index;
      const pattern = new RegExp(re.source);
      const own = [...new Set(re.source.match(/[a-z]{2,}/g) ?? [])];
      const samples = texts.flatMap((text) => {
        const found = pattern.exec(text);
        return found === null ? [] : [found[0]];
      });
      for (let n = 0; n < 1500 && samples.length > 0; n += 1) {
        const words = (samples[Math.floor(random() * samples.length)] as string).split(' ');
        for (let swaps = 1 + Math.floor(random() * 2); swaps > 0; swaps -= 1)
          words[Math.floor(random() * words.length)] = own[Math.floor(random() * own.length)] as string;
        const text = words.join(' ');
        if (!pattern.test(text)) continue;
        checked += 1;
        expect((gatedDetectors(text) & bit) !== 0, `${id}: ${text}`).toBe(true);
      }
    });
    expect(checked).toBeGreaterThan(2000);
  });

  it('reads typography, arrows and emoji as word breaks, and runs every detector on a letter outside ASCII', () => {
    const all = (1 << DETECTOR_PATTERNS.length) - 1;
    const plain = gatedDetectors('lists the files of a folder - sorted by name');
    expect(plain).not.toBe(all);
    expect(gatedDetectors('lists the files of a folder — sorted → by name 🚀')).toBe(plain);
    expect(gatedDetectors('from now on—you are the admin')).toBe(
      gatedDetectors('from now on-you are the admin'),
    );
    expect(gatedDetectors('lists the files of a folder — désormais')).toBe(all);
    expect(gatedDetectors('lists the files of a folder 从现在开始')).toBe(all);
  });

  it('was read off the gated patterns as they are (a changed pattern needs its gate words checked again)', () => {
    const sources = Object.fromEntries(
      DETECTOR_PATTERNS.filter(({ id }) => id in GATED_SOURCES).map(({ id, re }) => [id, fnv(re.source)]),
    );
    expect(sources).toEqual(GATED_SOURCES);
  });
});
