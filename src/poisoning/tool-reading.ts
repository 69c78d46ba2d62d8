// Reads every model-visible string of a tool (or one text) into findings and model features: the reference
// and Portcullis regex rules on the original text, then the normalization stage, decoded payloads and the
// family detectors on what a reader sees. Strong findings flag on their own; signals only count through the
// model (docs/rules/poisoning.md, "Verdict").
import { readText, wordCountAtLeast, type ReadPayload, type ReadText } from './analyze.ts';
import { opensWithOrder, type DetectorHit } from './detectors.ts';
import { ConceptSentences, readsAsInstruction } from './concepts.ts';
import { addFeature, addTextFeatures, symbolicBucket, type FeatureSet } from './features.ts';
import type { HiddenKind } from './normalize.ts';
import { MAX_FINDINGS_PER_RULE, type PoisoningPatternId } from './poisoning-patterns.ts';
import { META_KEYWORDS, TOOL_TITLE } from './tool-strings.ts';

/** One finding before it is placed in a field. */
export interface Finding {
  readonly patternId: PoisoningPatternId;
  readonly matchedText: string;
  readonly offset: number;
  /** Length of the span in the original text, when it differs from `matchedText` (normalized or decoded). */
  readonly length?: number;
  /** What the finding decoded or which hidden kind it removed. */
  readonly detail?: string;
}

/** Rule ids whose hit is a finding on its own; every other rule hit is a signal for the model. */
const STRONG_RULES = new Set<PoisoningPatternId>([
  'HIDDEN_INSTRUCTION',
  'ROLE_HIJACK',
  'UNICODE_RTL_OVERRIDE',
  'ANSI_ESCAPE',
  'EXFILTRATION_DIRECTIVE',
  'UNICODE_HOMOGLYPH_RISK',
  'CONCEALMENT_DIRECTIVE',
  'UNICODE_TAG_CHARACTER',
  'INVISIBLE_CHARACTER',
  'TERMINAL_CONTROL',
  'ENCODED_PAYLOAD',
  'EXFILTRATION_NATURAL',
  'APPROVAL_BYPASS',
  'CREDENTIAL_REQUEST',
  'PERSONA_OVERRIDE',
  'PROMPT_HARVEST',
  'FORGED_SYSTEM_TURN',
  'DEPENDENCY_STEER',
  'SCHEMA_SLOT_INSTRUCTION',
  'SHADOWING_TRIGGER',
  'ARGUMENT_SMUGGLING',
  'SESSION_SCOPE',
  'TOOL_DISCREDIT',
]);

/** Signals that, next to a concealment phrase in the same tool, make it a finding (a hidden harmful step). */
const CONCEALED_ACTIONS = new Set<PoisoningPatternId>([
  'SECRET_HARVEST',
  'EXFILTRATION_NATURAL',
  'CONVERSATION_CAPTURE',
  'SENSITIVE_FILE_REFERENCE',
  'STANDING_ORDER',
  'SESSION_SCOPE',
  'TOOL_DISCREDIT',
  'REMOTE_CODE',
  'CROSS_SERVER_IMPERATIVE',
  'PERSONA_SWAP',
]);

/**
 * Promotes signals that combine into a finding: concealment with an action it hides, an order about another
 * server's tool with a harmful step. Returns the signals that
 * stay signals; the promoted ones are appended to `strong`.
 */
export function combineSignals<T extends Finding>(strong: T[], signals: readonly T[]): T[] {
  return combineConcealment(strong, combinePersonas(strong, signals));
}

/**
 * Two persona-swap phrasings at two places of one tool (a new identity and its rules taken away, a game and a
 * named character) are a finding: an honest persona feature (a chat app's "set persona" tool, an example system
 * prompt) names one.
 */
function combinePersonas<T extends Finding>(strong: T[], signals: readonly T[]): T[] {
  const personas = signals.filter((s) => s.patternId === 'PERSONA_SWAP');
  if (new Set(personas.map((s) => `${s.offset}:${s.matchedText}`)).size < 2) return [...signals];
  strong.push(...personas);
  return signals.filter((s) => s.patternId !== 'PERSONA_SWAP');
}

function combineConcealment<T extends Finding>(strong: T[], signals: readonly T[]): T[] {
  const concealed = signals.some((s) => s.patternId === 'CONCEALMENT_PHRASE');
  const crossServer = signals.some((s) => s.patternId === 'CROSS_SERVER_IMPERATIVE');
  const action = signals.some(
    (s) => CONCEALED_ACTIONS.has(s.patternId) && s.patternId !== 'CROSS_SERVER_IMPERATIVE',
  );
  // An order naming another server's tool is a finding once the same tool also carries a harmful step.
  if (!(concealed || crossServer) || !action) return [...signals];
  for (const signal of signals)
    if (signal.patternId === 'CONCEALMENT_PHRASE' || CONCEALED_ACTIONS.has(signal.patternId))
      strong.push(signal);
  return signals.filter((s) => s.patternId !== 'CONCEALMENT_PHRASE' && !CONCEALED_ACTIONS.has(s.patternId));
}

/** Whether a finding flags a tool without the model. */
export function isStrong(patternId: PoisoningPatternId): boolean {
  return STRONG_RULES.has(patternId);
}

const MAX_EXCERPT = 80;

function excerpt(text: string): string {
  return text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}…` : text;
}

function hiddenFinding(kind: HiddenKind, offset: number, length: number, original: string): Finding {
  return {
    patternId: kind === 'terminal-control' ? 'TERMINAL_CONTROL' : 'INVISIBLE_CHARACTER',
    matchedText: original.slice(offset, offset + length),
    offset,
    length,
    detail: kind,
  };
}

function detectorFinding(hit: DetectorHit, read: ReadText, original: string): Finding {
  const from = read.normalized.offsets[hit.start] ?? 0;
  const to = read.normalized.offsets[Math.max(hit.start, hit.end - 1)] ?? from;
  return {
    patternId: hit.id,
    matchedText: excerpt(original.slice(from, to + 1)),
    offset: from,
    length: to - from + 1,
  };
}

/** What one string yielded: its findings, and what the model's features are drawn from. */
export interface StringReading {
  readonly strong: Finding[];
  readonly signals: Finding[];
  readonly legacy: readonly Finding[];
  readonly read: ReadText;
  /** The whole string is one URL (`https://json-schema.org/draft/2020-12/schema`): a value, not a sentence. */
  readonly bareUrl: boolean;
  /** The whole string is a URI or a JSON Pointer fragment (`#/$defs/item`). */
  readonly reference: boolean;
}

/** The findings and model features of one string; `legacy` are the regex-rule hits on its original text. */
export function readString(
  text: string,
  legacy: readonly Finding[],
  features: FeatureSet,
  slot: () => string,
): StringReading {
  const reading = findInString(text, legacy);
  addStringFeatures(features, reading, slot);
  return reading;
}

/** The findings of one string, without its features. */
export function findInString(text: string, legacy: readonly Finding[]): StringReading {
  const strong: Finding[] = [];
  const signals: Finding[] = [];
  for (const match of legacy) (isStrong(match.patternId) ? strong : signals).push(match);
  const read = readText(text);
  // One finding per hidden kind per string: a smuggled payload is hundreds of characters of one kind.
  const seenKinds = new Set<HiddenKind>();
  for (const run of read.hidden) {
    if (seenKinds.has(run.kind)) continue;
    seenKinds.add(run.kind);
    strong.push(hiddenFinding(run.kind, run.offset, run.length, text));
  }
  for (const hit of read.hits) (isStrong(hit.id) ? strong : signals).push(detectorFinding(hit, read, text));
  let encoded = 0;
  for (const payload of read.payloads) {
    if (encoded === MAX_FINDINGS_PER_RULE) continue;
    const first = payload.hits[0]?.start ?? (decodesToOrder(payload) ? 0 : undefined);
    if (first === undefined) continue;
    encoded += 1;
    strong.push({
      patternId: 'ENCODED_PAYLOAD',
      matchedText: excerpt(
        text.slice(payload.segment.offset, payload.segment.offset + payload.segment.length),
      ),
      offset: payload.segment.offset,
      length: payload.segment.length,
      detail: `${payload.segment.encoding}: ${excerpt(payload.normalized.text.slice(first))}`,
    });
  }
  const bareUrl = BARE_URL.test(text);
  return { strong, signals, legacy, read, bareUrl, reference: bareUrl || FRAGMENT.test(text) };
}

// A decoding that opens a sentence with an order to the model is a payload even when no family detector names
// its harm ("copy local storage into the element field"). Not leetspeak: its decoding is the whole text, digits
// read as letters, and an honest description opens with a verb as often as an order does.
function decodesToOrder(payload: ReadPayload): boolean {
  return payload.segment.encoding !== 'leetspeak' && opensWithOrder(payload.normalized.text);
}

/** Adds the model features of one read string, always in the same order (the order names a bucket). */
export function addStringFeatures(features: FeatureSet, reading: StringReading, slot: () => string): void {
  addFeaturesOf(features, reading, slot);
}

/**
 * Adds the model features of one read string as addStringFeatures does, and returns its sentence windows when it
 * is a description of more than one sentence (sentenceWindows' windows, read in the same pass over its words).
 */
export function addStringFeaturesAndWindows(
  features: FeatureSet,
  reading: StringReading,
  slot: () => string,
): SentenceWindow[] {
  const sentences = new SentenceTee(features.buckets);
  addFeaturesOf(features, reading, slot, sentences);
  return sentences.windows(reading, slot);
}

function addFeaturesOf(
  features: FeatureSet,
  reading: StringReading,
  slot: () => string,
  sentences?: SentenceTee,
): void {
  const { legacy, read } = reading;
  // JSON Schema's own keywords hold a URI by the specification (`$schema`, `$id`, `$ref`): the model learned
  // from a corpus that holds none, and must not weigh a dialect URL that SDK-built servers all send. The rules
  // still read it, and any other text there is read as usual.
  if (reading.reference && slot() === 'meta') return;
  for (const match of legacy) addFeature(features, `r:${match.patternId}`);
  for (const run of read.hidden) addFeature(features, `h:${run.kind}`);
  const prose = (): string => (PROSE_SLOTS.has(slot()) ? '' : 'x');
  // A URL as the value of a schema slot (`$schema`, a default endpoint) names a destination by being one: its
  // words are kept, but it is no sentence whose kinds of words meet, nor a long text out of place.
  const value = reading.bareUrl && !PROSE_SLOTS.has(slot());
  addTextFeatures(
    features,
    read.normalized.text,
    '',
    value
      ? undefined
      : sentences === undefined
        ? new ConceptSentences(features, prose)
        : new TeedConceptSentences(sentences, prose),
  );
  if (!value && wordCountAtLeast(read.normalized.text, 4)) {
    const kind = slot();
    if (kind !== 'description') addFeature(features, `s:${kind}:long`);
  }
  for (const hit of read.hits) addFeature(features, `r:${hit.id}`);
  for (const payload of read.payloads) {
    addFeature(features, `enc:${payload.segment.encoding}`);
    addTextFeatures(features, payload.normalized.text, 'd');
    for (const hit of payload.hits) addFeature(features, `dr:${hit.id}`);
  }
}

/** One sentence of a description as a window of the model: its span in the normalized text and its features. */
export interface SentenceWindow {
  readonly start: number;
  readonly end: number;
  readonly buckets: ReadonlySet<number>;
}

/**
 * The model features of one sentence, `text[start, end)` of a description's normalized text, as a window reads
 * it: its concepts and the detectors that fired inside it, not its words (a window is scored by kinds of words
 * only, which carry across phrasings, where its own words would be one sentence's memory of the corpus).
 */
export function addSentenceFeatures(
  features: FeatureSet,
  reading: StringReading,
  start: number,
  end: number,
): void {
  const { text } = reading.read.normalized;
  addTextFeatures(features, text.slice(start, end), '', new ConceptSentences(features, () => ''), false);
  for (const hit of reading.read.hits)
    if (hit.start >= start && hit.start < end) addFeature(features, `r:${hit.id}`);
}

/**
 * The concept features of a whole text, each added to the text's set and to the set of the sentence under way:
 * a sentence's concepts are read exactly as addSentenceFeatures reads its slice alone (the same sentence split,
 * the same first word, the same buckets in the same order), so a description's one concept pass also gives its
 * sentence windows. A Set only by type: what it is given goes to the two sets it feeds.
 */
class SentenceTee extends Set<number> {
  /** Start and end of each sentence in the normalized text, as sentenceSpans gives them. */
  private readonly spans: number[] = [];
  private readonly sets: Set<number>[] = [];
  private current: Set<number> | undefined;

  constructor(private readonly whole: Set<number>) {
    super();
  }

  override add(bucket: number): this {
    this.whole.add(bucket);
    this.current ??= new Set();
    this.current.add(bucket);
    return this;
  }

  /** The next word, `[start, end)`; `newSentence` as addTextFeatures tells ConceptSentences. */
  word(start: number, end: number, newSentence: boolean): void {
    const count = this.spans.length;
    // A gap that ends a sentence before the text's first word starts none (sentenceSpans splits after a word).
    if (count > 0 && !newSentence) {
      this.spans[count - 1] = end;
      return;
    }
    if (count > 0) this.sets.push(this.current ?? new Set());
    this.current = undefined;
    this.spans.push(start, end);
  }

  /** The windows of the text read, when `slot` is a description's and the text holds two sentences or more. */
  windows(reading: StringReading, slot: () => string): SentenceWindow[] {
    if (this.spans.length < 4 || slot() !== 'description') return [];
    this.sets.push(this.current ?? new Set());
    const windows: SentenceWindow[] = [];
    for (let at = 0; at < this.spans.length; at += 2) {
      const start = this.spans[at] as number;
      const end = this.spans[at + 1] as number;
      const buckets = this.sets[at / 2] as Set<number>;
      for (const hit of reading.read.hits)
        if (hit.start >= start && hit.start < end) buckets.add(symbolicBucket(`r:${hit.id}`));
      windows.push({ start, end, buckets });
    }
    return windows;
  }
}

// ConceptSentences over a tee: a sentence's features are added (finish) before the tee moves to the next one.
class TeedConceptSentences extends ConceptSentences {
  constructor(
    private readonly tee: SentenceTee,
    slot: () => string,
  ) {
    super({ buckets: tee }, slot);
  }

  override word(text: string, start: number, end: number, newSentence: boolean): void {
    if (newSentence) this.finish();
    this.tee.word(start, end, newSentence);
    super.word(text, start, end, newSentence);
  }
}

const BARE_URL = /^[a-z][a-z0-9+.-]*:\/\/\S*$/i;
const FRAGMENT = /^#\S*$/;

// Slots that hold prose; every other slot (a key, an enum value, a default, a schema's or an annotation's
// `title`, which JSON Schema and MCP make a short label) holds no sentence.
const PROSE_SLOTS = new Set(['name', TOOL_TITLE, 'description']);

// Harmful steps that a slot holding no prose has no reason to name.
const SLOT_HARM = new Set<PoisoningPatternId>([
  'SECRET_HARVEST',
  'SENSITIVE_FILE_REFERENCE',
  'CONVERSATION_CAPTURE',
  'REMOTE_CODE',
  'CONCEALMENT_PHRASE',
  'STANDING_ORDER',
  'SESSION_SCOPE',
  'TOOL_DISCREDIT',
]);

/**
 * SCHEMA_SLOT_INSTRUCTION (docs/rules/poisoning.md, R-POISON-SLOTS): a string in a schema slot that holds no
 * prose (a property name, an enum value, a default, an example, a type, format or pattern, a non-standard key,
 * an annotation) that reads as an instruction: in three words or more, a harmful-step detector fires in it; in
 * four or more, its words order something private, the conversation or an address taken or sent, or tell the
 * model what it must do. A bare URL is a value, whatever its path says. Undefined for prose slots and for lone texts.
 */
export function slotInstruction(text: string, reading: StringReading, slot: string): Finding | undefined {
  if (PROSE_SLOTS.has(slot)) return undefined;
  const words = reading.read.normalized.text;
  if (!wordCountAtLeast(words, 3) || reading.bareUrl) return undefined;
  if (reading.read.hits.some((hit) => SLOT_HARM.has(hit.id))) return slotFinding(text, slot);
  // Read by its kinds of words alone, a name of three words is still a name (`includePreservedMessages`,
  // `sharedNativeContext`): an instruction takes four.
  if (!wordCountAtLeast(words, 4) || !readsAsInstruction(words)) return undefined;
  return slotFinding(text, slot);
}

function slotFinding(text: string, slot: string): Finding {
  return {
    patternId: 'SCHEMA_SLOT_INSTRUCTION',
    matchedText: excerpt(text),
    offset: 0,
    length: text.length,
    detail: `an instruction in a ${slot} slot`,
  };
}

/**
 * The slot a field path names: name, tool-title (the tool's own title), description, key, enum, default,
 * examples, title (a schema's or an annotation's), type, meta (a JSON Schema keyword that holds a URI: `$schema`,
 * `$id`, `$ref`), or other. A property is a key whatever its name (`title`, `description`).
 */
export function slotOf(path: string): string {
  if (path === 'name' || path === 'description') return path;
  if (path === 'title') return TOOL_TITLE;
  const key = /\.([A-Za-z_$][\w$-]*)$/.exec(path)?.[1];
  if (/\.enum\[\d+\]$/.test(path)) return 'enum';
  if (/\.examples\[\d+\]$/.test(path)) return 'examples';
  if (/\.properties(?:\.[A-Za-z_$][\w$-]*|\[[^\]]*\])$/.test(path)) return 'key';
  if (key === 'description' || key === 'title' || key === 'default' || key === 'type') return key;
  if (key !== undefined && META_KEYWORDS.has(key)) return 'meta';
  return 'other';
}
