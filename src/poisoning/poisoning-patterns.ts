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

/** Findings of the normalization stage, of decoded payloads, and of the linear model. */
export const NORMALIZATION_PATTERN_IDS = [
  'INVISIBLE_CHARACTER',
  'TERMINAL_CONTROL',
  'ENCODED_PAYLOAD',
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
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text))
        out.push({ patternId: id, matchedText: match[0], offset: match.index });
    },
  };
}

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
    for (let i = 0; i < text.length; i += 1) {
      if (text.charCodeAt(i) !== TAG_LEAD || !isTagTrail(text.charCodeAt(i + 1))) continue;
      const start = i;
      while (text.charCodeAt(i) === TAG_LEAD && isTagTrail(text.charCodeAt(i + 1))) i += 2;
      if (!isFlagSequence(text, start, i))
        out.push({ patternId: 'UNICODE_TAG_CHARACTER', matchedText: text.slice(start, i), offset: start });
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
  rule('UNICODE_ZERO_WIDTH', '[\\u200B\\u200C\\u200D\\u2060\\uFEFF]', 'g', needsNonAscii),
  rule('UNICODE_RTL_OVERRIDE', '[\\u202A-\\u202E\\u2066-\\u2069]', 'g', needsNonAscii),
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
