import { describe, expect, it } from 'vitest';
import type { HitlMode } from '../config/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import { decideHitl, interpretElicitation } from './index.ts';
import { defaultHitlMode } from './hitl.ts';
import type { ElicitationOutcome } from './index.ts';
import type { HitlDecision } from './hitl.ts';
import type { RuleDecision } from './rules.ts';

const ALLOW: RuleDecision = { kind: 'allow' };
const ALLOW_RULE: RuleDecision = { kind: 'allow', ruleId: 'ok' };
const DENY: RuleDecision = { kind: 'deny', ruleId: 'no-secrets', reason: 'the secrets folder is off limits' };
const ASK: RuleDecision = { kind: 'ask', ruleId: 'ask-big', prompt: 'Really write {args}?' };
const LIMITED: RuleDecision = { kind: 'rate-limited', ruleId: 'slow-down', retryAfterMs: 1500 };

describe('decideHitl', () => {
  it.each<[HitlMode, RiskLevel, RiskLevel | undefined, RuleDecision, HitlDecision]>([
    ['REQUIRED', 'L0', undefined, ALLOW, { kind: 'ask' }],
    ['REQUIRED', 'L5', undefined, ALLOW_RULE, { kind: 'ask', ruleId: 'ok' }],
    ['AUTO_APPROVE', 'L2', undefined, ALLOW, { kind: 'run' }],
    ['AUTO_APPROVE', 'L3', undefined, ALLOW, { kind: 'ask' }],
    ['AUTO_APPROVE', 'L5', undefined, ALLOW, { kind: 'ask' }],
    ['AUTO_APPROVE', 'L3', 'L4', ALLOW, { kind: 'run' }],
    ['AUTO_APPROVE', 'L4', 'L4', ALLOW_RULE, { kind: 'ask', ruleId: 'ok' }],
    ['AUTO_APPROVE', 'L0', 'L0', ALLOW, { kind: 'ask' }],
    ['DISABLED', 'L5', undefined, ALLOW, { kind: 'run' }],
    ['DISABLED', 'L5', undefined, ALLOW_RULE, { kind: 'run', ruleId: 'ok' }],
    ['DISABLED', 'L0', undefined, ASK, { kind: 'ask', ruleId: 'ask-big', prompt: 'Really write {args}?' }],
    [
      'AUTO_APPROVE',
      'L1',
      undefined,
      ASK,
      { kind: 'ask', ruleId: 'ask-big', prompt: 'Really write {args}?' },
    ],
    [
      'DISABLED',
      'L0',
      undefined,
      DENY,
      { kind: 'deny', code: 'TOOL_DENIED', reason: 'the secrets folder is off limits', ruleId: 'no-secrets' },
    ],
    [
      'REQUIRED',
      'L5',
      undefined,
      DENY,
      { kind: 'deny', code: 'TOOL_DENIED', reason: 'the secrets folder is off limits', ruleId: 'no-secrets' },
    ],
    [
      'AUTO_APPROVE',
      'L1',
      undefined,
      LIMITED,
      {
        kind: 'deny',
        code: 'RATE_LIMITED',
        reason: 'rate limit reached (rule slow-down); retry in 2s',
        ruleId: 'slow-down',
        retryAfterMs: 1500,
      },
    ],
  ])('%s at %s (threshold %s) with %j', (mode, effectiveRisk, threshold, ruleDecision, expected) => {
    const input =
      threshold === undefined
        ? { mode, effectiveRisk, ruleDecision }
        : { mode, effectiveRisk, threshold, ruleDecision };
    expect(decideHitl(input)).toEqual(expected);
  });

  it.each([
    [
      'an unknown mode',
      { mode: 'SOMETIMES' as HitlMode, effectiveRisk: 'L1' as RiskLevel, ruleDecision: ALLOW },
    ],
    [
      'an unknown risk',
      { mode: 'DISABLED' as HitlMode, effectiveRisk: 'L7' as RiskLevel, ruleDecision: ALLOW },
    ],
    [
      'an unknown threshold',
      {
        mode: 'AUTO_APPROVE' as HitlMode,
        effectiveRisk: 'L1' as RiskLevel,
        threshold: 'high' as RiskLevel,
        ruleDecision: ALLOW,
      },
    ],
    [
      'an unknown rule verdict',
      {
        mode: 'DISABLED' as HitlMode,
        effectiveRisk: 'L1' as RiskLevel,
        ruleDecision: { kind: 'maybe' } as unknown as RuleDecision,
      },
    ],
  ])('denies on %s (fail closed)', (_name, input) => {
    expect(decideHitl(input)).toMatchObject({ kind: 'deny', code: 'TOOL_DENIED' });
  });
});

describe('defaultHitlMode', () => {
  it.each<[RiskLevel, HitlMode]>([
    ['L0', 'DISABLED'],
    ['L1', 'REQUIRED'],
    ['L3', 'REQUIRED'],
    ['L5', 'REQUIRED'],
  ])('%s → %s', (risk, mode) => {
    expect(defaultHitlMode(risk)).toBe(mode);
  });
});

describe('interpretElicitation', () => {
  it('runs on accept only', () => {
    expect(interpretElicitation('accept')).toEqual({ kind: 'run' });
  });

  it.each<[ElicitationOutcome, RegExp]>([
    ['decline', /declined/],
    ['cancel', /dismissed/],
    ['timeout', /in time/],
    ['unsupported', /cannot show approval prompts/],
    ['disconnect', /disconnected/],
    ['invalid-state', /invalid, expired, already used/],
    ['toString' as ElicitationOutcome, /without an answer/],
  ])('denies on %s', (outcome, reason) => {
    const decision = interpretElicitation(outcome);
    expect(decision.kind).toBe('deny');
    expect(decision).toMatchObject({ code: 'TOOL_DENIED', reason: expect.stringMatching(reason) });
  });
});
