import { describe, expect, it } from 'vitest';
import { createMasker } from '../../secrets/masking.ts';
import { CLIP_MARK, longestSecret, maskAndClip } from './clip.ts';

describe('maskAndClip', () => {
  const secret = 'hunter2-secret';
  const masker = createMasker([secret]);
  const margin = longestSecret([secret]);

  it.each([
    ['short text is only masked', `key=${secret}`, false, 50, 'key=***'],
    [
      'long text is clipped after masking',
      `${secret} ${'x'.repeat(60)}`,
      false,
      10,
      `*** xxxxxx${CLIP_MARK}`,
    ],
    [
      'a secret cut by the isolate leaves no fragment',
      `${'x'.repeat(8)}${secret.slice(0, 9)}`,
      true,
      8,
      `${'x'.repeat(3)}${CLIP_MARK}`,
    ],
    [
      'a whole secret before the cut is masked',
      `${secret}${'y'.repeat(20)}`,
      true,
      30,
      `***${'y'.repeat(6)}${CLIP_MARK}`,
    ],
  ])('%s', (_name, text, cut, limit, expected) => {
    expect(maskAndClip(text, cut, limit, masker, margin)).toBe(expected);
  });

  it('finds the longest secret', () => {
    expect(longestSecret(['abcd', 'abcdefgh', 'xyz'])).toBe(8);
    expect(longestSecret([])).toBe(0);
  });
});
