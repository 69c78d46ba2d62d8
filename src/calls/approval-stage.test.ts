import { describe, expect, it } from 'vitest';
import { compileApprovalRules, type ElicitationOutcome } from '../approval/index.ts';
import type { HitlMode } from '../config/index.ts';
import type { ExposedTool } from '../exposure/types.ts';
import type { RiskLevel } from '../risk/index.ts';
import { ApprovalRequired, createApprovalStage } from './approval-stage.ts';
import type { CallerContext } from './pipeline.ts';
import { compileProfiles } from '../exposure/index.ts';

const definition = { name: 'write', inputSchema: { type: 'object' as const } };
const tool = (hitl: HitlMode, effective: RiskLevel = 'L2'): ExposedTool => ({
  alias: 'files_write',
  origin: 'upstream',
  upstream: 'files',
  composition: 'upstream:files',
  upstreamTool: 'write',
  definition,
  source: definition,
  hitl,
  exposed: true,
  governance: {
    risk: { final: 'L3', effective, hitlMitigated: effective !== 'L3', poisoned: false, floorTrigger: null },
  },
});

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const stage = (rules: Parameters<typeof compileApprovalRules>[0] = []) =>
  createApprovalStage({ rules: compileApprovalRules(rules), threshold: 'L3', now: () => NOW });

/** A caller whose person answers `answer` (the human is the one part a test may play). */
function caller(
  answer?: ElicitationOutcome,
  over: Partial<CallerContext> = {},
): CallerContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    principal: { id: 'key:abc', source: 'api-key', groups: [], scopes: [] },
    profile: compileProfiles({}).default,
    era: 'legacy',
    signal: new AbortController().signal,
    ...(answer === undefined ? {} : { askApproval: async (prompt: string) => (asked.push(prompt), answer) }),
    ...over,
    asked,
  };
}

describe('the approval stage', () => {
  it('runs a DISABLED tool without asking and records the mode', async () => {
    const who = caller('decline');
    expect(await stage().decide(tool('DISABLED'), {}, who)).toEqual({
      kind: 'run',
      record: { mode: 'DISABLED', decision: 'allow' },
    });
    expect(who.asked).toEqual([]);
  });

  it('gates AUTO_APPROVE on the effective level against the threshold', async () => {
    expect((await stage().decide(tool('AUTO_APPROVE', 'L2'), {}, caller('decline'))).kind).toBe('run');
    expect((await stage().decide(tool('AUTO_APPROVE', 'L3'), {}, caller('decline'))).kind).toBe('deny');
  });

  it('asks a person for a REQUIRED tool and records the answer with the time of the decision', async () => {
    const who = caller('accept');
    expect(await stage().decide(tool('REQUIRED'), { path: '/tmp/x' }, who)).toEqual({
      kind: 'run',
      record: {
        mode: 'REQUIRED',
        decision: 'ask',
        elicitation: 'accept',
        decidedAt: '2026-03-01T12:00:00.000Z',
      },
    });
    expect(who.asked).toHaveLength(1);
    expect(who.asked[0]).toContain('files_write');
  });

  it.each<[ElicitationOutcome, string]>([
    ['decline', 'TOOL_DENIED'],
    ['timeout', 'TOOL_DENIED'],
    ['invalid-state', 'APPROVAL_STATE_INVALID'],
  ])('denies when the prompt ends with %s (%s)', async (answer, code) => {
    const outcome = await stage().decide(tool('REQUIRED'), {}, caller(answer));
    expect(outcome).toMatchObject({ kind: 'deny', code, record: { decision: 'ask', elicitation: answer } });
  });

  it('denies when nobody can be asked (fail closed), and signals a modern client that can elicit', async () => {
    expect(await stage().decide(tool('REQUIRED'), {}, caller())).toMatchObject({
      kind: 'deny',
      record: { elicitation: 'unsupported' },
    });
    const modern = caller(undefined, { era: 'modern', canElicit: true });
    await expect(stage().decide(tool('REQUIRED'), {}, modern)).rejects.toBeInstanceOf(ApprovalRequired);
  });

  it('lets a rule deny before the mode is consulted, naming the rule', async () => {
    const rules = [
      { id: 'no-writes', match: { tool: 'write' }, decision: 'deny' as const, reason: 'read only' },
    ];
    expect(await stage(rules).decide(tool('DISABLED'), {}, caller())).toEqual({
      kind: 'deny',
      reason: 'read only',
      code: 'TOOL_DENIED',
      record: { mode: 'DISABLED', decision: 'deny', ruleId: 'no-writes' },
    });
  });
});
