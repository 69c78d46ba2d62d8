/**
 * The committed baseline (`conformance/baseline.json`): every scenario that does not pass yet, each with a
 * one-line reason, and the scenarios whose outcome varies from run to run (flaky), each with its cause.
 * Comparing a run with it yields one verdict per scenario; only a regression (a scenario that does not pass
 * and is in neither list) fails the run. A key is a scenario name, valid in every run, or a scenario name
 * qualified by the run it applies to: `name@2026-07-28`, `name@legacy` or `name@2026-07-28/legacy`
 * (requirement set, upstream era); the most specific entry wins.
 */
import { readFileSync } from 'node:fs';
import type { ScenarioOutcome } from './results.ts';

/** The parsed baseline. */
export interface Baseline {
  /** The conformance package version the baseline was written against. */
  conformance: string;
  /** Scenario name → why it does not pass yet. */
  scenarios: Record<string, string>;
  /** Scenario name → why it sometimes passes and sometimes does not (never a regression, never "fixed"). */
  flaky: Record<string, string>;
}

/** What one scenario's result means against the baseline. */
export type Verdict =
  | { kind: 'pass'; outcome: ScenarioOutcome }
  | { kind: 'expected'; outcome: ScenarioOutcome; reason: string }
  | { kind: 'fixed'; outcome: ScenarioOutcome; reason: string }
  | { kind: 'flaky'; outcome: ScenarioOutcome; reason: string }
  | { kind: 'regression'; outcome: ScenarioOutcome };

/** The whole comparison. */
export interface Comparison {
  verdicts: Verdict[];
  /** Baseline entries naming a scenario the suite does not have (typos, removed scenarios). */
  unknownEntries: string[];
  /** True when at least one regression occurred. */
  failed: boolean;
}

/** Validates a parsed baseline document; throws an Error naming the first problem. */
export function parseBaseline(document: unknown): Baseline {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new Error('baseline: expected a JSON object');
  }
  const { conformance, scenarios, flaky = {} } = document as Record<string, unknown>;
  if (typeof conformance !== 'string' || conformance.length === 0) {
    throw new Error('baseline: "conformance" must name the suite version');
  }
  const expected = reasons('scenarios', scenarios);
  const varying = reasons('flaky', flaky);
  const both = Object.keys(varying).filter((name) => name in expected);
  if (both.length > 0) throw new Error(`baseline: "${both[0]}" is listed both as failing and as flaky`);
  return { conformance, scenarios: expected, flaky: varying };
}

function reasons(key: string, value: unknown): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`baseline: "${key}" must be an object of scenario name → reason`);
  }
  for (const [name, reason] of Object.entries(value)) {
    if (typeof reason !== 'string' || reason.trim().length === 0) {
      throw new Error(`baseline: ${key} entry "${name}" needs a non-empty reason`);
    }
  }
  return { ...(value as Record<string, string>) };
}

/** Reads and validates the baseline file. */
export function loadBaseline(file: string): Baseline {
  return parseBaseline(JSON.parse(readFileSync(file, 'utf8')));
}

/** The run a comparison is for: its requirement set and the gateway's upstream era, when they apply. */
export interface RunScope {
  requirements?: string;
  era?: string;
}

/** The entry for a scenario in this run: `name@set/era`, then `name@set`, then `name@era`, then `name`. */
function entryFor(entries: Record<string, string>, scenario: string, scope: RunScope): string | undefined {
  const keys = [
    scope.requirements && scope.era ? `${scenario}@${scope.requirements}/${scope.era}` : undefined,
    scope.requirements ? `${scenario}@${scope.requirements}` : undefined,
    scope.era ? `${scenario}@${scope.era}` : undefined,
    scenario,
  ];
  for (const key of keys) if (key !== undefined && entries[key] !== undefined) return entries[key];
  return undefined;
}

/**
 * Compares outcomes with the baseline. `known` lists every scenario the suite has, so that an entry naming
 * none of them is reported; entries for known scenarios that were not run are ignored.
 */
export function compareWithBaseline(
  outcomes: readonly ScenarioOutcome[],
  baseline: Baseline,
  known: readonly string[],
  scope: RunScope = {},
): Comparison {
  const verdicts = outcomes.map((outcome): Verdict => {
    const flaky = entryFor(baseline.flaky, outcome.scenario, scope);
    if (flaky !== undefined) return { kind: 'flaky', outcome, reason: flaky };
    const reason = entryFor(baseline.scenarios, outcome.scenario, scope);
    const passes = outcome.status === 'pass';
    if (reason === undefined) return passes ? { kind: 'pass', outcome } : { kind: 'regression', outcome };
    return passes ? { kind: 'fixed', outcome, reason } : { kind: 'expected', outcome, reason };
  });
  const knownSet = new Set(known);
  return {
    verdicts,
    unknownEntries: [...Object.keys(baseline.scenarios), ...Object.keys(baseline.flaky)].filter(
      (key) => !knownSet.has(key.split('@')[0] ?? key),
    ),
    failed: verdicts.some((v) => v.kind === 'regression'),
  };
}
