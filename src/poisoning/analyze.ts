// One model-visible string read the way a careful human reads it: normalized, hidden characters recorded,
// embedded encodings decoded (one level deep), family detectors run on the readable text and on each payload.
import { decodeEmbedded, type DecodedSegment } from './decode.ts';
import { runDetectors, type DetectorHit } from './detectors.ts';
import { readAsWords, stripHidden, type HiddenRun, type NormalizedText } from './normalize.ts';

const MIN_DETECTOR_WORDS = 3;
const MIN_DECODE_LENGTH = 16;
// Chinese, Japanese and Thai write a sentence without spaces: a word count says nothing about them.
const UNSPACED_SCRIPT = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff]/;

/**
 * Whether a text of single-spaced words has at least `count` words. Chinese, Japanese and Thai put no space
 * between words: each CJK or kana character counts as half a word and each Thai character as a third (a word of
 * those scripts is about two and three characters long), so a sentence in them is not read as one word.
 */
export function wordCountAtLeast(text: string, count: number): boolean {
  let spaces = 0;
  for (let i = text.indexOf(' '); i >= 0 && spaces < count - 1; i = text.indexOf(' ', i + 1)) spaces += 1;
  if (spaces >= count - 1 || !UNSPACED_SCRIPT.test(text)) return spaces >= count - 1;
  // In sixths of a word, so both shares are whole numbers.
  const needed = 6 * (count - 1);
  let units = 6 * spaces;
  for (let i = 0; i < text.length && units < needed; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x0e00 && code <= 0x0e7f) units += 2;
    else if ((code >= 0x3040 && code <= 0x30ff) || (code >= 0x3400 && code <= 0x9fff)) units += 3;
  }
  return units >= needed;
}

/** A decoded payload, normalized, with the detector hits inside it. */
export interface ReadPayload {
  readonly segment: DecodedSegment;
  readonly normalized: NormalizedText;
  readonly hits: readonly DetectorHit[];
}

/** Everything the scanner learns from one string. */
export interface ReadText {
  readonly normalized: NormalizedText;
  readonly hidden: readonly HiddenRun[];
  readonly hits: readonly DetectorHit[];
  readonly payloads: readonly ReadPayload[];
}

function readPayload(segment: DecodedSegment): ReadPayload {
  const normalized = readAsWords(stripHidden(segment.text, false), false);
  return { segment, normalized, hits: runDetectors(normalized.text) };
}

/**
 * Leetspeak is decoded as the whole text with digits read as letters, so the plain words come out as they went
 * in: a hit the plain text already holds (the same detector on the same words) is no decoded payload. Prices
 * ("$0.0008 per 1K") read as leetspeak once made an honest "ALWAYS use" an encoded order.
 */
function changedHits(payload: ReadPayload, plain: string, plainHits: readonly DetectorHit[]): ReadPayload {
  if (payload.hits.length === 0) return payload;
  const seen = new Set(plainHits.map((hit) => `${hit.id} ${plain.slice(hit.start, hit.end)}`));
  const text = payload.normalized.text;
  const hits = payload.hits.filter((hit) => !seen.has(`${hit.id} ${text.slice(hit.start, hit.end)}`));
  return hits.length === payload.hits.length ? payload : { ...payload, hits };
}

/**
 * Reads one string: normalization, hidden runs, detector hits and decoded payloads (original offsets). The
 * offsets of the normalized text are built only when a hit or a payload needs its span mapped back.
 */
export function readText(text: string): ReadText {
  let stripped = stripHidden(text, false);
  let normalized = readAsWords(stripped, false);
  // Most strings of a schema are a word or two ("object", "City."): no detector needs fewer than three words,
  // and no decoder reads fewer than sixteen characters.
  const hits =
    wordCountAtLeast(normalized.text, MIN_DETECTOR_WORDS) || UNSPACED_SCRIPT.test(normalized.text)
      ? runDetectors(normalized.text)
      : [];
  const decoded =
    text.length >= MIN_DECODE_LENGTH ? decodeEmbedded(text, stripped.text) : { visible: [], original: [] };
  if (hits.length > 0 || decoded.visible.length > 0) {
    stripped = stripHidden(text, true);
    normalized = readAsWords(stripped, true);
  }
  const payloads: ReadPayload[] = [];
  for (const segment of decoded.visible) {
    const from = stripped.offsets[segment.offset] ?? 0;
    const to = stripped.offsets[segment.offset + segment.length - 1] ?? from;
    const payload = readPayload({ ...segment, offset: from, length: to - from + 1 });
    payloads.push(segment.encoding === 'leetspeak' ? changedHits(payload, normalized.text, hits) : payload);
  }
  for (const segment of decoded.original) payloads.push(readPayload(segment));
  return { normalized: { ...normalized, hidden: stripped.hidden }, hidden: stripped.hidden, hits, payloads };
}
