/**
 * The risk of an exposed tool as the approval and record stages read it: the levels of the risk engine's own
 * result, flattened. A tool the risk engine has not scored counts as L5 (fail closed, docs/rules/risk-model.md).
 */
import type { RiskFloorTrigger, RiskLevel } from '../risk/index.ts';
import type { ExposedTool } from '../exposure/index.ts';

/** What the call stages need of a tool's risk. */
export interface CallRisk {
  /** The level that gates the call: the HITL-credited level, else the inherent one, else L5. */
  effective: RiskLevel;
  server?: RiskLevel;
  publish?: RiskLevel;
  /** The floor override that fired, or null. */
  floorTrigger: RiskFloorTrigger | null;
  /** True when the level was lowered one band for human-in-the-loop. */
  hitlMitigated: boolean;
}

/** The risk of a tool; an unscored tool is L5 with no credit. */
export function toolRiskOf(tool: ExposedTool): CallRisk {
  const risk = tool.governance?.risk;
  if (risk === undefined) return { effective: 'L5', floorTrigger: null, hitlMitigated: false };
  return {
    effective: risk.effective,
    ...(risk.server === undefined ? {} : { server: risk.server.level }),
    ...(risk.publish === undefined ? {} : { publish: risk.publish.level }),
    floorTrigger: risk.floorTrigger,
    hitlMitigated: risk.hitlMitigated,
  };
}
