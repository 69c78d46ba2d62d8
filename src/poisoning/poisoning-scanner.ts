// The tool poisoning scanner (reference-rules §5, D12; DESIGN decision 5): linear time on any input.
import { findMixedScriptWords } from './homoglyph.ts';
import { JAVA_SPACE as S, lowerKeepingOffsets } from '../shared/index.ts';
import { createNameMatcher } from './name-matcher.ts';
import type { NameIndex, NameMatcher } from './name-matcher.ts';
import { EXTRA_RULES, REFERENCE_REGEX_RULES } from './poisoning-patterns.ts';
import type { PoisoningPatternId, ScanRule } from './poisoning-patterns.ts';
import type { McpToolDefinition } from '../risk/index.ts';
import { forEachVisibleString } from './tool-strings.ts';

/** One hit in a text: the pattern, the text it matched, and its UTF-16 offset. */
export interface TextMatch {
  readonly patternId: PoisoningPatternId;
  readonly matchedText: string;
  readonly offset: number;
}

/** One hit in a tool definition: a TextMatch plus the field it was found in. */
export interface ToolMatch extends TextMatch {
  readonly fieldPath: string;
}

/** The scan of one text; `clean` means no match at all. */
export interface TextScanResult {
  readonly clean: boolean;
  readonly matches: readonly TextMatch[];
}

/** The scan of every model-visible string of a tool; `clean` means no match at all. */
export interface ToolScanResult {
  readonly clean: boolean;
  readonly matches: readonly ToolMatch[];
}

/** A scanner compiled once (names of the other exposed tools included) and run many times. */
export interface PoisoningScanner {
  scanText(text: string | null | undefined): TextScanResult;
  scanTool(tool: McpToolDefinition): ToolScanResult;
}

/** Scanner options. */
export interface PoisoningScannerOptions {
  /**
   * Names of the *other* exposed tools (not this tool's own). When non-empty, CROSS_SERVER_IMPERATIVE runs:
   * a command verb followed, within 80 characters, by one of these names.
   */
  readonly otherNames?: readonly string[] | undefined;
}

/** How far after a command verb the cross-server check looks for another tool's name. */
export const CROSS_SERVER_WINDOW = 80;
const CROSS_SERVER_EXCERPT = 60;
const COMMAND_VERB = new RegExp(
  `\\b(?:use|call|invoke|run|then${S}+(?:use|call|invoke)|first${S}+(?:call|use))${S}+`,
  'g',
);

function runRule(rule: ScanRule, text: string, out: TextMatch[]): void {
  rule.collect(text, (matchedText, offset) => out.push({ patternId: rule.id, matchedText, offset }));
}

function crossServer(text: string, names: NameMatcher, out: TextMatch[]): void {
  const lowered = lowerKeepingOffsets(text);
  // Indexed once, on the first verb: the windows of repeated verbs overlap, and each asks in O(1).
  let found: NameIndex | undefined;
  COMMAND_VERB.lastIndex = 0;
  for (let match = COMMAND_VERB.exec(lowered); match !== null; match = COMMAND_VERB.exec(lowered)) {
    const windowStart = match.index + match[0].length;
    const windowEnd = Math.min(lowered.length, windowStart + CROSS_SERVER_WINDOW);
    found ??= names.index(lowered);
    if (found.containsAny(windowStart, windowEnd)) {
      out.push({
        patternId: 'CROSS_SERVER_IMPERATIVE',
        matchedText: text.slice(match.index, match.index + CROSS_SERVER_EXCERPT),
        offset: match.index,
      });
    }
  }
}

function scanWith(text: string | null | undefined, names: NameMatcher): TextMatch[] {
  const matches: TextMatch[] = [];
  if (text === null || text === undefined || text === '') return matches;
  // Record order: reference regex rules, homoglyph words, Portcullis rules, cross-server last.
  for (const rule of REFERENCE_REGEX_RULES) runRule(rule, text, matches);
  for (const word of findMixedScriptWords(text))
    matches.push({ patternId: 'UNICODE_HOMOGLYPH_RISK', ...word });
  for (const rule of EXTRA_RULES) runRule(rule, text, matches);
  if (names.size > 0) crossServer(text, names, matches);
  return matches;
}

/**
 * Compiles a scanner. The entry point for throughput benchmarks too: build once, then time `scanText` on
 * large inputs (see `createAdversarialInputs`).
 */
export function createPoisoningScanner(options: PoisoningScannerOptions = {}): PoisoningScanner {
  const names = createNameMatcher(
    (options.otherNames ?? []).filter((name) => name.trim() !== '').map((name) => lowerKeepingOffsets(name)),
  );
  return {
    scanText(text) {
      const matches = scanWith(text, names);
      return { clean: matches.length === 0, matches };
    },
    scanTool(tool) {
      const matches: ToolMatch[] = [];
      forEachVisibleString(tool, (text, path) => {
        const found = scanWith(text, names);
        if (found.length === 0) return;
        const fieldPath = path();
        for (const match of found) matches.push({ ...match, fieldPath });
      });
      return { clean: matches.length === 0, matches };
    },
  };
}

/** Scans one text with every pattern; CROSS_SERVER_IMPERATIVE only when `otherNames` is non-empty. */
export function scanText(text: string | null | undefined, otherNames?: readonly string[]): TextScanResult {
  return createPoisoningScanner({ otherNames }).scanText(text);
}

/**
 * Scans every model-visible string of a tool: name, title, description, every key and string inside
 * inputSchema and outputSchema (property names, descriptions, enum values, defaults, titles), annotations.
 */
export function scanTool(tool: McpToolDefinition, otherNames?: readonly string[]): ToolScanResult {
  return createPoisoningScanner({ otherNames }).scanTool(tool);
}
