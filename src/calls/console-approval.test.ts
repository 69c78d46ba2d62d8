import { describe, expect, it } from 'vitest';
import { compileApprovalRules, createApprovalInbox, type ElicitationOutcome } from '../approval/index.ts';
import type { ApprovalChannel } from '../config/index.ts';
import type { ExposedTool } from '../exposure/types.ts';
import { createApprovalStage } from './approval-stage.ts';
import { ApprovalPending, usesConsole } from './console-approval.ts';
import type { CallerContext } from './pipeline.ts';
import { compileProfiles } from '../exposure/index.ts';

const definition = { name: 'write', inputSchema: { type: 'object' as const } };
const tool: ExposedTool = {
  alias: 'files_write',
  origin: 'upstream',
  upstream: 'files',
  composition: 'upstream:files',
  upstreamTool: 'write',
  definition,
  source: definition,
  hitl: 'REQUIRED',
  exposed: true,
  governance: {
    risk: { final: 'L3', effective: 'L2', hitlMitigated: true, poisoned: false, floorTrigger: null },
  },
};

const caller = (over: Partial<CallerContext> = {}): CallerContext => ({
  principal: { id: 'key:abc', source: 'api-key', groups: [], scopes: [] },
  profile: compileProfiles({}).default,
  era: 'legacy',
  signal: new AbortController().signal,
  ...over,
});

describe('usesConsole', () => {
  it.each<[ApprovalChannel, Partial<CallerContext>, boolean]>([
    ['elicitation', { canElicit: false }, false],
    ['elicitation', { canElicit: true }, false],
    ['console', { canElicit: true }, true],
    ['both', { canElicit: true }, false],
    ['both', { canElicit: false }, true],
    ['both', {}, true],
    // A retry that names an inbox entry stays in the inbox; one answering a prompt round stays with the prompt.
    ['elicitation', { consoleEntry: 'e1' }, true],
    ['console', { approvalAnswer: 'accept' as ElicitationOutcome }, false],
  ])('%s with %j → %s', (channel, over, expected) => {
    expect(usesConsole(channel, caller(over))).toBe(expected);
  });
});

function setup(channel: ApprovalChannel, rules: Parameters<typeof compileApprovalRules>[0] = []) {
  const inbox = createApprovalInbox({ ttlMs: 60_000, maxPending: 10, maxPerPrincipal: 10, now: () => 5 });
  const stage = createApprovalStage({
    rules: compileApprovalRules(rules),
    threshold: 'L3',
    now: () => 5,
    channel,
    console: { inbox, modernHoldMs: 1, maskArgs: (args) => ({ ...args, token: '***' }) },
  });
  return { inbox, stage };
}

describe('the approval stage with the console channel', () => {
  it('puts the call in the inbox with masked arguments and runs it once approved', async () => {
    const { inbox, stage } = setup('console');
    const asked: string[] = [];
    const decided = stage.decide(
      tool,
      { path: '/x', token: 'hunter22' },
      caller({
        canElicit: true,
        askApproval: async (prompt) => (asked.push(prompt), 'decline'),
      }),
    );
    const [entry] = inbox.list();
    expect(entry).toMatchObject({
      tool: 'write',
      upstream: 'files',
      risk: 'L2',
      arguments: { path: '/x', token: '***' },
    });
    inbox.decide(entry?.id ?? '', 'approve', { actor: 'admin:ops', reason: 'fine' });
    expect(await decided).toEqual({
      kind: 'run',
      record: {
        mode: 'REQUIRED',
        decision: 'ask',
        channel: 'console',
        elicitation: 'accept',
        approver: 'admin:ops',
        approverReason: 'fine',
        decidedAt: new Date(5).toISOString(),
      },
    });
    expect(asked).toEqual([]);
  });

  it("follows a rule's channel over the global one", async () => {
    const { inbox, stage } = setup('elicitation', [
      { id: 'ops-review', match: { upstream: 'files' }, decision: 'ask', channel: 'console' },
    ]);
    const decided = stage.decide(tool, {}, caller({ canElicit: true }));
    const [entry] = inbox.list();
    expect(entry?.ruleId).toBe('ops-review');
    inbox.decide(entry?.id ?? '', 'decline', { actor: 'admin:ops', reason: 'not now' });
    expect(await decided).toMatchObject({
      kind: 'deny',
      code: 'TOOL_DENIED',
      reason: 'an operator declined this call: not now',
      record: { channel: 'console', elicitation: 'decline', approver: 'admin:ops' },
    });
  });

  it('ends a modern round with ApprovalPending while nobody has answered', async () => {
    const { inbox, stage } = setup('both');
    await expect(stage.decide(tool, {}, caller({ era: 'modern' }))).rejects.toBeInstanceOf(ApprovalPending);
    expect(inbox.list()).toHaveLength(1);
  });

  it('refuses with APPROVAL_INBOX_FULL past the bound', async () => {
    const inbox = createApprovalInbox({ ttlMs: 60_000, maxPending: 1, maxPerPrincipal: 1, now: () => 5 });
    const stage = createApprovalStage({
      rules: compileApprovalRules([]),
      threshold: 'L3',
      now: () => 5,
      channel: 'console',
      console: { inbox, modernHoldMs: 1, maskArgs: (args) => args },
    });
    void stage.decide(tool, { n: 1 }, caller());
    expect(await stage.decide(tool, { n: 2 }, caller())).toMatchObject({
      kind: 'deny',
      code: 'APPROVAL_INBOX_FULL',
    });
    inbox.close();
  });

  it('rejects an unknown channel on a rule', () => {
    expect(() =>
      compileApprovalRules([
        { id: 'x', match: {}, decision: 'ask', channel: 'pager' as unknown as ApprovalChannel },
      ]),
    ).toThrow(/channel must be elicitation, console or both/);
  });
});
