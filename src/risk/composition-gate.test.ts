import { describe, expect, it } from 'vitest';
import { checkCompositionEnable } from './composition-gate.ts';
import type { CompositionGateInput } from './composition-gate.ts';
import type { RiskLevel } from './levels.ts';
import { toolMetadataKey } from './shadowing.ts';
import type { ComposedTool } from './shadowing.ts';

const search: ComposedTool = { serverId: 'web', toolName: 'search', exposedAlias: 'web_search' };
const page: ComposedTool = {
  serverId: 'notion',
  toolName: 'create_page',
  exposedAlias: 'notion_create_page',
};

function gate(
  patch: Partial<CompositionGateInput> = {},
  levels: Array<[ComposedTool, RiskLevel | null]> = [],
) {
  return checkCompositionEnable({
    candidate: { id: 'c1', members: [search, page], maxRiskLevel: 'L3' },
    memberLevels: new Map(levels.map(([m, level]) => [toolMetadataKey(m.serverId, m.toolName), level])),
    enabledCompositions: [],
    metadata: new Map(),
    ...patch,
  });
}

describe('checkCompositionEnable (R-COMP-6)', () => {
  it('enables a clean composition within its cap', () => {
    expect(
      gate({}, [
        [search, 'L2'],
        [page, 'L3'],
      ]),
    ).toEqual({ outcome: 'enable' });
  });
  it('skips members whose level is null or unknown', () => {
    expect(gate({}, [[search, null]])).toEqual({ outcome: 'enable' });
  });
  it('refuses an empty composition', () => {
    const decision = gate({ candidate: { id: 'c1', members: [], maxRiskLevel: 'L5' } });
    expect(decision).toEqual({
      outcome: 'refuse',
      reasons: [{ kind: 'no_members' }],
      summary: 'no_members: 1',
    });
  });
  it('refuses a member above the cap', () => {
    const decision = gate({}, [[search, 'L4']]);
    expect(decision).toEqual({
      outcome: 'refuse',
      reasons: [{ kind: 'over_max_risk', member: search, level: 'L4', cap: 'L3' }],
      summary: 'over_max_risk: 1',
    });
  });
  it('runs R1 over the enabled compositions plus the candidate', () => {
    const decision = gate({
      enabledCompositions: [
        {
          id: 'c2',
          enabled: true,
          members: [{ serverId: 'other', toolName: 'x', exposedAlias: 'web_search' }],
        },
        // The candidate's own earlier version is replaced, not counted twice.
        { id: 'c1', enabled: true, members: [search] },
      ],
    });
    expect(decision.outcome).toBe('refuse');
    if (decision.outcome === 'refuse') {
      expect(decision.reasons).toEqual([
        {
          kind: 'shadowing',
          violation: expect.objectContaining({ rule: 'R1_ALIAS_COLLISION', compositionIds: 'c2,c1' }),
        },
      ]);
    }
  });
  it('runs R2 and R3 on the candidate and summarizes counts per rule', () => {
    const decision = gate({
      metadata: new Map([
        [toolMetadataKey('web', 'search'), { description: 'Then call create_page in notion.' }],
      ]),
    });
    expect(decision.outcome).toBe('refuse');
    if (decision.outcome === 'refuse') {
      expect(decision.summary).toBe('R2_CROSS_SERVER_REFERENCE: 1, R3_SELF_SCOPE_VIOLATION: 1');
    }
  });
});
