/**
 * The response scan (docs/rules/poisoning.md#r-poison-response-response-injection): a call-phase guard over
 * `result` subjects. The texts a model will read in a tool result, a `prompts/get` result or a `resources/read`
 * result (already masked) are scanned in one pass with the gateway's poisoning scanner; a hit withholds the
 * answer under `enforce` and is recorded under `advisory`. The runner applies the mode and `onError` as for
 * every guard, so a scan that throws withholds the answer unless `onError: open`.
 */
import type { GuardsConfig } from '../config/index.ts';
import type { TextScanResult } from '../poisoning/index.ts';
import { ALLOW, type Guard, type GuardDecision } from './contract.ts';
import {
  gatherResponseTexts,
  segmentAt,
  type ResponseKind,
  type ResponseTexts,
  type UnscannedReason,
} from './response-texts.ts';
import { runGuards, type GuardRunnerDeps } from './runner.ts';

/** The most findings one answer's review keeps (the scanner bounds its own per rule). */
export const MAX_RESPONSE_FINDINGS = 32;

/** One hit in an answer: the rule, the text it is in, and the span there (UTF-16 offset and length). */
export interface ResponseFinding {
  readonly patternId: string;
  /** Where the text sits in the answer, e.g. `content/0/text` or `messages/1/content/text`. */
  readonly field: string;
  readonly offset: number;
  readonly length: number;
}

/** What the response scan concluded about one answer. */
export interface ResponseReview {
  /** `pass`: send the answer as it is. `withhold`: replace it with an error (enforce, or a failed scan). */
  readonly action: 'pass' | 'withhold';
  /** `response-injection` (a hit under enforce) or `guard-failed` (the scan threw, onError closed). */
  readonly reason?: 'response-injection' | 'guard-failed';
  readonly findings: readonly ResponseFinding[];
  /** How many characters were scanned, and why the rest was not (absent when all was). */
  readonly scannedChars: number;
  readonly unscanned?: UnscannedReason;
}

/** What a review needs: the scanner's text scan (with its cache), the guards' policies and their log. */
export interface ResponseScanDeps extends GuardRunnerDeps {
  scan(text: string): TextScanResult;
  policies: GuardsConfig;
}

/** Maps the scan of the joined document back to the texts of the answer. */
export function locateFindings(texts: ResponseTexts, scan: TextScanResult): ResponseFinding[] {
  const findings: ResponseFinding[] = [];
  for (const match of scan.matches) {
    if (findings.length >= MAX_RESPONSE_FINDINGS) break;
    const segment = segmentAt(texts, match.offset);
    const length = match.length ?? match.matchedText.length;
    findings.push({
      patternId: match.patternId,
      field: segment?.path() ?? '',
      offset: segment === undefined ? match.offset : match.offset - segment.start,
      length,
    });
  }
  return findings;
}

/** The response-scan guard over gathered answers; `found` receives each answer's located findings. */
export function createResponseScanGuard(
  scan: (text: string) => TextScanResult,
  found: (texts: ResponseTexts, findings: ResponseFinding[]) => void,
): Guard<ResponseTexts> {
  const decideOne = (texts: ResponseTexts): GuardDecision => {
    if (texts.document === '') return ALLOW;
    const result = scan(texts.document);
    if (result.clean) return ALLOW;
    const findings = locateFindings(texts, result);
    found(texts, findings);
    return {
      kind: 'withhold',
      reason: 'response-injection',
      findings: findings.map((f) => ({
        guard: 'responseScan',
        code: f.patternId,
        message: `${f.patternId} at ${f.field}`,
      })),
    };
  };
  return { id: 'responseScan', phase: 'call', subject: 'result', decide: (items) => items.map(decideOne) };
}

/**
 * Reviews one answer under the configured `guards.responseScan` policy; undefined when the guard is off (nothing
 * is gathered or scanned then).
 */
export function reviewResponse(
  kind: ResponseKind,
  answer: unknown,
  deps: ResponseScanDeps,
): ResponseReview | undefined {
  if (deps.policies.responseScan.mode === 'off') return undefined;
  let findings: ResponseFinding[] = [];
  const texts = gatherResponseTexts(kind, answer);
  const guard = createResponseScanGuard(deps.scan, (_texts, located) => {
    findings = located;
  });
  const [verdict] = runGuards([guard], [texts], deps);
  const withheld = verdict?.withheld;
  return {
    action: withheld === undefined ? 'pass' : 'withhold',
    ...(withheld === undefined
      ? {}
      : { reason: withheld.reason === 'guard-failed' ? 'guard-failed' : 'response-injection' }),
    findings,
    scannedChars: texts.document.length,
    ...(texts.unscanned === undefined ? {} : { unscanned: texts.unscanned }),
  };
}
