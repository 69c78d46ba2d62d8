/**
 * The text a model will read in one answer (docs/rules/poisoning.md#r-poison-response-response-injection): a
 * tool result's text blocks, embedded resource texts, resource links' names, titles and descriptions, and every
 * key and string of its structured content; a `prompts/get` result's description and message texts (resource
 * links included); a `resources/read` result's text contents; the
 * elicitation messages of an upstream's relayed `input_required` round (what the client shows its user). Image,
 * audio and blob data are not text and are skipped. Gathered in one iterative pass that stops at a character
 * and a value budget (the answer comes from an upstream, which may nest deeply or list without end): what lies
 * beyond is reported as not scanned, never dropped in silence.
 */
import { isRecord } from '../shared/index.ts';

/** Which answer the texts come from; `input-request` is a relayed upstream round the client will show. */
export type ResponseKind = 'tool-result' | 'prompt' | 'resource' | 'input-request';

/** The most characters of one answer that are scanned (30 to 70 ms of scanning, measured on a loaded 2-core machine). */
export const MAX_RESPONSE_SCAN_CHARS = 262_144;

/** The most values (objects, arrays, strings, other) of one answer that are visited. */
export const MAX_RESPONSE_SCAN_VALUES = 100_000;

/** The fields of a `resource_link` block a client shows the model beside the link. */
const LINK_TEXT_FIELDS = ['name', 'title', 'description'] as const;

/** Between two texts, so that a match never joins the end of one text with the start of the next. */
const SEPARATOR = '\n\n';

/** A path segment longer than this is cut (an upstream chooses its keys). */
const MAX_SEGMENT_CHARS = 64;

/** One text inside the gathered document: where it starts there, and where it sits in the answer. */
export interface ResponseSegment {
  readonly start: number;
  readonly length: number;
  /** The text's place in the answer, as a slash path (`content/0/text`, `structuredContent/forecast/note`). */
  path(): string;
}

/** Why not all of an answer was scanned. */
export type UnscannedReason = 'char-cap' | 'value-cap';

/** The texts of one answer, joined into one document for a single scan. */
export interface ResponseTexts {
  readonly kind: ResponseKind;
  readonly document: string;
  /** In document order: a scan offset maps back to its text by a binary search. */
  readonly segments: readonly ResponseSegment[];
  /** Set when the walk stopped early: the rest of the answer was not scanned. */
  readonly unscanned?: UnscannedReason;
}

/** The limits of one gathering (the defaults above unless a test says otherwise). */
export interface GatherLimits {
  readonly maxChars: number;
  readonly maxValues: number;
}

const DEFAULT_LIMITS: GatherLimits = {
  maxChars: MAX_RESPONSE_SCAN_CHARS,
  maxValues: MAX_RESPONSE_SCAN_VALUES,
};

// A node of the walk: its parent's index in the node table and its own key, so a path is built only for a text
// that has a finding.
interface PathNode {
  readonly parent: number;
  readonly key: string;
}

/** Gathers the model-readable texts of `answer` in one bounded pass. */
export function gatherResponseTexts(
  kind: ResponseKind,
  answer: unknown,
  limits: GatherLimits = DEFAULT_LIMITS,
): ResponseTexts {
  const nodes: PathNode[] = [];
  const segments: ResponseSegment[] = [];
  const parts: string[] = [];
  let length = 0;
  let values = 0;
  let unscanned: UnscannedReason | undefined;

  const pathOf = (index: number): string => {
    const keys: string[] = [];
    for (let at = index; at >= 0; at = (nodes[at] as PathNode).parent) keys.push((nodes[at] as PathNode).key);
    return keys.reverse().join('/');
  };
  const child = (parent: number, key: string | number): number => {
    const text = String(key);
    nodes.push({
      parent,
      key: text.length > MAX_SEGMENT_CHARS ? `${text.slice(0, MAX_SEGMENT_CHARS)}…` : text,
    });
    return nodes.length - 1;
  };
  // Adds one text; false once a budget is spent (the walk then stops).
  const add = (text: string, node: number): boolean => {
    if (unscanned !== undefined) return false;
    values += 1;
    if (values > limits.maxValues) {
      unscanned = 'value-cap';
      return false;
    }
    if (text === '') return true;
    const start = length === 0 ? 0 : length + SEPARATOR.length;
    const room = limits.maxChars - start;
    if (room <= 0) {
      unscanned = 'char-cap';
      return false;
    }
    let kept = text.length > room ? text.slice(0, room) : text;
    // A cut between the halves of a surrogate pair would leave a lone half: keep it whole or not at all.
    const last = kept.charCodeAt(kept.length - 1);
    if (kept.length < text.length && last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
    if (length > 0) parts.push(SEPARATOR);
    parts.push(kept);
    segments.push({ start, length: kept.length, path: () => pathOf(node) });
    length = start + kept.length;
    if (kept.length < text.length) {
      unscanned = 'char-cap';
      return false;
    }
    return true;
  };
  // Every key and string of a JSON value, depth first, with an explicit stack (no recursion over upstream data).
  const walk = (root: unknown, rootNode: number): boolean => {
    const stack: { value: unknown; node: number }[] = [{ value: root, node: rootNode }];
    while (stack.length > 0) {
      const { value, node } = stack.pop() as { value: unknown; node: number };
      if (typeof value === 'string') {
        if (!add(value, node)) return false;
        continue;
      }
      values += 1;
      if (values > limits.maxValues) {
        unscanned = 'value-cap';
        return false;
      }
      if (value === null || typeof value !== 'object') continue;
      const room = limits.maxValues - values - stack.length;
      const names = Array.isArray(value) ? undefined : keysWithin(value as Record<string, unknown>, room);
      // An object or list that would not fit in the value budget is not opened at all.
      if (names === null || (names === undefined && (value as unknown[]).length > room)) {
        unscanned = 'value-cap';
        return false;
      }
      const items = names === undefined ? (value as unknown[]) : undefined;
      const record = value as Record<string, unknown>;
      const size = names === undefined ? (items as unknown[]).length : names.length;
      const first = stack.length;
      // Pushed in reverse so that they are taken in order.
      for (let i = size - 1; i >= 0; i -= 1) {
        const key = names === undefined ? i : (names[i] as string);
        stack.push({ value: items === undefined ? record[key] : items[i], node: child(node, key) });
      }
      // Keys are read by the model too; each comes into the document before the values below it.
      if (names !== undefined)
        for (let i = stack.length - 1; i >= first; i -= 1) {
          const entry = stack[i] as { node: number };
          if (!add(names[stack.length - 1 - i] as string, child(entry.node, '(key)'))) return false;
        }
    }
    return true;
  };
  const block = (value: unknown, node: number): boolean => {
    if (!isRecord(value)) return true;
    if (value['type'] === 'text' && typeof value['text'] === 'string')
      return add(value['text'], child(node, 'text'));
    if (value['type'] === 'resource' && isRecord(value['resource'])) {
      const text = value['resource']['text'];
      if (typeof text === 'string') return add(text, child(child(node, 'resource'), 'text'));
    }
    if (value['type'] === 'resource_link') {
      for (const field of LINK_TEXT_FIELDS) {
        const text = value[field];
        if (typeof text === 'string' && !add(text, child(node, field))) return false;
      }
    }
    return true;
  };
  const list = (value: unknown, name: string, each: (item: unknown, node: number) => boolean): void => {
    if (!Array.isArray(value)) return;
    const root = child(-1, name);
    for (let i = 0; i < value.length; i += 1) {
      // Every item counts against the value budget, texts or not (a list of a million images ends here too).
      values += 1;
      if (values > limits.maxValues) {
        unscanned = 'value-cap';
        return;
      }
      if (!each(value[i], child(root, i))) return;
    }
  };

  if (isRecord(answer)) {
    if (kind === 'tool-result') {
      list(answer['content'], 'content', block);
      if (unscanned === undefined && answer['structuredContent'] !== undefined)
        walk(answer['structuredContent'], child(-1, 'structuredContent'));
    } else if (kind === 'prompt') {
      if (typeof answer['description'] === 'string') add(answer['description'], child(-1, 'description'));
      list(answer['messages'], 'messages', (message, node) => {
        if (!isRecord(message)) return true;
        const content = message['content'];
        if (!Array.isArray(content)) return block(content, child(node, 'content'));
        const root = child(node, 'content');
        for (let j = 0; j < content.length; j += 1) if (!block(content[j], child(root, j))) return false;
        return true;
      });
    } else if (kind === 'input-request') {
      // At most 16 requests (calls/upstream-results.ts): each elicitation's message is what the client shows.
      const requests = answer['inputRequests'];
      const root = child(-1, 'inputRequests');
      if (isRecord(requests))
        for (const [key, request] of Object.entries(requests)) {
          const params = isRecord(request) ? request['params'] : undefined;
          if (isRecord(params) && typeof params['message'] === 'string')
            if (!add(params['message'], child(child(child(root, key), 'params'), 'message'))) break;
        }
    } else {
      list(answer['contents'], 'contents', (item, node) =>
        isRecord(item) && typeof item['text'] === 'string' ? add(item['text'], child(node, 'text')) : true,
      );
    }
  }
  return { kind, document: parts.join(''), segments, ...(unscanned === undefined ? {} : { unscanned }) };
}

/** The segment that holds `offset` of the document, or undefined (an offset in a separator belongs to none). */
export function segmentAt(texts: ResponseTexts, offset: number): ResponseSegment | undefined {
  let low = 0;
  let high = texts.segments.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const segment = texts.segments[middle] as ResponseSegment;
    if (offset < segment.start) high = middle - 1;
    else if (offset >= segment.start + segment.length) low = middle + 1;
    else return segment;
  }
  return undefined;
}

/** The own keys of `value` when there are at most `room` of them, else null: never lists more than room + 1. */
function keysWithin(value: Record<string, unknown>, room: number): string[] | null {
  const keys: string[] = [];
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (keys.length >= room) return null;
    keys.push(key);
  }
  return keys;
}
