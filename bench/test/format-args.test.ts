import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../args.ts';
import { percent, rate, renderTable, signedMs } from '../format.ts';

describe('parseBenchArgs', () => {
  it('defaults to the full run', () => {
    const args = parseBenchArgs([]);
    expect(args.options).toMatchObject({ calls: 2000, warmup: 500, concurrency: 16, leakCalls: 20_000 });
    expect(args.jsonFile).toBeUndefined();
    expect(args.only).toEqual([]);
    expect(args.profile).toBe(false);
  });

  it.each([
    [['--quick'], { quick: true, calls: 200 }],
    [['--json', 'out.json'], { jsonFile: 'out.json' }],
    [['--json=out.json'], { jsonFile: 'out.json' }],
    [['--only', 'proxy,leak'], { only: ['proxy', 'leak'] }],
    [['--profile'], { profile: true }],
  ])('reads %j', (argv, expected) => {
    const args = parseBenchArgs(argv);
    const flat = { ...args, ...args.options };
    expect(flat).toMatchObject(expected);
  });

  it.each([[['--json']], [['--json', '--quick']], [['--fast']]])('rejects %j with the usage', (argv) => {
    expect(() => parseBenchArgs(argv)).toThrow(/usage: npm run bench/);
  });
});

describe('formatting', () => {
  it.each([
    [0.4234, '+0.42'],
    [-1.5, '-1.50'],
    [Number.NaN, 'n/a'],
  ])('signedMs(%s) = %s', (value, text) => {
    expect(signedMs(value)).toBe(text);
  });

  it('formats rates and ratios', () => {
    expect(rate(12345.6)).toBe('12,346');
    expect(percent(0.8)).toBe('80.0%');
  });

  it('aligns a table: first column left, the rest right', () => {
    const text = renderTable({
      title: 'T',
      columns: ['name', 'n'],
      rows: [
        ['a', '1'],
        ['long name', '100'],
      ],
    });
    expect(text.split('\n')).toEqual([
      'T',
      'name         n',
      '---------  ---',
      'a            1',
      'long name  100',
    ]);
  });
});
