/**
 * The typed risk of an exposed tool, as the approval and record stages read it. The one place on the call path
 * that reads `ToolGovernance.risk`: when that field carries the risk engine's own result types, only this file
 * changes. A tool the risk engine has not scored counts as L5 (fail closed, docs/rules/risk-model.md).
 */
import { isRiskLevel, type RiskLevel } from '../risk/index.ts';
import type { ExposedTool } from '../exposure/types.ts';

/** What the call stages need of a tool's risk. */
export interface ToolRisk {
  /** The level that gates the call: the HITL-credited level, else the inherent one, else L5. */
  effective: RiskLevel;
  server?: RiskLevel;
  publish?: RiskLevel;
  /** The floor override that fired, or null. */
  floorTrigger: string | null;
  /** True when the level was lowered one band for human-in-the-loop. */
  hitlMitigated: boolean;
}

/** The risk of a tool; an unscored tool is L5 with no credit. */
export function toolRiskOf(tool: ExposedTool): ToolRisk {
  const risk = tool.governance?.risk;
  const server = levelOf(risk?.server);
  const publish = levelOf(risk?.publish);
  return {
    effective: levelOf(risk?.effective) ?? levelOf(risk?.final) ?? 'L5',
    ...(server === undefined ? {} : { server }),
    ...(publish === undefined ? {} : { publish }),
    floorTrigger: typeof risk?.floorTrigger === 'string' ? risk.floorTrigger : null,
    hitlMitigated: risk?.hitlMitigated === true,
  };
}

/** A level given as itself or as an assessment carrying `level` (the server and publish scorers' results). */
function levelOf(value: unknown): RiskLevel | undefined {
  if (isRiskLevel(value)) return value;
  if (typeof value === 'object' && value !== null && 'level' in value && isRiskLevel(value.level)) {
    return value.level;
  }
  return undefined;
}
