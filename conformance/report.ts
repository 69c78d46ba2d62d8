/** Plain-text rendering of a conformance run: the per-scenario summary and the comparison with the baseline. */
import type { Comparison } from './baseline.ts';
import type { ScenarioOutcome } from './results.ts';

const MARK: Record<ScenarioOutcome['status'], string> = {
  pass: 'PASS',
  warn: 'WARN',
  fail: 'FAIL',
  missing: 'NONE',
};

/** One line per scenario plus totals; problems of scenarios that do not pass are indented below them. */
export function formatSummary(outcomes: readonly ScenarioOutcome[]): string[] {
  const width = Math.max(...outcomes.map((o) => o.scenario.length), 8);
  const lines = outcomes.map(
    (o) =>
      `${MARK[o.status]}  ${o.scenario.padEnd(width)}  ${o.passed} passed, ${o.failed} failed, ${o.warnings} warnings`,
  );
  const withProblems = outcomes.filter((o) => o.status !== 'pass');
  const count = (status: ScenarioOutcome['status']) => outcomes.filter((o) => o.status === status).length;
  lines.push(
    '',
    `Scenarios: ${outcomes.length} run, ${count('pass')} pass, ${count('warn')} warn only, ` +
      `${count('fail')} fail, ${count('missing')} without result`,
  );
  if (withProblems.length > 0) lines.push('', 'Why the others do not pass:');
  for (const o of withProblems) {
    lines.push(`  ${o.scenario}`);
    const problems = o.problems.length > 0 ? o.problems : ['no checks recorded (crashed or timed out)'];
    for (const problem of problems) lines.push(`    - ${oneLine(problem)}`);
  }
  return lines;
}

/** The comparison with the baseline: regressions, expected failures, fixed entries and unknown entries. */
export function formatComparison(comparison: Comparison): string[] {
  const lines: string[] = [];
  const of = (kind: Comparison['verdicts'][number]['kind']) =>
    comparison.verdicts.filter((v) => v.kind === kind);
  const expected = of('expected');
  const fixed = of('fixed');
  const regressions = of('regression');
  const flaky = of('flaky');
  if (expected.length > 0) {
    lines.push(`Expected failures (in baseline): ${expected.length}`);
    for (const v of expected) if (v.kind === 'expected') lines.push(`  ~ ${v.outcome.scenario}: ${v.reason}`);
  }
  if (fixed.length > 0) {
    lines.push(`Now passing, listed in the baseline: ${fixed.length}`);
    for (const v of fixed) lines.push(`  + ${v.outcome.scenario}: fixed, remove from baseline`);
  }
  if (flaky.length > 0) {
    lines.push(`Known flaky (never a regression): ${flaky.length}`);
    for (const v of flaky) {
      if (v.kind === 'flaky')
        lines.push(`  * ${v.outcome.scenario} (${v.outcome.status} this run): ${v.reason}`);
    }
  }
  if (comparison.unknownEntries.length > 0) {
    lines.push('Baseline entries naming no scenario of this suite (remove or rename):');
    for (const name of comparison.unknownEntries) lines.push(`  ? ${name}`);
  }
  if (regressions.length > 0) {
    lines.push(`REGRESSIONS (not passing, not in baseline): ${regressions.length}`);
    for (const v of regressions) {
      lines.push(
        `  ! ${v.outcome.scenario} (${v.outcome.status}): ${oneLine(v.outcome.problems[0] ?? 'no result')}`,
      );
    }
  }
  lines.push(
    comparison.failed
      ? 'Conformance: FAILED (regressions above)'
      : 'Conformance: OK (every scenario passes, is a known failure or is known flaky)',
  );
  return lines;
}

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
