import { describe, expect, it } from 'vitest';
import { aggregateRisk, applyHitlMitigation, composeRisk, exceedsMaxRisk } from './compose.ts';
import type { ScoredSide } from './compose.ts';
import type { RiskLevel } from './levels.ts';

function side(level: RiskLevel | null, totalScore: number, floorTrigger: string | null = null): ScoredSide {
  return { level, totalScore, floorTrigger };
}

describe('composeRisk (R-COMP-1)', () => {
  it.each<[string, ScoredSide, ScoredSide, RiskLevel, string | null, string]>([
    ['L2(1)+L2(1) → L3', side('L2', 1), side('L2', 1), 'L3', null, 'sum_bucket'],
    ['L3(2)+L3(2) → L5', side('L3', 2), side('L3', 2), 'L5', null, 'sum_bucket'],
    ['L4(3)+L2(1) → L5', side('L4', 3), side('L2', 1), 'L5', null, 'sum_bucket'],
    ['L1(0)+L1(0) → L1', side('L1', 0), side('L1', 0), 'L1', null, 'sum_bucket'],
    [
      'tool L4 floor stays L4 with a low server',
      side('L1', 0),
      side('L4', 4, 'description_missing_and_annotations_missing'),
      'L4',
      'description_missing_and_annotations_missing',
      'floor_max',
    ],
    [
      'tool L4 floor, server L5 by sum',
      side('L5', 4),
      side('L4', 4, 'description_missing_and_annotations_missing'),
      'L5',
      'description_missing_and_annotations_missing',
      'floor_max',
    ],
    [
      'server floor gives L5',
      side('L5', 0, 'privileged_oauth_scope'),
      side('L1', 0),
      'L5',
      'privileged_oauth_scope',
      'floor_max',
    ],
    [
      'server trigger reported before tool trigger',
      side('L5', 0, 'privileged_oauth_scope'),
      side('L5', 1, 'irreversible_verb_in_tool_name'),
      'L5',
      'privileged_oauth_scope',
      'floor_max',
    ],
    [
      'null level counts as L1',
      side(null, 0),
      side('L4', 2, 'description_missing_and_annotations_missing'),
      'L4',
      'description_missing_and_annotations_missing',
      'floor_max',
    ],
    // With a floor the totals are not added: 2 + 2 would bucket to L5, the max of the levels is L3.
    ['floor: no re-bucketing of the sum', side('L3', 2), side('L3', 2, 'x'), 'L3', 'x', 'floor_max'],
  ])('%s', (_name, server, tool, level, trigger, rule) => {
    const composed = composeRisk(server, tool);
    expect(composed.level).toBe(level);
    expect(composed.floorTrigger).toBe(trigger);
    expect(composed.rule).toBe(rule);
    expect(composed.totalScore).toBe(server.totalScore + tool.totalScore);
  });
});

describe('applyHitlMitigation (R-COMP-2)', () => {
  it.each<[RiskLevel, boolean, RiskLevel]>([
    ['L5', true, 'L4'],
    ['L4', true, 'L3'],
    ['L3', true, 'L2'],
    ['L2', true, 'L1'],
    ['L1', true, 'L1'],
    ['L0', true, 'L1'],
    ['L5', false, 'L5'],
    ['L0', false, 'L0'],
  ])('%s with HITL %s → %s', (level, hitl, expected) => {
    expect(applyHitlMitigation(level, hitl)).toBe(expected);
  });
});

describe('aggregateRisk (R-COMP-5)', () => {
  it.each<[Array<RiskLevel | null | undefined>, RiskLevel]>([
    [[], 'L0'],
    [[null, undefined], 'L0'],
    [['L2', null, 'L4', 'L1'], 'L4'],
    [['L0'], 'L0'],
    [['L5', 'L3'], 'L5'],
  ])('%j → %s', (levels, expected) => {
    expect(aggregateRisk(levels)).toBe(expected);
  });
});

describe('exceedsMaxRisk', () => {
  it.each<[RiskLevel, RiskLevel, boolean]>([
    ['L3', 'L3', false],
    ['L4', 'L3', true],
    ['L2', 'L3', false],
    ['L5', 'L5', false],
    ['L1', 'L0', true],
  ])('%s over cap %s → %s', (level, cap, expected) => {
    expect(exceedsMaxRisk(level, cap)).toBe(expected);
  });
});
