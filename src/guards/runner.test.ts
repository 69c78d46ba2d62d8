import { describe, expect, it } from 'vitest';
import type { GuardMode, GuardPolicy, GuardsConfig } from '../config/index.ts';
import type { Guard, GuardDecision } from './contract.ts';
import { runGuards } from './runner.ts';
import { DEFAULT_GUARDS } from './test/fixtures.ts';

const withhold: GuardDecision = {
  kind: 'withhold',
  reason: 'poisoning-blocked',
  detail: 'why',
  findings: [{ guard: 'poisoning', code: 'P1', message: 'first' }],
};
const annotate: GuardDecision = {
  kind: 'annotate',
  findings: [{ guard: 'poisoning', code: 'P2', message: 'noted' }],
};

/** A guard under test that answers the same decision for every subject. */
function fixed(decision: GuardDecision, id: Guard<string>['id'] = 'poisoning'): Guard<string> {
  return { id, phase: 'exposure', subject: 'tool', decide: (subjects) => subjects.map(() => decision) };
}

function throwing(id: Guard<string>['id']): Guard<string> {
  return {
    id,
    phase: 'exposure',
    subject: 'tool',
    decide: () => {
      throw new Error('boom');
    },
  };
}

const policies = (over: Partial<Record<keyof GuardsConfig, GuardPolicy>>): GuardsConfig => ({
  ...DEFAULT_GUARDS,
  ...over,
});
const mode = (m: GuardMode): GuardPolicy => ({ mode: m, onError: 'closed' });

function run(guards: Guard<string>[], config: GuardsConfig, subjects = ['a']) {
  const logs: { event: string; level: string }[] = [];
  const verdicts = runGuards(guards, subjects, {
    policies: config,
    log: (event, _fields, level) => logs.push({ event, level }),
  });
  return { verdicts, logs };
}

describe('runGuards', () => {
  it.each([
    ['enforce keeps a withhold', 'enforce', withhold, { reason: 'poisoning-blocked', detail: 'why' }, ['P1']],
    ['advisory turns a withhold into findings', 'advisory', withhold, undefined, ['P1']],
    ['off skips the guard', 'off', withhold, undefined, []],
    ['an annotation only adds findings', 'enforce', annotate, undefined, ['P2']],
    ['allow leaves nothing', 'enforce', { kind: 'allow' } as const, undefined, []],
  ] as const)('%s', (_name, guardMode, decision, withheld, codes) => {
    const { verdicts } = run([fixed(decision)], policies({ poisoning: mode(guardMode) }));
    expect(
      verdicts[0]?.withheld === undefined
        ? undefined
        : {
            reason: verdicts[0]?.withheld.reason,
            detail: verdicts[0]?.withheld.detail,
          },
    ).toEqual(withheld);
    expect(verdicts[0]?.findings.map((f) => f.code)).toEqual(codes);
  });

  it('keeps the first enforced withholding and every finding, in guard order', () => {
    const second: GuardDecision = {
      kind: 'withhold',
      reason: 'fingerprint-revoked',
      findings: [{ guard: 'fingerprint', code: 'REVOKED', message: 'second' }],
    };
    const { verdicts } = run([fixed(withhold), fixed(second, 'fingerprint')], DEFAULT_GUARDS);
    // The default poisoning mode is advisory: its withholding does not count, the fingerprint one does.
    expect(verdicts[0]?.withheld?.reason).toBe('fingerprint-revoked');
    expect(verdicts[0]?.findings.map((f) => f.code)).toEqual(['P1', 'REVOKED']);
  });

  it('tells a later guard which subjects an earlier one withheld', () => {
    const seen: boolean[] = [];
    const observer: Guard<string> = {
      id: 'shadowing',
      phase: 'exposure',
      subject: 'tool',
      decide: (subjects, isWithheld) => subjects.map((s) => (seen.push(isWithheld(s)), { kind: 'allow' })),
    };
    const first: Guard<string> = {
      id: 'riskCap',
      phase: 'exposure',
      subject: 'tool',
      decide: (subjects) => subjects.map((s) => (s === 'b' ? withhold : { kind: 'allow' })),
    };
    run([first, observer], DEFAULT_GUARDS, ['a', 'b']);
    expect(seen).toEqual([false, true]);
  });

  it.each([
    [
      'closed (the default) withholds every subject, whatever the mode',
      'advisory',
      'closed',
      'guard-failed',
      'error',
    ],
    ['open lets every subject through with a warning', 'enforce', 'open', undefined, 'warn'],
  ] as const)('a guard that throws: %s', (_name, guardMode, onError, reason, level) => {
    const { verdicts, logs } = run(
      [throwing('riskCap')],
      policies({ riskCap: { mode: guardMode, onError } }),
      ['a', 'b'],
    );
    expect(verdicts.map((v) => v.withheld?.reason)).toEqual([reason, reason]);
    if (reason) expect(verdicts[0]?.withheld?.detail).toBe('riskCap: boom');
    expect(logs).toEqual([{ event: 'guard.failed', level }]);
  });

  it('treats a guard that answers for the wrong number of subjects as failed', () => {
    const short: Guard<string> = { id: 'fingerprint', phase: 'exposure', subject: 'tool', decide: () => [] };
    const { verdicts } = run([short], DEFAULT_GUARDS, ['a']);
    expect(verdicts[0]?.withheld?.reason).toBe('guard-failed');
  });
});
