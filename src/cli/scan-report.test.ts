import { describe, expect, it } from 'vitest';
import { failsOn, type FailOn, type ScanFinding, type ScanReport } from './scan-report.ts';

const finding = (category: ScanFinding['category'], level: ScanFinding['level']): ScanFinding => ({
  ruleId: 'x',
  category,
  level,
  server: 's',
  subject: 'tool',
  name: 't',
  fieldPath: '',
  message: '',
  digest: null,
});
const tool = (final: string) => ({
  alias: 't',
  upstream: 's',
  exposed: true,
  withheldReason: null,
  withheldDetail: null,
  final,
  effective: final,
  floorTrigger: null,
  fingerprint: 'ACTIVE',
  poisoning: [],
});
const report = (
  toolLevel: string,
  findings: ScanFinding[],
): Pick<ScanReport, 'servers' | 'tools' | 'findings'> => ({
  servers: [],
  tools: [tool(toolLevel)],
  findings,
});

describe('--fail-on', () => {
  it.each<[string, FailOn, Pick<ScanReport, 'servers' | 'tools' | 'findings'>, boolean]>([
    ['clean at L5', 'L5', report('L2', []), false],
    ['risk at the level', 'L2', report('L2', []), true],
    ['risk below the level', 'L3', report('L2', []), false],
    ['poisoning fails any risk level', 'L5', report('L1', [finding('poisoning', 'error')]), true],
    ['a warning does not fail a risk level', 'L5', report('L1', [finding('exposure', 'warning')]), false],
    ['a risk finding fails only through its level', 'L5', report('L4', [finding('risk', 'error')]), false],
    ['error: a warning is below', 'error', report('L1', [finding('shadowing', 'warning')]), false],
    ['warning: a warning meets it', 'warning', report('L1', [finding('shadowing', 'warning')]), true],
    ['note: any finding', 'note', report('L1', [finding('server', 'note')]), true],
    ['poisoned: shadowing counts', 'poisoned', report('L1', [finding('shadowing', 'warning')]), true],
    ['poisoned: risk does not', 'poisoned', report('L5', [finding('risk', 'error')]), false],
    ['any: a note', 'any', report('L1', [finding('server', 'note')]), true],
    ['any: nothing', 'any', report('L5', []), false],
  ])('%s', (_name, failOn, input, expected) => {
    expect(failsOn(failOn, input)).toBe(expected);
  });
});
