import { describe, expect, it } from 'vitest';
import { compareWithBaseline, parseBaseline, type Baseline, type Verdict } from './baseline.ts';
import { classifyScenario, type ScenarioStatus, type SuiteCheck } from './results.ts';

const check = (status: string, name = 'Check'): SuiteCheck => ({ id: name, name, status });

const CHECKS: Record<ScenarioStatus, SuiteCheck[]> = {
  pass: [check('SUCCESS'), check('INFO')],
  warn: [check('SUCCESS'), check('WARNING')],
  fail: [check('FAILURE'), check('WARNING')],
  missing: [],
};

const baseline: Baseline = {
  conformance: '0.1.13',
  scenarios: { 'known-broken': 'the gateway lacks it' },
  flaky: { 'known-flaky': 'a race' },
};

describe('compareWithBaseline', () => {
  it.each<[string, ScenarioStatus, Verdict['kind']]>([
    ['new-scenario', 'pass', 'pass'],
    ['new-scenario', 'fail', 'regression'],
    ['new-scenario', 'warn', 'regression'],
    ['new-scenario', 'missing', 'regression'],
    ['known-broken', 'fail', 'expected'],
    ['known-broken', 'warn', 'expected'],
    ['known-broken', 'missing', 'expected'],
    ['known-broken', 'pass', 'fixed'],
    ['known-flaky', 'pass', 'flaky'],
    ['known-flaky', 'fail', 'flaky'],
  ])('%s that ends %s is %s', (scenario, status, kind) => {
    const outcome = classifyScenario(scenario, CHECKS[status]);
    const comparison = compareWithBaseline([outcome], baseline, [scenario]);
    expect(comparison.verdicts.map((v) => v.kind)).toEqual([kind]);
    expect(comparison.failed).toBe(kind === 'regression');
  });

  it('fails the run when any one scenario regresses', () => {
    const outcomes = [
      classifyScenario('a', CHECKS.pass),
      classifyScenario('known-broken', CHECKS.fail),
      classifyScenario('b', CHECKS.fail),
    ];
    const comparison = compareWithBaseline(outcomes, baseline, ['a', 'b', 'known-broken', 'known-flaky']);
    expect(comparison.failed).toBe(true);
    expect(comparison.verdicts.filter((v) => v.kind === 'regression').map((v) => v.outcome.scenario)).toEqual(
      ['b'],
    );
  });

  it('applies an entry qualified by requirement set or era only to that run, the most specific first', () => {
    const scoped: Baseline = {
      conformance: '0.2.0',
      scenarios: {
        'only-legacy@legacy': 'the legacy hop lacks it',
        'only-2026@2026-07-28': 'a 2026 feature',
        both: 'everywhere',
        'both@2026-07-28/modern': 'the modern hop, more precisely',
      },
      flaky: {},
    };
    const verdict = (scenario: string, scope: { requirements?: string; era?: string }) => {
      const comparison = compareWithBaseline([classifyScenario(scenario, CHECKS.fail)], scoped, [], scope);
      const [first] = comparison.verdicts;
      return first?.kind === 'expected' ? first.reason : first?.kind;
    };
    expect(verdict('only-legacy', { requirements: '2026-07-28', era: 'legacy' })).toBe(
      'the legacy hop lacks it',
    );
    expect(verdict('only-legacy', { requirements: '2026-07-28', era: 'modern' })).toBe('regression');
    expect(verdict('only-2026', { requirements: '2025-11-25', era: 'modern' })).toBe('regression');
    expect(verdict('only-2026', { requirements: '2026-07-28', era: 'legacy' })).toBe('a 2026 feature');
    expect(verdict('both', { requirements: '2025-11-25', era: 'legacy' })).toBe('everywhere');
    expect(verdict('both', { requirements: '2026-07-28', era: 'modern' })).toBe(
      'the modern hop, more precisely',
    );
    expect(compareWithBaseline([], scoped, ['only-legacy', 'both']).unknownEntries).toEqual([
      'only-2026@2026-07-28',
    ]);
  });

  it('reports entries that name no scenario of the suite', () => {
    const comparison = compareWithBaseline([], baseline, ['known-broken']);
    expect(comparison.unknownEntries).toEqual(['known-flaky']);
    expect(comparison.failed).toBe(false);
  });
});

describe('parseBaseline', () => {
  it('accepts a baseline without a flaky list', () => {
    expect(parseBaseline({ conformance: '1.0.0', scenarios: { x: 'why' } })).toEqual({
      conformance: '1.0.0',
      scenarios: { x: 'why' },
      flaky: {},
    });
  });

  it.each<[string, unknown, RegExp]>([
    ['a non-object', [], /JSON object/],
    ['no version', { scenarios: {} }, /conformance/],
    ['scenarios as a list', { conformance: '1', scenarios: ['x'] }, /"scenarios" must be an object/],
    ['an empty reason', { conformance: '1', scenarios: { x: '  ' } }, /"x" needs a non-empty reason/],
    [
      'a non-string reason',
      { conformance: '1', scenarios: {}, flaky: { y: 3 } },
      /"y" needs a non-empty reason/,
    ],
    ['a scenario in both lists', { conformance: '1', scenarios: { x: 'a' }, flaky: { x: 'b' } }, /both/],
  ])('rejects %s', (_label, document, message) => {
    expect(() => parseBaseline(document)).toThrow(message);
  });
});
