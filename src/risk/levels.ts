/** The shared risk scale L0 < L1 < … < L5 (docs/rules/risk-model.md, R-RISK-1); compare by ordinal, never lexically. */
export const RISK_LEVELS = ['L0', 'L1', 'L2', 'L3', 'L4', 'L5'] as const;

/** One risk level. */
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** The ordinal of a level, 0 to 5. */
export function riskOrdinal(level: RiskLevel): number {
  return RISK_LEVELS.indexOf(level);
}

/** The level of an ordinal, clamped to 0..5. */
export function riskFromOrdinal(ordinal: number): RiskLevel {
  const clamped = Math.min(5, Math.max(0, Math.trunc(ordinal)));
  return RISK_LEVELS[clamped] as RiskLevel;
}

/** The higher of two levels. */
export function maxRisk(a: RiskLevel, b: RiskLevel): RiskLevel {
  return riskOrdinal(a) >= riskOrdinal(b) ? a : b;
}

/** True when `level` is at or above `threshold`. */
export function isRiskAtLeast(level: RiskLevel, threshold: RiskLevel): boolean {
  return riskOrdinal(level) >= riskOrdinal(threshold);
}

/** True when the value is one of L0..L5. */
export function isRiskLevel(value: unknown): value is RiskLevel {
  return typeof value === 'string' && (RISK_LEVELS as readonly string[]).includes(value);
}
