import { describe, expect, it } from 'vitest';
import { createPoisoningScanner } from '../../src/poisoning/index.ts';
import { createRandom, createToolCorpus, PAYLOADS } from '../tool-corpus.ts';

describe('createRandom', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = createRandom(7);
    const b = createRandom(7);
    const c = createRandom(8);
    const first = Array.from({ length: 100 }, a);
    expect(Array.from({ length: 100 }, b)).toEqual(first);
    expect(Array.from({ length: 100 }, c)).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('createToolCorpus', () => {
  const corpus = createToolCorpus({ count: 500, poisonedShare: 0.04, seed: 1 });

  it('builds the count asked for, with unique exposable names, deterministically', () => {
    expect(corpus).toHaveLength(500);
    const names = corpus.map((c) => c.tool.name);
    expect(new Set(names).size).toBe(500);
    expect(names.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);
    expect(createToolCorpus({ count: 500, poisonedShare: 0.04, seed: 1 })).toEqual(corpus);
  });

  it('gives every tool a description and an object schema whose properties are described', () => {
    for (const { tool } of corpus) {
      expect(tool.description?.length).toBeGreaterThan(20);
      const schema = tool.inputSchema as {
        type: string;
        properties: Record<string, { description?: string }>;
      };
      expect(schema.type).toBe('object');
      const properties = Object.values(schema.properties);
      expect(properties.length).toBeGreaterThanOrEqual(2);
      expect(
        properties.every((p) => typeof p.description === 'string' && !p.description.includes('{noun}')),
      ).toBe(true);
    }
  });

  it('plants payloads in the share asked for, and none without', () => {
    expect(corpus.filter((c) => c.plantedIn !== undefined)).toHaveLength(20);
    expect(createToolCorpus({ count: 100, poisonedShare: 0, seed: 1 }).some((c) => c.plantedIn)).toBe(false);
  });

  it('is labelled truthfully: the scanner flags every planted tool and no honest one', () => {
    const scanner = createPoisoningScanner();
    for (const { tool, plantedIn } of corpus) {
      const result = scanner.scanTool(tool);
      expect(result.clean, tool.name).toBe(plantedIn === undefined);
      if (plantedIn) expect(result.matches.some((m) => m.fieldPath === plantedIn)).toBe(true);
    }
  });

  it.each(PAYLOADS.map((payload) => [payload]))('payload %j is flagged on its own', (payload) => {
    expect(createPoisoningScanner().scanText(payload).clean).toBe(false);
  });
});
