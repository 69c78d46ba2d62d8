// One model-visible string read the way a careful human reads it: normalized, hidden characters recorded,
// embedded encodings decoded (one level deep), family detectors run on the readable text and on each payload.
import { decodeEmbedded, type DecodedSegment } from './decode.ts';
import { runDetectors, type DetectorHit } from './detectors.ts';
import { readAsWords, stripHidden, type HiddenRun, type NormalizedText } from './normalize.ts';

const MIN_DETECTOR_WORDS = 3;
const MIN_DECODE_LENGTH = 16;
// Chinese, Japanese and Thai write a sentence without spaces: a word count says nothing about them.
const UNSPACED_SCRIPT = /[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff]/;

/** Whether a text of single-spaced words has at least `count` words. */
export function wordCountAtLeast(text: string, count: number): boolean {
  let spaces = 0;
  for (let i = text.indexOf(' '); i >= 0 && spaces < count - 1; i = text.indexOf(' ', i + 1)) spaces += 1;
  return spaces >= count - 1;
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
    payloads.push(readPayload({ ...segment, offset: from, length: to - from + 1 }));
  }
  for (const segment of decoded.original) payloads.push(readPayload(segment));
  return { normalized: { ...normalized, hidden: stripped.hidden }, hidden: stripped.hidden, hits, payloads };
}
