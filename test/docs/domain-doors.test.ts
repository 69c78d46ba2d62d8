/**
 * Each domain's door (src/<domain>/index.ts) exports only what other domains, tests, scripts, the bench or the
 * conformance harness import through it: a name nobody outside uses is internal and stays behind the door
 * (the domain's own files import each other directly). The lint rule eslint-rules/domain-doors.js keeps other
 * domains from reaching past the door; this test keeps the door from growing wider than its users.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SRC = path.join(ROOT, 'src');
const NAMED = /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (/\.(ts|tsx|mts|mjs|js)$/.test(entry.name)) out.push(full);
    }
  }
  return out;
}

const domainOf = (file: string): string | undefined => {
  const rel = path.relative(SRC, file);
  return rel.startsWith('..') || !rel.includes(path.sep) ? undefined : rel.split(path.sep)[0];
};
const nameOf = (spec: string, side: 'imported' | 'exported'): string => {
  const parts = spec
    .trim()
    .replace(/^type\s+/, '')
    .split(/\s+as\s+/);
  return (side === 'imported' ? parts[0] : parts[parts.length - 1])?.trim() ?? '';
};

const sources = ['src', 'test', 'scripts', 'bench', 'conformance']
  .map((top) => path.join(ROOT, top))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(filesUnder);

/** domain → names imported through its door from outside the domain. */
const usedOutside = new Map<string, Set<string>>();
for (const file of sources) {
  for (const match of readFileSync(file, 'utf8').matchAll(NAMED)) {
    const target = path.resolve(path.dirname(file), match[2] ?? '');
    const domain = domainOf(target);
    if (domain === undefined || target !== path.join(SRC, domain, 'index.ts')) continue;
    if (domainOf(file) === domain) continue;
    const names = usedOutside.get(domain) ?? new Set<string>();
    for (const spec of (match[1] ?? '').split(',')) if (spec.trim()) names.add(nameOf(spec, 'imported'));
    usedOutside.set(domain, names);
  }
}

const doors = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map(({ name: domain }) => ({ domain, door: path.join(SRC, domain, 'index.ts') }))
  .filter(({ door }) => statSync(door, { throwIfNoEntry: false })?.isFile());

describe('domain doors', () => {
  it('finds the doors and their users', () => {
    expect(doors.length).toBeGreaterThan(10);
    expect(usedOutside.get('config')?.has('loadConfig')).toBe(true);
  });

  it.each(doors)('src/$domain/index.ts exports only what other domains use', ({ domain, door }) => {
    const exported = [...readFileSync(door, 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap(
      (m) =>
        (m[1] ?? '')
          .split(',')
          .filter((spec) => spec.trim())
          .map((spec) => nameOf(spec, 'exported')),
    );
    const used = usedOutside.get(domain) ?? new Set<string>();
    expect(exported.filter((name) => !used.has(name))).toEqual([]);
  });
});
