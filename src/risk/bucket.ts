import type { RiskLevel } from './levels.ts';

/**
 * Maps a summed MCP score to a level (R-RISK-2): ≤0 → L1, 1 → L2, 2 → L3, 3 → L4, ≥4 → L5.
 * Never yields L0, which is reserved for built-in tools.
 */
export function bucketScore(score: number): RiskLevel {
  if (score <= 0) return 'L1';
  if (score === 1) return 'L2';
  if (score === 2) return 'L3';
  if (score === 3) return 'L4';
  return 'L5';
}
