import { describe, expect, it } from 'vitest';
import type { ExposedTool, ToolGovernance } from '../exposure/types.ts';
import { effectiveRiskOf } from './approval-stage.ts';
import { toolRiskOf } from './tool-risk.ts';

const definition = { name: 't', inputSchema: { type: 'object' as const } };
const toolWith = (governance?: ToolGovernance): ExposedTool => ({
  alias: 't',
  origin: 'upstream',
  upstream: 'u',
  upstreamTool: 't',
  definition,
  source: definition,
  hitl: 'REQUIRED',
  exposed: true,
  ...(governance === undefined ? {} : { governance }),
});

describe('toolRiskOf', () => {
  it('reads the risk engine result: effective level, server and publish assessments, floor, credit', () => {
    const tool = toolWith({
      risk: {
        server: { level: 'L1', totalScore: 3 },
        publish: { level: 'L3' },
        final: 'L3',
        effective: 'L2',
        floorTrigger: 'irreversible-verb',
        hitlMitigated: true,
      },
    });
    expect(toolRiskOf(tool)).toEqual({
      effective: 'L2',
      server: 'L1',
      publish: 'L3',
      floorTrigger: 'irreversible-verb',
      hitlMitigated: true,
    });
  });

  it('falls back to the inherent level when no credited level is set', () => {
    expect(effectiveRiskOf(toolWith({ risk: { final: 'L1' } }))).toBe('L1');
  });

  it.each<[string, ToolGovernance | undefined]>([
    ['an unscored tool', undefined],
    ['a tool without risk', { category: 'x' }],
    ['a level outside the scale', { risk: { final: 'L9', effective: 'high' } }],
  ])('counts %s as L5 with no credit (fail closed)', (_name, governance) => {
    expect(toolRiskOf(toolWith(governance))).toEqual({
      effective: 'L5',
      floorTrigger: null,
      hitlMitigated: false,
    });
  });
});
