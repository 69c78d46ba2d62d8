import { describe, expect, it } from 'vitest';
import { bucketScore } from './bucket.ts';

describe('bucketScore (R-RISK-2)', () => {
  it.each([
    [-3, 'L1'],
    [0, 'L1'],
    [1, 'L2'],
    [2, 'L3'],
    [3, 'L4'],
    [4, 'L5'],
    [9, 'L5'],
  ])('score %i → %s', (score, level) => {
    expect(bucketScore(score)).toBe(level);
  });
});
