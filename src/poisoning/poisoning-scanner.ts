// The tool poisoning scanner (docs/rules/poisoning.md): rules, normalization, family detectors and a linear
// model combined into one verdict per tool or text, in linear time on any input.
import type { PoisoningPatternId } from './poisoning-patterns.ts';
import type { McpToolDefinition } from '../risk/index.ts';
import { forEachVisibleString } from './tool-strings.ts';
import { BucketUnion, createFeatureSet, LEXICAL_BUCKETS, type FeatureSet } from './features.ts';
import { ADDED_FEATURE, ADDED_URL_FEATURE, sentenceSpans, symbolicBucket } from './features.ts';
import { createLinearModel, type LinearModel, type ModelWeights } from './model.ts';
import {
  addSentenceFeatures,
  addStringFeatures,
  combineSignals,
  slotInstruction,
  slotOf,
} from './tool-reading.ts';
import type { SentenceWindow, StringReading } from './tool-reading.ts';
import { normalizeText, originalSpan } from './normalize.ts';
import { sigmoid } from './model.ts';
import { createScanCache, DEFAULT_SCAN_CACHE_ENTRIES, textDigest, toolDigest } from './scan-cache.ts';
import type { ScanCacheOptions } from './scan-cache.ts';
import { createStringReader, otherNamesMatcher, scanWith, type StringReader } from './string-reader.ts';
import { KEY_SENTENCE_PATH, keySentence } from './key-sentence.ts';
import { addToolFeatures, argumentSmuggling, foreignSentences, shadowingTriggers } from './concepts.ts';
import { addAddedConcepts, addedConceptName } from './concepts.ts';
import type { ForeignSentences } from './concepts.ts';

export { CROSS_SERVER_WINDOW } from './string-reader.ts';

/** One hit in a text: the pattern, the text it matched, and its UTF-16 offset. */
export interface TextMatch {
  readonly patternId: PoisoningPatternId;
  readonly matchedText: string;
  readonly offset: number;
  /** Length of the original span when `matchedText` is an excerpt or the span holds invisible characters. */
  readonly length?: number;
  /** What a normalization finding removed or decoded, or the model's probability and top features. */
  readonly detail?: string;
}

/** One hit in a tool definition: a TextMatch plus the field it was found in. */
export interface ToolMatch extends TextMatch {
  readonly fieldPath: string;
}

/** The scan of one text; `clean` means no match at all. */
export interface TextScanResult {
  readonly clean: boolean;
  readonly matches: readonly TextMatch[];
  /** Rule hits that did not flag on their own and were not confirmed by the model (empty when flagged). */
  readonly signals?: readonly TextMatch[];
  /** The model's probability that the text is poisoned. */
  readonly score?: number;
}

/** The scan of every model-visible string of a tool; `clean` means no match at all. */
export interface ToolScanResult {
  readonly clean: boolean;
  readonly matches: readonly ToolMatch[];
  /** Rule hits that did not flag on their own and were not confirmed by the model (empty when flagged). */
  readonly signals?: readonly ToolMatch[];
  /** The model's probability that the tool is poisoned. */
  readonly score?: number;
}

/** A scanner compiled once (names of the other exposed tools included) and run many times. */
export interface PoisoningScanner {
  scanText(text: string | null | undefined): TextScanResult;
  scanTool(tool: McpToolDefinition, options?: ToolScanOptions): ToolScanResult;
}

/** What a tool scan knows besides the definition. */
export interface ToolScanOptions {
  /**
   * The definition approved before this one (a redefinition): the text this version adds is also scored as
   * windows of its own, with the model's "added in a redefinition" feature (R-POISON-REDEFINITION).
   */
  readonly previous?: McpToolDefinition | undefined;
}

/** Scanner options. */
export interface PoisoningScannerOptions {
  /**
   * Names of the *other* exposed tools (not this tool's own). When non-empty, CROSS_SERVER_IMPERATIVE runs:
   * a command verb followed, within 80 characters, by one of these names.
   */
  readonly otherNames?: readonly string[] | undefined;
  /** Model weights other than the committed ones (training and tests). */
  readonly model?: ModelWeights | undefined;
  /**
   * A bounded cache of results keyed by a digest of what was scanned (default on, DEFAULT_SCAN_CACHE_ENTRIES
   * entries; `{ maxEntries: 0 }` turns it off). A hit returns the same frozen result object.
   */
  readonly cache?: ScanCacheOptions | undefined;
}

interface Collected {
  readonly strong: ToolMatch[];
  readonly signals: ToolMatch[];
}

type Visitor = (visit: (text: string, path: () => string, slot?: () => string) => void) => void;

/** One string's own features, kept so a model verdict is explained without reading the tool again. */
interface FieldFeatures {
  readonly text: string;
  readonly path: () => string;
  readonly slot: () => string;
  readonly buckets: ReadonlySet<number>;
  /** Its sentence windows, when it is a description of more than one sentence. */
  readonly sentences: readonly SentenceWindow[];
  readonly reading: StringReading;
}

// `features` undefined: the caller has no model, and no feature is computed.
function collect(
  each: Visitor,
  reader: StringReader,
  features: { add(bucket: number): void } | undefined,
  fields?: FieldFeatures[],
): Collected {
  const strong: ToolMatch[] = [];
  const signals: ToolMatch[] = [];
  each((text, path, slot = () => slotOf(path())) => {
    if (text === '') return;
    const found = reader.read(text);
    if (features !== undefined) {
      // The union of each string's own set, taken in order, has the same members in the same insertion
      // order as one set filled string by string, so the model's sum is the same to the last bit.
      const own = reader.features(text, found, slot);
      for (const bucket of own.buckets) features.add(bucket);
      fields?.push({ text, path, slot, buckets: own.buckets, sentences: own.windows, reading: found });
    }
    // A lone text (path '') sits in no schema slot.
    const lone = path === LONE_TEXT;
    const inSlot = lone ? undefined : slotInstruction(text, found, slot());
    if (found.strong.length === 0 && found.signals.length === 0 && inSlot === undefined) return;
    const fieldPath = path();
    if (inSlot !== undefined) strong.push({ ...inSlot, fieldPath });
    for (const finding of found.strong)
      (lone && TOOL_ONLY_STRONG.has(finding.patternId) ? signals : strong).push({ ...finding, fieldPath });
    for (const finding of found.signals) signals.push({ ...finding, fieldPath });
  });
  return { strong, signals: combineSignals(strong, signals) };
}

// The path of a lone text (scanText): no field, no schema slot.
const LONE_TEXT = (): string => '';

// Strong in a tool definition, a signal in a lone text: a tool has no reason to steer the user's dependencies,
// to give orders for the rest of the conversation or to discredit other tools, but a search result or a web
// page an answer carries recommends one package over another, says "going forward, you ..." and compares
// products all the time.
const TOOL_ONLY_STRONG = new Set<PoisoningPatternId>(['DEPENDENCY_STEER', 'SESSION_SCOPE', 'TOOL_DISCREDIT']);

const TOP_FEATURES = 4;

// The heaviest TOP_FEATURES buckets of `first` then the new ones of `then`, heaviest first, earlier first among
// equal weights: the head of a stable sort by weight, without sorting the rest.
function heaviest(first: ReadonlySet<number>, then: ReadonlySet<number>, model: LinearModel): number[] {
  const top: number[] = [];
  const weights: number[] = [];
  const consider = (bucket: number): void => {
    const weight = model.weight(bucket);
    let at = top.length;
    while (at > 0 && (weights[at - 1] as number) < weight) at -= 1;
    if (at >= TOP_FEATURES) return;
    top.splice(at, 0, bucket);
    weights.splice(at, 0, weight);
    if (top.length > TOP_FEATURES) {
      top.pop();
      weights.pop();
    }
  };
  for (const bucket of first) consider(bucket);
  for (const bucket of then) if (!first.has(bucket)) consider(bucket);
  return top;
}

/** A window of the model: one string of the tool, or one sentence of a description. */
interface ModelWindow {
  readonly field: FieldFeatures;
  readonly sentence?: SentenceWindow;
  readonly buckets: ReadonlySet<number>;
}

// Every string is a window, and so is each sentence of a description of more than one (R-POISON-MODEL). With
// the previous definition, each string and sentence it did not hold is a window again, with ADDED_FEATURE.
function windowsOf(fields: readonly FieldFeatures[], previous?: PreviousText): ModelWindow[] {
  const windows: ModelWindow[] = [];
  for (const field of fields) {
    windows.push({ field, buckets: field.buckets });
    const added = previous !== undefined && !previous.strings.has(field.text);
    const { sentences } = field;
    if (added && sentences.length === 0)
      windows.push({ field, buckets: addedField(field, previous as PreviousText) });
    const { text } = field.reading.read.normalized;
    for (const sentence of sentences) {
      windows.push({ field, sentence, buckets: sentence.buckets });
      if (added && !(previous as PreviousText).sentences.has(text.slice(sentence.start, sentence.end)))
        windows.push({ field, sentence, buckets: withAdded(sentence.buckets, previous as PreviousText) });
    }
  }
  return windows;
}

const ADDED_BUCKET = symbolicBucket(ADDED_FEATURE);
// A URL that became a value (a default, an enum entry) in an update: a destination the model gives no concept
// in a first version, where an endpoint is what a tool names (R-POISON-SLOTS), but a changed one is news.
const ADDED_URL_BUCKET = symbolicBucket(ADDED_URL_FEATURE);
// Text added to a tool whose read-only hint both versions keep: a destructive step added under it is the lie.
const ADDED_READ_ONLY_FEATURE = 'add:read-only';
const ADDED_READ_ONLY_BUCKET = symbolicBucket(ADDED_READ_ONLY_FEATURE);
const ADDED_NAMES = new Map([
  [ADDED_BUCKET, ADDED_FEATURE],
  [ADDED_URL_BUCKET, ADDED_URL_FEATURE],
  [ADDED_READ_ONLY_BUCKET, ADDED_READ_ONLY_FEATURE],
]);

function addedField(field: FieldFeatures, previous: PreviousText): ReadonlySet<number> {
  const buckets = withAdded(field.buckets, previous);
  if (field.reading.bareUrl && field.slot() !== 'description') buckets.add(ADDED_URL_BUCKET);
  return buckets;
}

function withAdded(buckets: ReadonlySet<number>, previous: PreviousText): Set<number> {
  const set = new Set(buckets);
  set.add(ADDED_BUCKET);
  if (previous.readOnly) set.add(ADDED_READ_ONLY_BUCKET);
  addAddedConcepts(set, buckets);
  return set;
}

/** What the previous definition held: its strings as written, and its descriptions' sentences normalized. */
interface PreviousText {
  readonly strings: ReadonlySet<string>;
  readonly sentences: ReadonlySet<string>;
  /** Both versions say the tool only reads: what the update adds is read under that promise. */
  readonly readOnly: boolean;
}

// One pass over the previous definition's strings; only its descriptions are normalized, once each.
function readPrevious(previous: McpToolDefinition, tool: McpToolDefinition): PreviousText {
  const strings = new Set<string>();
  const sentences = new Set<string>();
  forEachVisibleString(previous, (text, _path, slot) => {
    strings.add(text);
    if (slot() !== 'description') return;
    const normalized = normalizeText(text).text;
    const spans = sentenceSpans(normalized);
    for (let at = 0; at < spans.length; at += 2)
      sentences.add(normalized.slice(spans[at] as number, spans[at + 1] as number));
  });
  const readOnly = (definition: McpToolDefinition): boolean =>
    (definition.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint === true;
  return { strings, sentences, readOnly: readOnly(previous) && readOnly(tool) };
}

// The highest-margin window, or undefined when the whole tool's vector scores at least as high.
function bestWindow(
  model: LinearModel,
  whole: number,
  windows: readonly ModelWindow[],
): { margin: number; window?: ModelWindow } {
  let best: { margin: number; window?: ModelWindow } = { margin: whole };
  for (const window of windows) {
    const margin = model.windowMargin(window.buckets);
    // A sentence that scores as high as its whole string names the payload more narrowly: it explains the score.
    const better =
      window.sentence !== undefined && best.window !== undefined
        ? margin !== undefined && margin >= best.margin
        : margin !== undefined && margin > best.margin;
    if (better) best = { margin: margin as number, window };
  }
  return best;
}

// Explains a verdict of one window: its field, its span (the sentence's, in the original text) and its heaviest
// features, named by reading the window again.
function explainWindow(window: ModelWindow, model: LinearModel, score: number): ToolMatch {
  const { field, sentence } = window;
  // The window was scored by its symbolic features: those are what explain it.
  const symbolic = new Set([...window.buckets].filter((bucket) => bucket >= LEXICAL_BUCKETS));
  const buckets = heaviest(symbolic, new Set(), model);
  const named = createFeatureSet(true, new Set(buckets));
  if (sentence === undefined) addStringFeatures(named, field.reading, field.slot);
  else addSentenceFeatures(named, field.reading, sentence.start, sentence.end);
  // The added-text feature is the window's own, not the text's: reading the text again does not name it.
  const top = buckets.map(
    (bucket) =>
      ADDED_NAMES.get(bucket) ?? named.names?.get(bucket) ?? addedConceptName(bucket) ?? String(bucket),
  );
  const span =
    sentence === undefined
      ? { offset: 0, length: field.text.length }
      : originalSpan(normalizeText(field.text), sentence.start, sentence.end - sentence.start);
  const text = field.text.slice(span.offset, span.offset + span.length);
  return {
    patternId: 'MODEL_SCORE',
    matchedText: text.length > 80 ? `${text.slice(0, 80)}…` : text,
    offset: span.offset,
    length: span.length,
    detail: `p=${score.toFixed(3)}; top features: ${top.join(', ')}`,
    fieldPath: field.path(),
  };
}

// Explains a model verdict: the field whose features weigh most toward poisoned, and its heaviest features.
// Features of the whole tool (tool references, the key sentence's concepts) compete for the top places too.
// Names are built only for the few buckets shown: that field's features and the tool's are hashed again,
// keeping those names (a field's own name of a bucket before the tool's).
function explainModel(
  fields: readonly FieldFeatures[],
  model: LinearModel,
  score: number,
  whole: { readonly buckets: ReadonlySet<number>; name(named: ReadonlySet<number>): FeatureSet },
): ToolMatch {
  let best: FieldFeatures | undefined;
  let bestWeight = -Infinity;
  for (const field of fields) {
    let weight = 0;
    for (const bucket of field.buckets) weight += model.weight(bucket);
    if (weight > bestWeight) {
      best = field;
      bestWeight = weight;
    }
  }
  let top: string[] = [];
  if (best !== undefined) {
    const { reading, slot } = best;
    const buckets = heaviest(best.buckets, whole.buckets, model);
    const named = new Set(buckets);
    const own = createFeatureSet(true, named);
    addStringFeatures(own, reading, slot);
    // The field names every bucket of its own; the tool is read again only for a bucket the field lacks.
    const wholeNames = buckets.every((bucket) => own.names?.has(bucket) === true)
      ? undefined
      : whole.name(named).names;
    top = buckets.map((bucket) => own.names?.get(bucket) ?? wholeNames?.get(bucket) ?? String(bucket));
  }
  const text = best?.text ?? '';
  return {
    patternId: 'MODEL_SCORE',
    matchedText: text.length > 80 ? `${text.slice(0, 80)}…` : text,
    offset: 0,
    length: text.length,
    detail: `p=${score.toFixed(3)}; top features: ${top.join(', ')}`,
    fieldPath: best?.path() ?? '',
  };
}

// A step that reaches for private data, in keys that also say to send something out: the split instruction.
const HARVEST = new Set<PoisoningPatternId>([
  'SECRET_HARVEST',
  'SENSITIVE_FILE_REFERENCE',
  'CONVERSATION_CAPTURE',
  'CREDENTIAL_REQUEST',
]);
const OUTBOUND = /\b(?:send|post|upload|forward|email|mail|transmit|exfiltrate|attach|share)\b/;

// The strong findings of the schema's keys read in order that no single string already gave, and a harvest
// signal there next to an outbound verb. Not model features: the committed weights describe what they were
// trained on.
function keyFindings(reading: StringReading | undefined, strong: ToolMatch[]): void {
  if (reading === undefined) return;
  const seen = new Set(strong.map((finding) => finding.patternId));
  const outbound = OUTBOUND.test(reading.read.normalized.text);
  const found = [
    ...reading.strong,
    ...(outbound ? reading.signals.filter((s) => HARVEST.has(s.patternId)) : []),
  ];
  for (const finding of found)
    if (!seen.has(finding.patternId)) {
      seen.add(finding.patternId);
      strong.push({ ...finding, fieldPath: KEY_SENTENCE_PATH });
    }
}

// The text of the description or of a property's description, by the field path argumentSmuggling names.
function fieldText(tool: McpToolDefinition, field: string): string {
  if (field === 'description') return tool.description as string;
  const key = field.slice('inputSchema.properties.'.length, -'.description'.length);
  const properties = (tool.inputSchema as { properties: Record<string, { description: string }> }).properties;
  return properties[key]?.description ?? '';
}

// ARGUMENT_SMUGGLING: private data ordered into one of the tool's own arguments. SHADOWING_TRIGGER: sentences
// of the description that change what another tool's call does.
function triggerFindings(tool: McpToolDefinition, sentences: ForeignSentences, strong: ToolMatch[]): void {
  for (const { field, offset, length } of argumentSmuggling(tool)) {
    const text = fieldText(tool, field).slice(offset, offset + length);
    strong.push({
      patternId: 'ARGUMENT_SMUGGLING',
      matchedText: text.length > 80 ? `${text.slice(0, 80)}…` : text,
      offset,
      length,
      fieldPath: field,
    });
  }
  const description = tool.description as string;
  for (const { offset, length } of shadowingTriggers(tool, sentences)) {
    const text = description.slice(offset, offset + length);
    strong.push({
      patternId: 'SHADOWING_TRIGGER',
      matchedText: text.length > 80 ? `${text.slice(0, 80)}…` : text,
      offset,
      length,
      fieldPath: 'description',
    });
  }
}

function verdict(
  each: Visitor,
  reader: StringReader,
  model: LinearModel | undefined,
  union?: BucketUnion,
  tool?: McpToolDefinition,
  previous?: McpToolDefinition,
): ToolScanResult {
  const fields: FieldFeatures[] = [];
  union?.clear();
  const features = model === undefined ? undefined : union;
  const { strong, signals } = collect(each, reader, features, fields);
  const keys = readKeys(tool, reader);
  keyFindings(keys, strong);
  // Read once: the shadowing check and the tool's reference features walk the same sentences.
  const sentences = tool === undefined ? undefined : foreignSentences(tool);
  if (tool !== undefined && sentences !== undefined) triggerFindings(tool, sentences, strong);
  // The tool's own features are kept apart for the explanation; added in order, they leave the union (and so
  // the model's sum) exactly as if they had been added to `features` directly.
  const whole = createFeatureSet();
  if (features !== undefined && tool !== undefined) {
    addToolFeatures(whole, tool, keys?.read.normalized.text, sentences);
    for (const bucket of whole.buckets) features.add(bucket);
  }
  if (model === undefined || features === undefined) {
    if (strong.length === 0) return { clean: true, matches: [], signals };
    return { clean: false, matches: [...strong, ...signals], signals: [] };
  }
  const wholeMargin = model.margin(features.buckets);
  const before = previous === undefined || tool === undefined ? undefined : readPrevious(previous, tool);
  const best = model.windowed
    ? bestWindow(model, wholeMargin, windowsOf(fields, before))
    : { margin: wholeMargin };
  const score = sigmoid(best.margin);
  // The model may flag a tool no rule saw: gating it on a signal cost a tenth of the dev recall at equal FPR.
  const byModel = score >= model.threshold;
  if (!byModel && strong.length === 0) return { clean: true, matches: [], signals, score };
  const matches = [...strong, ...signals];
  if (byModel && best.window !== undefined) matches.push(explainWindow(best.window, model, score));
  else if (byModel) {
    const name = (named: ReadonlySet<number>): FeatureSet => {
      const set = createFeatureSet(true, named);
      if (tool !== undefined) addToolFeatures(set, tool, keys?.read.normalized.text, sentences);
      return set;
    };
    matches.push(explainModel(fields, model, score, { buckets: whole.buckets, name }));
  }
  return { clean: false, matches, signals: [], score };
}

// The schema's property names read in order (key-sentence.ts), when there is such a sentence.
function readKeys(tool: McpToolDefinition | undefined, reader: StringReader): StringReading | undefined {
  const sentence = tool === undefined ? undefined : keySentence(tool);
  return sentence === undefined ? undefined : reader.read(sentence);
}

const defaultModel = createLinearModel();

/**
 * Compiles a scanner. The entry point for throughput benchmarks too: build once, then time `scanText` on
 * large inputs (see `createAdversarialInputs`).
 */
export function createPoisoningScanner(options: PoisoningScannerOptions = {}): PoisoningScanner {
  const reader = createStringReader(otherNamesMatcher(options.otherNames));
  const model = options.model === undefined ? defaultModel : createLinearModel(options.model);
  const union = new BucketUnion();
  const cache = createScanCache<TextScanResult | ToolScanResult>(
    options.cache?.maxEntries ?? DEFAULT_SCAN_CACHE_ENTRIES,
  );
  // The digest is taken only when there is a cache to ask.
  const cached = <T extends TextScanResult>(key: () => string | undefined, scan: () => T): T => {
    const digest = cache.maxEntries === 0 ? undefined : key();
    if (digest === undefined) return scan();
    const hit = cache.get(digest);
    if (hit !== undefined) return hit as T;
    const result = freezeResult(scan());
    cache.set(digest, result);
    return result;
  };
  return {
    scanText(text) {
      if (text === null || text === undefined || text === '') return { clean: true, matches: [] };
      return cached(
        () => textDigest(text),
        () => {
          // The model learned tool definitions; a lone text (a sampling message, a result) is judged by the
          // rules, the normalization stage and the family detectors only.
          const result = verdict((visit) => visit(text, LONE_TEXT), reader, undefined);
          return {
            ...result,
            matches: result.matches.map(withoutField),
            signals: (result.signals ?? []).map(withoutField),
          };
        },
      );
    },
    scanTool(tool, scanOptions) {
      const previous = scanOptions?.previous;
      return cached(
        () => toolDigest(tool, previous),
        () => verdict((visit) => forEachVisibleString(tool, visit), reader, model, union, tool, previous),
      );
    },
  };
}

// A cached result is handed to every caller that scans the same definition: none may change it.
function freezeResult<T extends TextScanResult>(result: T): T {
  for (const match of result.matches) Object.freeze(match);
  for (const signal of result.signals ?? []) Object.freeze(signal);
  Object.freeze(result.matches);
  if (result.signals !== undefined) Object.freeze(result.signals);
  return Object.freeze(result);
}

function withoutField({ fieldPath: _path, ...match }: ToolMatch): TextMatch {
  return match;
}

/** Scans one text with every pattern; CROSS_SERVER_IMPERATIVE only when `otherNames` is non-empty. */
export function scanText(text: string | null | undefined, otherNames?: readonly string[]): TextScanResult {
  return createPoisoningScanner({ otherNames }).scanText(text);
}

/**
 * Scans every model-visible string of a tool: name, title, description, every key and string inside
 * inputSchema and outputSchema (property names, descriptions, enum values, defaults, titles), annotations.
 */
export function scanTool(
  tool: McpToolDefinition,
  otherNames?: readonly string[],
  options?: ToolScanOptions,
): ToolScanResult {
  return createPoisoningScanner({ otherNames }).scanTool(tool, options);
}

/** The model's feature vector of a tool as the scanner builds it (for scripts/train-poisoning.ts). */
export function toolFeatures(tool: McpToolDefinition, otherNames: readonly string[] = []): FeatureSet {
  return toolWindows(tool, otherNames).whole;
}

/**
 * The model's feature vector of a whole tool and of each of its windows (every string, every sentence of a
 * description), as the scanner scores them (for scripts/train-poisoning.ts).
 */
export function toolWindows(
  tool: McpToolDefinition,
  otherNames: readonly string[] = [],
  previous?: McpToolDefinition,
  twin?: McpToolDefinition,
): {
  whole: FeatureSet;
  windows: ReadonlyArray<ReadonlySet<number>>;
  /** With `twin`: per window, whether the twin holds its text (its string as written, or its sentence). */
  shared?: readonly boolean[];
} {
  const whole = createFeatureSet();
  const fields: FieldFeatures[] = [];
  const reader = createStringReader(otherNamesMatcher(otherNames));
  collect((visit) => forEachVisibleString(tool, visit), reader, whole.buckets, fields);
  addToolFeatures(whole, tool, readKeys(tool, reader)?.read.normalized.text);
  const before = previous === undefined ? undefined : readPrevious(previous, tool);
  const windows = windowsOf(fields, before);
  const buckets = windows.map((window) => window.buckets);
  if (twin === undefined) return { whole, windows: buckets };
  const other = readPrevious(twin, tool);
  const shared = windows.map(({ field, sentence, buckets: own }) => {
    // A window that an update adds is never the twin's, whatever its text.
    if (own.has(ADDED_BUCKET)) return false;
    if (sentence === undefined) return other.strings.has(field.text);
    return other.sentences.has(field.reading.read.normalized.text.slice(sentence.start, sentence.end));
  });
  return { whole, windows: buckets, shared };
}

/**
 * The regex-rule layer alone (reference rules, homoglyph words, Portcullis rules, cross-server check) on the
 * original text, in record order: what the golden fixtures pin down. The verdict adds normalization, family
 * detectors and the model on top.
 */
export function scanRules(text: string | null | undefined, otherNames?: readonly string[]): TextMatch[] {
  return scanWith(text, otherNamesMatcher(otherNames));
}
