import { describe, expect, it } from 'vitest';
import { floorLines, relayLaunch, type FloorComparison } from '../relay-floor.ts';

const targets = { p50DeltaMs: 1.0, throughputRatio: 0.8 };

function relays(seq: [number, number, number], par: [number, number, number]): FloorComparison[] {
  return (['relay-bytes', 'relay-json', 'relay-sdk'] as const).flatMap((path, i) => [
    { path, concurrency: 1, p50DeltaMs: seq[i] as number, throughputRatio: 0.5 },
    { path, concurrency: 16, p50DeltaMs: 3, throughputRatio: par[i] as number },
  ]);
}

describe('floorLines', () => {
  it.each([
    {
      name: 'every relay within both targets: the summary only',
      comparisons: relays([0.2, 0.3, 0.9], [0.95, 0.9, 0.85]),
      expected: [/relay-bytes \+0\.20 ms sequential, 95\.0% of direct at concurrency 16; relay-json/],
    },
    {
      name: 'bytes and json below the share: no relay could reach it, the better one is named',
      comparisons: relays([0.2, 0.3, 0.9], [0.75, 0.775, 0.66]),
      expected: [
        /reference relays/,
        /best relay that governs nothing \(relay-json\) reached 77\.5% .* could reach 80\.0%/,
      ],
    },
    {
      name: 'bytes below the share but json above it: no claim about the floor',
      comparisons: relays([0.2, 0.3, 0.9], [0.75, 1.1, 0.66]),
      expected: [/reference relays/],
    },
    {
      name: 'the sdk relay over the sequential budget: the first relay over it is named',
      comparisons: relays([0.2, 0.3, 1.2], [0.9, 0.85, 0.82]),
      expected: [/reference relays/, /relay-sdk alone adds \+1\.20 ms sequential, over the 1\.0 ms budget/],
    },
    {
      name: 'both misses',
      comparisons: relays([0.2, 1.1, 1.4], [0.7, 0.6, 0.5]),
      expected: [/reference relays/, /\(relay-bytes\) reached 70\.0%/, /relay-json alone adds \+1\.10 ms/],
    },
  ])('$name', ({ comparisons, expected }) => {
    const lines = floorLines(comparisons, 16, targets);
    expect(lines).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(lines[i]).toMatch(pattern));
  });

  it('says not measured when a relay cell is missing', () => {
    expect(floorLines(relays([0.2, 0.3, 0.9], [0.9, 0.9, 0.9]).slice(1), 16, targets)).toEqual([
      'reference relays: not measured',
    ]);
  });
});

describe('relayLaunch', () => {
  it('runs the reference relay script in the given mode in front of the stdio echo upstream', () => {
    const launch = relayLaunch('json');
    expect(launch.args).toEqual(expect.arrayContaining(['json']));
    expect(launch.args.join(' ')).toMatch(/bench\/reference-relay\.ts json .*bench\/echo-server\.ts stdio$/);
  });
});
