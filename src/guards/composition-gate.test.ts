import { describe, expect, it } from 'vitest';
import type { CompositionConfig, GuardsConfig } from '../config/index.ts';
import type { ExposedTool } from '../exposure/index.ts';
import { createCompositionGate } from './composition-gate.ts';
import { DEFAULT_GUARDS, localTool, upstreamTool } from './test/fixtures.ts';

const explicit = (id: string, maxRisk: CompositionConfig['maxRisk']): CompositionConfig => ({
  id,
  enabled: true,
  maxRisk,
  members: [],
});

function gate(
  tools: ExposedTool[],
  compositions: CompositionConfig[],
  policies: GuardsConfig = DEFAULT_GUARDS,
) {
  const events: { subject: string; payload: Record<string, unknown> }[] = [];
  const guard = createCompositionGate({
    policies,
    compositions,
    log: () => undefined,
    emit: (_type, subject, payload) => events.push({ subject, payload }),
  });
  const decisions = guard.decide(tools, () => false);
  return { decisions: decisions.map((d) => (d.kind === 'withhold' ? d.reason : d.kind)), events };
}

describe('createCompositionGate', () => {
  it.each([
    [
      'an implicit composition is capped at L5 (the exposed-set default)',
      [upstreamTool('files', 'read', { effective: 'L5' })],
      [],
      ['allow'],
    ],
    [
      'an explicit composition over its cap withholds every member',
      [
        upstreamTool('files', 'read', { composition: 'c', effective: 'L2' }),
        upstreamTool('files', 'write', { composition: 'c', effective: 'L4' }),
      ],
      [explicit('c', 'L3')],
      ['composition-refused', 'composition-refused'],
    ],
    [
      'a member of a down upstream takes no part',
      [
        upstreamTool('files', 'read', { composition: 'c', effective: 'L2' }),
        upstreamTool('files', 'write', {
          composition: 'c',
          effective: 'L4',
          exposed: false,
          withheldReason: 'upstream-down',
        }),
      ],
      [explicit('c', 'L3')],
      ['allow', 'allow'],
    ],
    ['a local tool is never part of a composition', [localTool('hash-text')], [], ['allow']],
  ] as const)('%s', (_name, tools, compositions, expected) => {
    expect(gate([...tools], [...compositions]).decisions).toEqual(expected);
  });

  it('records each outcome as CompositionLifecycle and names the refusal on every member', () => {
    const over = upstreamTool('files', 'write', { composition: 'c', effective: 'L4' });
    const { events } = gate([upstreamTool('git', 'log', { effective: 'L1' }), over], [explicit('c', 'L3')]);
    expect(events).toEqual([
      {
        subject: 'c',
        payload: {
          outcome: 'refused',
          summary: 'over_max_risk: 1',
          reasons: ['over_max_risk: files_write is L4, above the cap L3'],
          cap: 'L3',
        },
      },
      { subject: 'upstream:git', payload: { outcome: 'enabled', members: 1, cap: 'L5' } },
    ]);
    expect(over.governance?.compositionRefusal).toEqual([
      'over_max_risk: files_write is L4, above the cap L3',
    ]);
  });

  it.each([
    [
      'riskCap advisory: members stay, annotated',
      { riskCap: { mode: 'advisory', onError: 'closed' } },
      'annotate',
    ],
    ['riskCap off: nothing to say', { riskCap: { mode: 'off', onError: 'closed' } }, 'allow'],
  ] as const)('%s', (_name, over, expected) => {
    const tool = upstreamTool('files', 'write', { composition: 'c', effective: 'L4' });
    const { decisions, events } = gate([tool], [explicit('c', 'L3')], { ...DEFAULT_GUARDS, ...over });
    expect(decisions).toEqual([expected]);
    const advisory =
      expected === 'annotate' ? ['over_max_risk: files_write is L4, above the cap L3'] : undefined;
    expect(events).toEqual([
      {
        subject: 'c',
        payload: { outcome: 'enabled', members: 1, cap: 'L3', ...(advisory ? { advisory } : {}) },
      },
    ]);
  });
});
