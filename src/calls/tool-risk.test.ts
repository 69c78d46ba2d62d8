import { describe, expect, it } from 'vitest';
import type { ExposedTool, LocalToolRisk, ToolGovernance } from '../exposure/types.ts';
import { assessServer, evaluateToolRisk, type RiskLevel } from '../risk/index.ts';
import { effectiveRiskOf } from './approval-stage.ts';
import { toolRiskOf } from './tool-risk.ts';

const definition = { name: 'delete_file', inputSchema: { type: 'object' as const } };
const toolWith = (governance?: ToolGovernance): ExposedTool => ({
  alias: 't',
  origin: 'upstream',
  upstream: 'u',
  upstreamTool: 'delete_file',
  composition: 'upstream:u',
  definition,
  source: definition,
  hitl: 'REQUIRED',
  exposed: true,
  ...(governance === undefined ? {} : { governance }),
});
const localRisk = (final: RiskLevel, effective: RiskLevel): LocalToolRisk => ({
  final,
  effective,
  hitlMitigated: final !== effective,
  poisoned: false,
  floorTrigger: null,
});

describe('toolRiskOf', () => {
  it('reads the risk engine result: effective level, server and publish levels, floor, credit', () => {
    const risk = evaluateToolRisk({
      server: assessServer({ transport: 'stdio', lastUsedAt: null }, null, 0),
      tool: definition,
      hitl: true,
      scan: { clean: true },
    });
    expect(toolRiskOf(toolWith({ risk }))).toEqual({
      effective: risk.effective,
      server: risk.server.level,
      publish: risk.publish.level,
      floorTrigger: risk.floorTrigger,
      hitlMitigated: risk.hitlMitigated,
    });
  });

  it('gates on the credited level', () => {
    expect(effectiveRiskOf(toolWith({ risk: localRisk('L2', 'L1') }))).toBe('L1');
  });

  it.each<[string, ToolGovernance | undefined]>([
    ['an unscored tool', undefined],
    ['a tool without risk', { category: 'x' }],
  ])('counts %s as L5 with no credit (fail closed)', (_name, governance) => {
    expect(toolRiskOf(toolWith(governance))).toEqual({
      effective: 'L5',
      floorTrigger: null,
      hitlMitigated: false,
    });
  });
});
