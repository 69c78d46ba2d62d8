import { describe, expect, it } from 'vitest';
import { recordId } from './record-id.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('recordId', () => {
  it.each([
    [0, '00000000-0000'],
    [1, '00000000-0001'],
    [Date.parse('2026-11-22T15:00:00.000Z'), '01a203c5-6d80'],
    [2 ** 48 - 1, 'ffffffff-ffff'],
    [2 ** 48 + 5, '00000000-0005'],
    [-3, '00000000-0000'],
    [12.9, '00000000-000c'],
  ])('at %d ms starts with %s and is a v7 UUID', (ms, prefix) => {
    const id = recordId(ms);
    expect(id).toMatch(UUID_V7);
    expect(id.startsWith(prefix)).toBe(true);
  });

  it('sorts later records after earlier ones and never repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => recordId(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the version and variant bits and draws fresh random bits for every id across block refills', () => {
    // Several blocks of the random pool: ids made in the same millisecond differ only in their random bits.
    const ids = Array.from({ length: 5000 }, () => recordId(1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect(new Set(ids.map((id) => id.slice(14))).size).toBe(ids.length);
  });
});
