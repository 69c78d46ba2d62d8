// Composition of server and tool risk, HITL mitigation, aggregation and the max-risk cap
// (docs/rules/risk-model.md, R-COMP-1 to R-COMP-6).
import { bucketScore } from './bucket.ts';
import { maxRisk, riskFromOrdinal, riskOrdinal } from './levels.ts';
import type { RiskLevel } from './levels.ts';

/** The part of a scorer result the composer reads (a ServerRisk or a ToolPublishRisk fits). */
export interface ScoredSide<Trigger extends string = string> {
  readonly level: RiskLevel | null;
  readonly totalScore: number;
  readonly floorTrigger: Trigger | null;
}

/** The composed risk of a server + tool pair. */
export interface ComposedRisk<Trigger extends string = string> {
  readonly level: RiskLevel;
  /** The sum of both totals, for display; the level only follows it when no floor fired. */
  readonly totalScore: number;
  /** The server's floor if any, else the tool's, else null. */
  readonly floorTrigger: Trigger | null;
  /** `floor_max`: a floor fired, so the higher level wins; `sum_bucket`: the summed totals were bucketed. */
  readonly rule: 'floor_max' | 'sum_bucket';
}

/**
 * Composes server and tool risk (R-COMP-1): with a floor on either side the level is the higher
 * of the two (a null level counts as L1) and totals are not added; otherwise the summed totals are bucketed.
 */
export function composeRisk<S extends string, T extends string>(
  server: ScoredSide<S>,
  tool: ScoredSide<T>,
): ComposedRisk<S | T> {
  const totalScore = server.totalScore + tool.totalScore;
  const floorTrigger = server.floorTrigger ?? tool.floorTrigger;
  if (floorTrigger !== null) {
    return {
      level: maxRisk(server.level ?? 'L1', tool.level ?? 'L1'),
      totalScore,
      floorTrigger,
      rule: 'floor_max',
    };
  }
  return { level: bucketScore(totalScore), totalScore, floorTrigger: null, rule: 'sum_bucket' };
}

/**
 * The level after human-in-the-loop credit (R-COMP-2): with HITL on, one band lower but
 * never below L1, so L0 becomes L1; with HITL off, unchanged.
 */
export function applyHitlMitigation(level: RiskLevel, hitl: boolean): RiskLevel {
  if (!hitl) return level;
  return riskFromOrdinal(Math.max(1, riskOrdinal(level) - 1));
}

/** The level of a set of members (R-COMP-5): the highest, ignoring nulls; L0 when empty. */
export function aggregateRisk(levels: Iterable<RiskLevel | null | undefined>): RiskLevel {
  let result: RiskLevel = 'L0';
  for (const level of levels) {
    if (level !== null && level !== undefined) result = maxRisk(result, level);
  }
  return result;
}

/** The default cap of the exposed-tools set when none is configured (R-COMP-6). */
export const DEFAULT_EXPOSED_MAX_RISK: RiskLevel = 'L5';

/** True when a level is above the cap, so the member must not be exposed. */
export function exceedsMaxRisk(level: RiskLevel, cap: RiskLevel): boolean {
  return riskOrdinal(level) > riskOrdinal(cap);
}
