import { describe, expect, it } from 'vitest';
import { assignAliases, defaultAlias, EXPOSED_NAME_PATTERN, sanitizeName } from './aliases.ts';

describe('exposed tool names', () => {
  it.each([
    ['everything', 'echo', 'everything_echo'],
    ['files', 'read.file', 'files_read_file'],
    ['files', 'résumé tool', 'files_r_sum__tool'],
    ['a', 'x'.repeat(100), undefined],
  ])('defaultAlias(%s, %s)', (upstream, tool, expected) => {
    const alias = defaultAlias(upstream, tool);
    expect(alias).toMatch(EXPOSED_NAME_PATTERN);
    if (expected !== undefined) expect(alias).toBe(expected);
    else expect(alias).toHaveLength(64);
  });

  it('keeps long names distinct by a hash of the full name', () => {
    const a = defaultAlias('srv', `${'x'.repeat(80)}_one`);
    const b = defaultAlias('srv', `${'x'.repeat(80)}_two`);
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(64);
  });

  it('sanitizes to the grammar', () => {
    expect(sanitizeName('')).toBe('_');
    expect(sanitizeName('a b/c')).toBe('a_b_c');
  });

  it('resolves collisions of default names deterministically, whatever the order', () => {
    const requests = [
      { key: 'a::x.y', wanted: 'a_x_y', explicit: false },
      { key: 'a::x_y', wanted: 'a_x_y', explicit: false },
      { key: 'b::z', wanted: 'b_z', explicit: false },
    ];
    const one = assignAliases(requests);
    const two = assignAliases([...requests].reverse());
    expect([...one.aliases.entries()].sort()).toEqual([...two.aliases.entries()].sort());
    const names = [...one.aliases.values()];
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(EXPOSED_NAME_PATTERN);
    expect(one.conflicts).toEqual([]);
  });

  it('lets an explicit alias win and reports two explicit aliases that collide', () => {
    const result = assignAliases([
      { key: 'a::t', wanted: 'shared', explicit: true },
      { key: 'b::shared', wanted: 'shared', explicit: false },
      { key: 'c::t', wanted: 'shared', explicit: true },
    ]);
    expect(result.aliases.get('a::t')).toBe('shared');
    expect(result.aliases.get('b::shared')).not.toBe('shared');
    expect(result.conflicts).toEqual([{ alias: 'shared', keys: ['a::t', 'c::t'] }]);
  });
});
