/**
 * The poisoning guard (docs/rules/poisoning.md, docs/architecture.md "Guards"): a subject — a tool, a prompt, a
 * resource or resource template, an upstream's server instructions — whose model-visible text matched a
 * poisoning pattern is withheld under `enforce` (`poisoning: block`); under `advisory`, the default, it stays
 * listed and the matches are its findings (for a tool, the risk model has already taken its HITL credit away).
 */
import type { ExposedTool, GuardFinding } from '../exposure/index.ts';
import type { ToolMatch } from '../poisoning/index.ts';
import { ALLOW, type Guard, type GuardDecision, type GuardSubject } from './contract.ts';

/** A scan as the guard reads it. */
export interface ScanOutcome {
  readonly clean: boolean;
  readonly matches: readonly ToolMatch[];
}

/** The findings of a scan: pattern, field, and what the match says about itself (a name's original form). */
export function poisoningFindings(matches: readonly ToolMatch[]): GuardFinding[] {
  return matches.map((match) => ({
    guard: 'poisoning',
    code: match.patternId,
    message: `${match.patternId} at ${match.fieldPath}${match.detail === undefined ? '' : `: ${match.detail}`}`,
  }));
}

/** The poisoning guard over subjects whose scan `scanOf` reads (undefined: never scanned, allowed). */
export function createPoisoningGuard<S>(
  subject: GuardSubject,
  scanOf: (subject: S) => ScanOutcome | undefined,
): Guard<S> {
  const decideOne = (item: S): GuardDecision => {
    const scan = scanOf(item);
    if (scan === undefined || scan.clean) return ALLOW;
    return { kind: 'withhold', reason: 'poisoning-blocked', findings: poisoningFindings(scan.matches) };
  };
  return { id: 'poisoning', phase: 'exposure', subject, decide: (items) => items.map(decideOne) };
}

/** The poisoning guard (exposure phase, tools). */
export const poisoningGuard: Guard<ExposedTool> = createPoisoningGuard<ExposedTool>(
  'tool',
  (tool) => tool.governance?.poisoning,
);
