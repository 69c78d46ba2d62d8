// The committed model (src/poisoning/model-weights.json) is exactly what scripts/train-poisoning.ts trains
// from the committed corpus: no hand edits, no weights left stale by a change to the features or the corpus.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCorpus, selectSplit } from '../../scripts/corpus/load.ts';
import { weightsJson } from '../../scripts/corpus/model-training.ts';

describe('poisoning model weights', () => {
  it('are reproduced byte for byte by the training script, from train and dev only', () => {
    const corpus = loadCorpus();
    const entries = [...selectSplit(corpus, 'train'), ...selectSplit(corpus, 'dev')];
    const test = new Set(corpus.splits.test);
    expect(entries.some((entry) => test.has(entry.id))).toBe(false);
    const committed = readFileSync(
      new URL('../../src/poisoning/model-weights.json', import.meta.url),
      'utf8',
    );
    expect(weightsJson(entries).json === committed).toBe(true);
  }, 300_000);
});
