import { describe, expect, it } from 'vitest';
import type { RiskLevel } from '../risk/index.ts';
import type { CompositionSubject } from './compositions.ts';
import { riskCapGuard } from './risk-cap-guard.ts';
import { upstreamTool } from './test/fixtures.ts';

function composition(cap: RiskLevel, levels: RiskLevel[]): CompositionSubject {
  const tools = levels.map((level, i) => upstreamTool('files', `t${i}`, { effective: level }));
  return {
    id: 'c',
    cap,
    tools,
    members: tools.map((t) => ({ serverId: t.upstream, toolName: t.upstreamTool, exposedAlias: t.alias })),
  };
}

describe('riskCapGuard', () => {
  it.each([
    ['every member at the cap', 'L3', ['L3', 'L2'], []],
    ['one member above the cap', 'L3', ['L2', 'L4'], ['over_max_risk: files_t1 is L4, above the cap L3']],
    ['two members above the cap', 'L1', ['L2', 'L5'], ['files_t0 is L2', 'files_t1 is L5']],
    ['a cap of L5 admits everything', 'L5', ['L5'], []],
    ['a cap of L0 admits only L0', 'L0', ['L0', 'L1'], ['files_t1 is L1']],
  ] as const)('%s', (_name, cap, levels, messages) => {
    const [decision] = riskCapGuard.decide([composition(cap, [...levels])], () => false);
    if (messages.length === 0) {
      expect(decision).toEqual({ kind: 'allow' });
      return;
    }
    expect(decision?.kind === 'withhold' && decision.reason).toBe('composition-refused');
    const found = decision?.kind === 'withhold' ? decision.findings.map((f) => f.message) : [];
    expect(found).toHaveLength(messages.length);
    messages.forEach((message, i) => expect(found[i]).toContain(message));
  });

  it('skips a member the risk engine has not scored', () => {
    const subject = composition('L0', ['L4']);
    const [tool] = subject.tools;
    if (tool) tool.governance = {};
    expect(riskCapGuard.decide([subject], () => false)).toEqual([{ kind: 'allow' }]);
  });
});
