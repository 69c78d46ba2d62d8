// The regex rules of the poisoning scanner (docs/rules/poisoning.md).
// Every pattern is written for linear-time matching: no `u` flag (Java's `(?i)` folds ASCII only), `\s` spelled
// as Java's ASCII class, and every quantified run followed by something it cannot also match, so a failed
// attempt re-reads at most the run that starts at its own position (bounded `{0,200}` where that is not so).
import { JAVA_SPACE as S } from '../shared/index.ts';
import type { FamilyDetectorId } from './detectors.ts';

/** The nine reference patterns, in the reference's record order. */
export const REFERENCE_PATTERN_IDS = [
  'HIDDEN_INSTRUCTION',
  'SYSTEM_PROMPT_OVERRIDE',
  'ROLE_HIJACK',
  'UNICODE_ZERO_WIDTH',
  'UNICODE_RTL_OVERRIDE',
  'ANSI_ESCAPE',
  'EXFILTRATION_DIRECTIVE',
  'UNICODE_HOMOGLYPH_RISK',
  'CROSS_SERVER_IMPERATIVE',
] as const;

/** Portcullis' own patterns, each under its own id (R-POISON-10 to R-POISON-13). */
export const EXTRA_PATTERN_IDS = [
  'CONCEALMENT_DIRECTIVE',
  'SENSITIVE_FILE_REFERENCE',
  'UNICODE_TAG_CHARACTER',
  'PSEUDO_TAG',
] as const;

/** Findings of the normalization stage, of decoded payloads, of schema slots, and of the linear model. */
export const NORMALIZATION_PATTERN_IDS = [
  'INVISIBLE_CHARACTER',
  'TERMINAL_CONTROL',
  'ENCODED_PAYLOAD',
  'SCHEMA_SLOT_INSTRUCTION',
  'SHADOWING_TRIGGER',
  'ARGUMENT_SMUGGLING',
  'MODEL_SCORE',
] as const;

/** The id of a poisoning pattern. */
export type PoisoningPatternId =
  | (typeof REFERENCE_PATTERN_IDS)[number]
  | (typeof EXTRA_PATTERN_IDS)[number]
  | (typeof NORMALIZATION_PATTERN_IDS)[number]
  | FamilyDetectorId;

/** One hit of a rule in a text. */
export interface RuleHit {
  readonly patternId: PoisoningPatternId;
  readonly matchedText: string;
  readonly offset: number;
  /** The span's length when `matchedText` is an excerpt of it (a run of invisible characters). */
  readonly length?: number;
  /** What a run holds: its length and a count per character. */
  readonly detail?: string;
}

/** What a rule's prefilter reads: the text in lower case, and whether it is printable ASCII or whitespace. */
export interface RuleView {
  readonly lower: string;
  readonly ascii: boolean;
}

/** A scan rule: reports every hit in a text, in text order. */
export interface ScanRule {
  readonly id: PoisoningPatternId;
  /** A necessary condition, far cheaper than the rule: false means the rule cannot match this text. */
  mayMatch(view: RuleView): boolean;
  collect(text: string, out: RuleHit[]): void;
}

const PRINTABLE_OR_SPACE = /^[\t\n\r\x20-\x7e]*$/;

/** The view every prefilter reads, built once per text. */
export function ruleView(text: string): RuleView {
  return { lower: text.toLowerCase(), ascii: PRINTABLE_OR_SPACE.test(text) };
}

/**
 * A prefilter: the rule needs one of these literals (lower case) in the lower-cased text, or any character
 * outside printable ASCII. Sound because without the `u` flag `i` folds no other character onto an ASCII
 * letter, and lower-casing never turns an ASCII character into another.
 */
function needs(literals: readonly string[]): (view: RuleView) => boolean {
  return (view) => !view.ascii || literals.some((literal) => view.lower.includes(literal));
}

function needsNonAscii(view: RuleView): boolean {
  return !view.ascii;
}

/**
 * The most hits one rule reports in one string (docs/rules/poisoning.md, "Bounded findings"): one hit proves
 * the rule fired, a few show where; a flood of repeats adds records, never evidence.
 */
export const MAX_FINDINGS_PER_RULE = 16;

/** A rule whose every regex match (find-all) is one hit; the pattern has the `g` flag and never matches empty. */
function rule(
  id: PoisoningPatternId,
  source: string,
  flags: 'g' | 'gi',
  mayMatch: (view: RuleView) => boolean,
): ScanRule {
  const pattern = new RegExp(source, flags);
  return {
    id,
    mayMatch,
    collect(text, out) {
      pattern.lastIndex = 0;
      let found = 0;
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
        out.push({ patternId: id, matchedText: match[0], offset: match.index });
        found += 1;
        if (found === MAX_FINDINGS_PER_RULE) break;
      }
    },
  };
}

const MAX_RUN_EXCERPT = 80;

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * A rule over single invisible UTF-16 units (`members`, in code order): one hit per run of adjacent members.
 * A run of one is reported as the character itself; a longer run as an excerpt, its length, and a count per
 * character ("5 characters: U+200B ×3, U+FEFF ×2").
 */
function runRule(id: PoisoningPatternId, members: readonly number[]): ScanRule {
  const isMember = new Set(members);
  return {
    id,
    mayMatch: needsNonAscii,
    collect(text, out) {
      let found = 0;
      for (let i = 0; i < text.length && found < MAX_FINDINGS_PER_RULE; i += 1) {
        if (!isMember.has(text.charCodeAt(i))) continue;
        const start = i;
        const counts = new Map<number, number>();
        for (; i < text.length && isMember.has(text.charCodeAt(i)); i += 1)
          counts.set(text.charCodeAt(i), (counts.get(text.charCodeAt(i)) ?? 0) + 1);
        found += 1;
        const length = i - start;
        if (length === 1) {
          out.push({ patternId: id, matchedText: text.charAt(start), offset: start });
          continue;
        }
        const kinds = members.flatMap((code) => {
          const count = counts.get(code);
          return count === undefined ? [] : [`${hex(code)} ×${count}`];
        });
        out.push({
          patternId: id,
          matchedText: text.slice(start, start + Math.min(length, MAX_RUN_EXCERPT)),
          offset: start,
          length,
          detail: `${length} characters: ${kinds.join(', ')}`,
        });
      }
    },
  };
}

const ZERO_WIDTH = [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff];
const BIDI_CONTROLS = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];

const TAG_LEAD = 0xdb40;
const BLACK_FLAG = '\uD83C\uDFF4';
const CANCEL_TAG = '\uDB40\uDC7F';

function isTagTrail(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdc7f;
}

// An emoji subdivision flag (🏴 + 1–7 tag letters or digits + CANCEL TAG, e.g. England) is honest text.
function isFlagSequence(text: string, start: number, end: number): boolean {
  if (start < 2 || text.slice(start - 2, start) !== BLACK_FLAG || text.slice(end - 2, end) !== CANCEL_TAG)
    return false;
  const letters = (end - start) / 2 - 1;
  if (letters < 1 || letters > 7) return false;
  for (let i = start + 1; i < end - 2; i += 2) {
    const code = text.charCodeAt(i);
    const lowerLetter = code >= 0xdc61 && code <= 0xdc7a;
    const digit = code >= 0xdc30 && code <= 0xdc39;
    if (!lowerLetter && !digit) return false;
  }
  return true;
}

/** Runs of Unicode tag characters (U+E0000–U+E007F): one hit per run, emoji subdivision flags excepted. */
const TAG_RULE: ScanRule = {
  id: 'UNICODE_TAG_CHARACTER',
  mayMatch: needsNonAscii,
  collect(text, out) {
    let found = 0;
    for (let i = 0; i < text.length && found < MAX_FINDINGS_PER_RULE; i += 1) {
      if (text.charCodeAt(i) !== TAG_LEAD || !isTagTrail(text.charCodeAt(i + 1))) continue;
      const start = i;
      while (text.charCodeAt(i) === TAG_LEAD && isTagTrail(text.charCodeAt(i + 1))) i += 2;
      if (!isFlagSequence(text, start, i)) {
        found += 1;
        out.push({ patternId: 'UNICODE_TAG_CHARACTER', matchedText: text.slice(start, i), offset: start });
      }
      i -= 1;
    }
  },
};

/** The seven regex rules of the reference (patterns 1–7), in record order. */
export const REFERENCE_REGEX_RULES: readonly ScanRule[] = [
  rule(
    'HIDDEN_INSTRUCTION',
    `ignore${S}+(?:all${S}+)?(?:previous|prior|above)${S}+instructions`,
    'gi',
    needs(['ignore']),
  ),
  rule(
    'SYSTEM_PROMPT_OVERRIDE',
    `<${S}*system${S}*>|\\[${S}*system${S}*\\]|<\\|im_start\\|>`,
    'gi',
    needs(['<', '[']),
  ),
  rule('ROLE_HIJACK', `you${S}+are${S}+(?:now|actually|really)${S}+a${S}+`, 'gi', needs(['you'])),
  runRule('UNICODE_ZERO_WIDTH', ZERO_WIDTH),
  runRule('UNICODE_RTL_OVERRIDE', BIDI_CONTROLS),
  rule('ANSI_ESCAPE', '\\x1B\\[[0-9;]*[A-Za-z]', 'g', needsNonAscii),
  rule(
    'EXFILTRATION_DIRECTIVE',
    `(?:exfiltrate|send${S}+to|post${S}+to|forward${S}+all)${S}+(?:[a-z0-9_-]+@|https?://)`,
    'gi',
    needs(['@', '://']),
  ),
];

const NOT = `(?:do${S}+not|don['\u2019]t|never)`;
const WHO = `(?:the${S}+)?(?:user|human)s?\\b`;

/** Portcullis' rules, in record order (after the reference rules and the homoglyph check). */
export const EXTRA_RULES: readonly ScanRule[] = [
  rule(
    'CONCEALMENT_DIRECTIVE',
    [
      `${NOT}${S}+(?:tell|inform)${S}+(?:${WHO}|anyone\\b)`,
      `${NOT}${S}+mention${S}+(?:this|that|these|it)\\b`,
      `without${S}+(?:telling|informing)${S}+${WHO}`,
      `(?:hide|conceal|keep)${S}+(?:this|it)${S}+(?:secret${S}+)?from${S}+${WHO}`,
      `the${S}+user${S}+(?:must|should)${S}+(?:not|never)${S}+(?:know|see|find${S}+out|be${S}+told)\\b`,
    ]
      .map((alternative) => `\\b${alternative}`)
      .join('|'),
    'gi',
    needs(['do', 'never', 'without', 'hide', 'conceal', 'keep', 'the']),
  ),
  rule(
    'SENSITIVE_FILE_REFERENCE',
    [
      '(?:~[/\\\\])?\\.ssh(?![A-Za-z0-9_])(?:[/\\\\][A-Za-z0-9_.-]+)*',
      '\\bid_(?:rsa|dsa|ecdsa|ed25519)(?:\\.pub)?\\b',
      '\\bauthorized_keys\\b',
      '/etc/(?:passwd|shadow|gshadow|sudoers)\\b',
      '(?<![A-Za-z0-9_.-])(?:~[/\\\\])?\\.env(?:\\.[A-Za-z0-9_-]+)*(?![A-Za-z0-9_])',
      '\\bmcp\\.json\\b',
      '\\bclaude_desktop_config\\.json\\b',
      '\\.aws[/\\\\]credentials\\b',
      '\\.kube[/\\\\]config\\b',
      '\\.docker[/\\\\]config\\.json\\b',
      '\\.(?:netrc|npmrc|pypirc|pgpass|git-credentials|bash_history|zsh_history|gnupg)\\b',
    ].join('|'),
    'gi',
    needs(['.', 'id_', 'authorized_keys', '/etc/']),
  ),
  TAG_RULE,
  rule(
    'PSEUDO_TAG',
    [
      `<${S}*(?:/${S}*)?(?:important|instructions?|assistant|secret|hidden|critical|override|system[_-]?(?:prompt|message|instructions?|override))(?:${S}[^<>]{0,200})?>`,
      `<${S}*/${S}*system${S}*>`,
      '<\\|(?:system|assistant|user|im_end|im_sep|endoftext|eot_id|start_header_id|end_header_id)\\|>',
    ].join('|'),
    'gi',
    needs(['<']),
  ),
];
