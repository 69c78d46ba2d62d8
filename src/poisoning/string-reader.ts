// How one scanner reads a string: the regex rules on the original text (reference rules, homoglyph words,
// Portcullis rules, the cross-server check), then the reading of tool-reading.ts, with a memo of short strings.
import { JAVA_SPACE as S, lowerKeepingOffsets } from '../shared/index.ts';
import { findMixedScriptWords } from './homoglyph.ts';
import { createNameMatcher, type NameIndex, type NameMatcher } from './name-matcher.ts';
import { EXTRA_RULES, MAX_FINDINGS_PER_RULE, REFERENCE_REGEX_RULES, ruleView } from './poisoning-patterns.ts';
import type { RuleView, ScanRule } from './poisoning-patterns.ts';
import type { TextMatch } from './poisoning-scanner.ts';
import { createFeatureSet } from './features.ts';
import { addStringFeaturesAndWindows, findInString } from './tool-reading.ts';
import type { SentenceWindow, StringReading } from './tool-reading.ts';

/** The matcher of the names of the other exposed tools, lower-cased; blank names are left out. */
export function otherNamesMatcher(otherNames: readonly string[] = []): NameMatcher {
  return createNameMatcher(
    otherNames.filter((name) => name.trim() !== '').map((name) => lowerKeepingOffsets(name)),
  );
}

/** How far after a command verb the cross-server check looks for another tool's name. */
export const CROSS_SERVER_WINDOW = 80;
const CROSS_SERVER_EXCERPT = 60;
const COMMAND_VERB = new RegExp(
  `\\b(?:use|call|invoke|run|then${S}+(?:use|call|invoke)|first${S}+(?:call|use))${S}+`,
  'g',
);

function runRule(rule: ScanRule, text: string, view: RuleView, out: TextMatch[]): void {
  if (rule.mayMatch(view)) rule.collect(text, out);
}

function crossServer(text: string, names: NameMatcher, out: TextMatch[]): void {
  const lowered = lowerKeepingOffsets(text);
  // Indexed once, on the first verb: the windows of repeated verbs overlap, and each asks in O(1).
  let found: NameIndex | undefined;
  let hits = 0;
  COMMAND_VERB.lastIndex = 0;
  for (
    let match = COMMAND_VERB.exec(lowered);
    match !== null && hits < MAX_FINDINGS_PER_RULE;
    match = COMMAND_VERB.exec(lowered)
  ) {
    const windowStart = match.index + match[0].length;
    const windowEnd = Math.min(lowered.length, windowStart + CROSS_SERVER_WINDOW);
    found ??= names.index(lowered);
    if (found.containsAny(windowStart, windowEnd)) {
      hits += 1;
      out.push({
        patternId: 'CROSS_SERVER_IMPERATIVE',
        matchedText: text.slice(match.index, match.index + CROSS_SERVER_EXCERPT),
        offset: match.index,
      });
    }
  }
}

/** The regex-rule layer on one original text, in record order. */
export function scanWith(text: string | null | undefined, names: NameMatcher): TextMatch[] {
  const matches: TextMatch[] = [];
  if (text === null || text === undefined || text === '') return matches;
  // Record order: reference regex rules, homoglyph words, Portcullis rules, cross-server last.
  const view = ruleView(text);
  for (const rule of REFERENCE_REGEX_RULES) runRule(rule, text, view, matches);
  // A look-alike letter is Cyrillic or Greek: printable ASCII has none.
  if (!view.ascii)
    for (const word of findMixedScriptWords(text, MAX_FINDINGS_PER_RULE))
      matches.push({ patternId: 'UNICODE_HOMOGLYPH_RISK', ...word });
  for (const rule of EXTRA_RULES) runRule(rule, text, view, matches);
  if (names.size > 0) crossServer(text, names, matches);
  return matches;
}

/** Reads strings for one scanner: its other-server names, and a memo of its short strings' readings. */
export interface StringReader {
  readonly names: NameMatcher;
  read(text: string): StringReading;
  /** A string's own model features: its distinct buckets, in the order they were first added. */
  features(text: string, reading: StringReading, slot: () => string): OwnFeatures;
}

/** A string's own model features, and its sentence windows when it is a description of several sentences. */
export interface OwnFeatures {
  readonly buckets: ReadonlySet<number>;
  readonly windows: readonly SentenceWindow[];
}

// Schemas repeat their short strings ("type", "string", "object", "path") across tools: a tool list holds a
// few thousand distinct ones. Readings are never mutated, so one serves every tool that holds the string.
const MEMO_MAX_LENGTH = 32;
const MEMO_MAX_ENTRIES = 4096;
// Longer strings repeat too: a server's tools share parameter descriptions ("Maximum number of items to
// return.") and enum texts. Their memo is bounded by the characters it holds, so its size stays a small
// multiple of this whatever the strings; a string longer than LONG_MEMO_MAX_LENGTH is read every time. A long
// string is kept from its second sighting on: most descriptions are met once, and keeping their readings
// alive only to drop them costs more (old-generation garbage) than the repeats save.
/** The longest string the memo of long strings keeps. */
export const LONG_MEMO_MAX_LENGTH = 1024;
/** The characters the memo of long strings holds at most (the strings seen once, as many again). */
export const LONG_MEMO_MAX_CHARS = 131_072;

interface MemoEntry {
  readonly reading: StringReading;
  /** Set once computed, unless they depended on the slot the string sat in. */
  own?: OwnFeatures;
  /** When they did: per slot kind (a handful: key, enum, default, description, ...). */
  bySlot?: Map<string, OwnFeatures>;
}

function ownFeatures(
  reading: StringReading,
  slot: () => string,
): { own: OwnFeatures; kind: string | undefined } {
  const set = createFeatureSet();
  let kind: string | undefined;
  const windows = addStringFeaturesAndWindows(set, reading, () => {
    kind ??= slot();
    return kind;
  });
  return { own: { buckets: set.buckets, windows }, kind };
}

/** A reader for one scanner; its memo lives as long as the scanner. */
export function createStringReader(names: NameMatcher): StringReader {
  const memo = new Map<string, MemoEntry>();
  const long = new Map<string, MemoEntry>();
  let longChars = 0;
  const seenOnce = new Set<string>();
  let seenChars = 0;
  const memoOf = (text: string): Map<string, MemoEntry> | undefined =>
    text.length <= MEMO_MAX_LENGTH ? memo : text.length <= LONG_MEMO_MAX_LENGTH ? long : undefined;
  return {
    names,
    read(text) {
      const map = memoOf(text);
      if (map === undefined) return findInString(text, scanWith(text, names));
      let entry = map.get(text);
      if (entry !== undefined) return entry.reading;
      const reading = findInString(text, scanWith(text, names));
      entry = { reading };
      // Cleared when full rather than evicted one by one: bounded, and as cheap as a miss.
      if (map === memo) {
        if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
      } else if (!seenOnce.has(text)) {
        if (seenChars + text.length > LONG_MEMO_MAX_CHARS) {
          seenOnce.clear();
          seenChars = 0;
        }
        seenChars += text.length;
        seenOnce.add(text);
        return reading;
      } else {
        if (longChars + text.length > LONG_MEMO_MAX_CHARS) {
          long.clear();
          longChars = 0;
        }
        longChars += text.length;
      }
      map.set(text, entry);
      return reading;
    },
    features(text, reading, slot) {
      const entry = memoOf(text)?.get(text);
      const mine = entry !== undefined && entry.reading === reading ? entry : undefined;
      if (mine?.own !== undefined) return mine.own;
      if (mine?.bySlot !== undefined) {
        const kind = slot();
        const known = mine.bySlot.get(kind);
        if (known !== undefined) return known;
        const { own } = ownFeatures(reading, () => kind);
        mine.bySlot.set(kind, own);
        return own;
      }
      const { own, kind } = ownFeatures(reading, slot);
      if (mine !== undefined) {
        if (kind === undefined) mine.own = own;
        else mine.bySlot = new Map([[kind, own]]);
      }
      return own;
    },
  };
}
