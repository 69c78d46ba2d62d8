import { describe, expect, it } from 'vitest';
import { findMixedScriptWords } from './homoglyph.ts';
import { SKELETON_LOOK_ALIKES, skeletonOf } from './skeleton.ts';

describe('skeletonOf', () => {
  it.each([
    ['p\u0430ypal_send', 'paypal_send'],
    ['read\u200bfile', 'readfile'],
    ['\u0421\u0410T', 'CAT'],
    ['ｆｕｌｌｗｉｄｔｈ', 'fullwidth'],
    ['plain_name', 'plain_name'],
    ['Привет', 'Пpивeт'],
  ])('%s → %s', (text, skeleton) => {
    expect(skeletonOf(text)).toBe(skeleton);
  });

  it('reads exactly the letters homoglyph.ts flags as look-alikes', () => {
    for (let code = 0x0370; code <= 0x052f; code += 1) {
      const flagged = findMixedScriptWords(`a${String.fromCodePoint(code)}`).length > 0;
      expect([code.toString(16), SKELETON_LOOK_ALIKES.has(code)]).toEqual([code.toString(16), flagged]);
    }
  });
});
