/**
 * Reading what the conformance CLI wrote (`<out>/server-<scenario>-<timestamp>/checks.json`) and reducing each
 * scenario's checks to one outcome, with the suite's own rule: a FAILURE or a WARNING means "does not pass".
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One check as the suite records it (only the fields used here). */
export interface SuiteCheck {
  id: string;
  name: string;
  description?: string;
  status: string;
  errorMessage?: string;
}

/** A scenario's outcome: pass, warn (warnings only), fail (at least one failure), or no result at all. */
export type ScenarioStatus = 'pass' | 'warn' | 'fail' | 'missing';

/** One scenario reduced to its status and the checks that kept it from passing. */
export interface ScenarioOutcome {
  scenario: string;
  status: ScenarioStatus;
  passed: number;
  failed: number;
  warnings: number;
  /** `<check name>: <message>` for each FAILURE, then each WARNING. */
  problems: string[];
}

const RESULT_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;

/** Reduces a scenario's checks to its outcome; an empty list means the scenario produced no result. */
export function classifyScenario(scenario: string, checks: readonly SuiteCheck[]): ScenarioOutcome {
  const failures = checks.filter((c) => c.status === 'FAILURE');
  const warnings = checks.filter((c) => c.status === 'WARNING');
  const status: ScenarioStatus =
    checks.length === 0 ? 'missing' : failures.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'pass';
  return {
    scenario,
    status,
    passed: checks.filter((c) => c.status === 'SUCCESS').length,
    failed: failures.length,
    warnings: warnings.length,
    problems: [...failures, ...warnings].map(
      (c) => `${c.name}: ${c.errorMessage ?? c.description ?? c.status}`,
    ),
  };
}

/** Checks per scenario found under the output directory (the latest run of a scenario wins). */
export function readScenarioChecks(outputDir: string): Map<string, SuiteCheck[]> {
  const latest = new Map<string, { stamp: string; dir: string }>();
  let entries: string[];
  try {
    entries = readdirSync(outputDir);
  } catch {
    return new Map();
  }
  for (const entry of entries) {
    const match = RESULT_DIR.exec(entry);
    if (!match) continue;
    const [, scenario, stamp] = match as unknown as [string, string, string];
    const seen = latest.get(scenario);
    if (!seen || seen.stamp < stamp) latest.set(scenario, { stamp, dir: entry });
  }
  const checks = new Map<string, SuiteCheck[]>();
  for (const [scenario, { dir }] of latest) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(path.join(outputDir, dir, 'checks.json'), 'utf8'));
      checks.set(scenario, Array.isArray(parsed) ? (parsed as SuiteCheck[]) : []);
    } catch {
      checks.set(scenario, []);
    }
  }
  return checks;
}

/** The outcome of every expected scenario, in the given order; a scenario with no result is `missing`. */
export function collectOutcomes(
  expected: readonly string[],
  checks: ReadonlyMap<string, readonly SuiteCheck[]>,
): ScenarioOutcome[] {
  return expected.map((scenario) => classifyScenario(scenario, checks.get(scenario) ?? []));
}
