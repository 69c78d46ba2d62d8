import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyScenario, collectOutcomes, readScenarioChecks, type SuiteCheck } from './results.ts';

const check = (status: string, name: string, errorMessage?: string): SuiteCheck => ({
  id: name,
  name,
  status,
  ...(errorMessage === undefined ? {} : { errorMessage }),
});

describe('classifyScenario', () => {
  it.each<[string, SuiteCheck[], string, number, number, number]>([
    ['all successes', [check('SUCCESS', 'A'), check('SUCCESS', 'B')], 'pass', 2, 0, 0],
    ['INFO checks do not count', [check('INFO', 'Request'), check('SUCCESS', 'A')], 'pass', 1, 0, 0],
    ['a warning', [check('SUCCESS', 'A'), check('WARNING', 'B')], 'warn', 1, 0, 1],
    ['a failure beside a warning', [check('WARNING', 'A'), check('FAILURE', 'B')], 'fail', 0, 1, 1],
    ['no checks', [], 'missing', 0, 0, 0],
  ])('%s', (_label, checks, status, passed, failed, warnings) => {
    expect(classifyScenario('s', checks)).toMatchObject({ scenario: 's', status, passed, failed, warnings });
  });

  it('lists failures before warnings, with their messages', () => {
    const outcome = classifyScenario('s', [
      check('WARNING', 'Soft', 'should do better'),
      check('FAILURE', 'Hard', 'Method not found'),
      check('FAILURE', 'Bare'),
    ]);
    expect(outcome.problems).toEqual(['Hard: Method not found', 'Bare: FAILURE', 'Soft: should do better']);
  });
});

describe('readScenarioChecks', () => {
  const write = (dir: string, entry: string, content: string) => {
    mkdirSync(path.join(dir, entry), { recursive: true });
    writeFileSync(path.join(dir, entry, 'checks.json'), content);
  };

  it('reads the latest run of each scenario and tolerates broken files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-results-'));
    write(dir, 'server-tools-call-error-2026-01-01T00-00-00-000Z', JSON.stringify([check('FAILURE', 'Old')]));
    write(dir, 'server-tools-call-error-2026-01-02T00-00-00-000Z', JSON.stringify([check('SUCCESS', 'New')]));
    write(dir, 'server-ping-2026-01-01T00-00-00-000Z', '{not json');
    write(dir, 'unrelated-directory', JSON.stringify([check('SUCCESS', 'X')]));

    const checks = readScenarioChecks(dir);
    expect([...checks.keys()].sort()).toEqual(['ping', 'tools-call-error']);
    expect(checks.get('tools-call-error')?.map((c) => c.name)).toEqual(['New']);
    expect(checks.get('ping')).toEqual([]);

    const outcomes = collectOutcomes(['tools-call-error', 'ping', 'never-ran'], checks);
    expect(outcomes.map((o) => [o.scenario, o.status])).toEqual([
      ['tools-call-error', 'pass'],
      ['ping', 'missing'],
      ['never-ran', 'missing'],
    ]);
  });

  it('returns nothing for a directory that does not exist', () => {
    expect(readScenarioChecks(path.join(tmpdir(), 'conformance-no-such-dir', 'x')).size).toBe(0);
  });
});
