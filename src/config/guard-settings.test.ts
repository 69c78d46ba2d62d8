import { describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { buildConfig } from './load-config.ts';

const build = (doc: Record<string, unknown>) => buildConfig(doc, 'test.yaml', '/tmp', () => undefined);

function problemsOf(doc: Record<string, unknown>): string[] {
  try {
    build(doc);
    return [];
  } catch (error) {
    if (!isPortcullisError(error, 'CONFIG_INVALID')) throw error;
    return (error.details?.problems as string[]) ?? [];
  }
}

describe('guard settings', () => {
  it.each([
    ['the defaults', {}, 'advisory', 'warn', 'enforce'],
    ['poisoning: block', { poisoning: 'block' }, 'enforce', 'block', 'enforce'],
    ['poisoning: warn', { poisoning: 'warn' }, 'advisory', 'warn', 'enforce'],
    [
      'guards.poisoning.mode: enforce',
      { guards: { poisoning: { mode: 'enforce' } } },
      'enforce',
      'block',
      'enforce',
    ],
    ['guards.poisoning.mode: off', { guards: { poisoning: { mode: 'off' } } }, 'off', 'warn', 'enforce'],
    [
      'both keys agreeing',
      { poisoning: 'block', guards: { poisoning: { mode: 'enforce' } } },
      'enforce',
      'block',
      'enforce',
    ],
    ['another guard set', { guards: { riskCap: { mode: 'advisory' } } }, 'advisory', 'warn', 'advisory'],
  ] as const)('%s', (_name, doc, poisoningMode, poisoningKey, riskCapMode) => {
    const config = build(doc);
    expect(config.guards.poisoning.mode).toBe(poisoningMode);
    expect(config.poisoning).toBe(poisoningKey);
    expect(config.guards.riskCap.mode).toBe(riskCapMode);
  });

  it('fails closed on a guard error unless a guard says open', () => {
    const config = build({ guards: { shadowing: { onError: 'open' } } });
    expect(Object.entries(config.guards).map(([id, p]) => [id, p.onError])).toEqual([
      ['fingerprint', 'closed'],
      ['poisoning', 'closed'],
      ['riskCap', 'closed'],
      ['shadowing', 'open'],
      ['composition', 'closed'],
      ['responseScan', 'closed'],
    ]);
    expect(config.guards.shadowing.mode).toBe('enforce');
  });

  it.each([
    ['off by default (opt-in)', {}, 'off'],
    ['advisory', { guards: { responseScan: { mode: 'advisory' } } }, 'advisory'],
    ['enforce', { guards: { responseScan: { mode: 'enforce' } } }, 'enforce'],
    ['not turned on by poisoning: block', { poisoning: 'block' }, 'off'],
  ] as const)('the response scan: %s', (_name, doc, mode) => {
    expect(build(doc).guards.responseScan).toEqual({ mode, onError: 'closed' });
  });

  it.each([
    ['an unknown guard', { guards: { sandbox: { mode: 'off' } } }, /guards/],
    ['an unknown mode', { guards: { poisoning: { mode: 'block' } } }, /guards\.poisoning\.mode/],
    ['an unknown response scan key', { guards: { responseScan: { maxChars: 10 } } }, /guards\.responseScan/],
    [
      'an unknown onError',
      { guards: { fingerprint: { onError: 'ignore' } } },
      /guards\.fingerprint\.onError/,
    ],
    [
      'poisoning and guards.poisoning.mode disagreeing',
      { poisoning: 'block', guards: { poisoning: { mode: 'advisory' } } },
      /poisoning: 'block' means guards\.poisoning\.mode 'enforce', but guards\.poisoning\.mode is 'advisory'/,
    ],
  ] as const)('rejects %s', (_name, doc, problem) => {
    const problems = problemsOf(doc);
    expect(
      problems.some((p) => problem.test(p)),
      problems.join('\n'),
    ).toBe(true);
  });
});
