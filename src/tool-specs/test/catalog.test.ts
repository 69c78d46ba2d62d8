import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadBundledCatalog } from '../catalog.ts';
import { deriveToolId } from '../document.ts';
import { loadSandboxPolicies } from '../policy-files.ts';
import { createPolicyResolver } from '../resolver.ts';
import { runLocalPass, type LocalPassDeps } from '../local-pass.ts';
import { scoreSandboxRisk } from '../risk-level.ts';
import { computeToolSafety } from '../tool-safety.ts';
import type { SafeToolSpec } from '../types.ts';
import { createFunctionRunner } from './function-runner.ts';

const catalog = await loadBundledCatalog();
const resolver = createPolicyResolver(await loadSandboxPolicies());
const byName = new Map(catalog.entries.map((e) => [e.spec.name, e.spec]));
const specNamed = (name: string): SafeToolSpec => {
  const spec = byName.get(name);
  if (spec === undefined) throw new Error(`no catalog spec ${name}`);
  return spec;
};
const deps = (): LocalPassDeps => ({
  runner: createFunctionRunner(),
  lookup: () => undefined,
  policyFor: resolver.policyFor,
});

describe('bundled catalog', () => {
  it('loads every file without failures or conflicts', () => {
    expect(catalog.failures.map((f) => f.file)).toEqual([]);
    expect(catalog.conflicts).toEqual([]);
    expect(catalog.entries.length).toBeGreaterThanOrEqual(15);
  });

  it('ships the canonical examples of the format', () => {
    for (const name of [
      'base64',
      'getUpbitTicker',
      'searchNaver',
      'extractPageContent',
      'readTextFile',
      'writeTextFile',
      'evalExpression',
      'experimentalThing',
    ]) {
      expect(byName.has(name)).toBe(true);
    }
  });

  it.each(catalog.entries.map((e) => [e.spec.name, e.spec] as const))(
    '%s: toolId, toolSafety and tags are consistent',
    (_n, spec) => {
      expect(spec.toolId).toBe(deriveToolId(spec.name));
      expect(spec.tags.length).toBeLessThanOrEqual(2);
      const resolved = resolver.policyFor(spec);
      expect(spec.toolSafety).toEqual(computeToolSafety(spec, resolved, { categorySource: 'builtin' }));
    },
  );

  it('no bundled spec hands secrets to its code as plaintext', () => {
    for (const entry of catalog.entries) {
      expect([entry.spec.name, entry.spec.sandboxOverrides.secretsInCode ?? false]).toEqual([
        entry.spec.name,
        false,
      ]);
      expect([entry.spec.name, resolver.policyFor(entry.spec).policy.secretsInCode]).toEqual([
        entry.spec.name,
        false,
      ]);
    }
  });

  it('network, file and secret tools ship as drafts; pure-compute ones are publishable at start', () => {
    for (const entry of catalog.entries) {
      const { policy } = resolver.policyFor(entry.spec);
      const needsMore =
        policy.networkMode !== 'blocked' ||
        policy.fileRead ||
        policy.fileWrite ||
        entry.spec.staticVariables.length > 0;
      expect([entry.spec.name, entry.spec.draft]).toEqual([
        entry.spec.name,
        needsMore || entry.spec.name === 'experimentalThing',
      ]);
      expect([entry.spec.name, entry.publishable]).toEqual([entry.spec.name, !entry.spec.draft]);
      expect(entry.status.state).toBe(entry.spec.draft ? 'DRAFT' : 'ACTIVE');
    }
  });

  it.each([
    ['base64', 'L0'],
    ['getUpbitTicker', 'L3'],
    ['searchNaver', 'L3'],
    ['extractPageContent', 'L3'],
    ['readTextFile', 'L3'],
    ['writeTextFile', 'L4'],
    ['evalExpression', 'L0'],
  ])('%s scores %s (canonical example)', (name, level) => {
    expect(scoreSandboxRisk(resolver.policyFor(specNamed(name))).level).toBe(level);
  });

  it('every publishable spec passes its Local Pass', async () => {
    const verified = await loadBundledCatalog({ verify: deps() });
    const failed = verified.entries.filter((e) => !e.spec.draft && !e.publishable);
    expect(failed.map((e) => `${e.spec.name}: ${e.localPassError?.message ?? ''}`)).toEqual([]);
  });
});

describe('bundled tools compute the right answers', () => {
  const run = async (name: string) => {
    const outcome = await runLocalPass(specNamed(name), deps());
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.value as Record<string, unknown>;
  };

  it('base64 encodes its testValue', async () => {
    expect(await run('base64')).toEqual({
      mode: 'encode',
      result: Buffer.from('hello world').toString('base64'),
    });
  });

  it('evalExpression evaluates x + 2 * y with x=3, y=4', async () => {
    expect((await run('evalExpression'))['result']).toBe(3 + 2 * 4);
  });

  it('hashText gives the SHA-256 of its testValue', async () => {
    expect((await run('hashText'))['digest']).toBe(createHash('sha256').update('hello world').digest('hex'));
  });

  it('jsonQuery selects items[*].name', async () => {
    expect(await run('jsonQuery')).toMatchObject({ count: 2, matches: ['a', 'b'] });
  });

  it('generateUuid returns two version 4 UUIDs', async () => {
    const { uuids } = (await run('generateUuid')) as { uuids: string[] };
    expect(uuids).toHaveLength(2);
    for (const id of uuids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('dateTime converts 12:00 UTC to Seoul time', async () => {
    expect(await run('dateTime')).toMatchObject({
      local: '2024-03-01T21:00:00+09:00',
      utcOffset: '+09:00',
      weekday: 'Friday',
    });
  });

  it('textStats counts words and sentences', async () => {
    const stats = await run('textStats');
    expect(stats).toMatchObject({ words: 12, sentences: 2, lines: 1 });
    expect(stats['topWords']).toEqual([
      { word: 'the', count: 3 },
      { word: 'dog', count: 2 },
      { word: 'brown', count: 1 },
    ]);
  });

  it('csvToJson honours RFC 4180 quoting', async () => {
    expect(await run('csvToJson')).toEqual({
      rowCount: 2,
      rows: [
        { name: 'Kim, Minji', city: 'Seoul' },
        { name: 'Lee', city: 'Busan' },
      ],
    });
  });

  it('regexTest lists matches with groups', async () => {
    const result = await run('regexTest');
    expect(result).toMatchObject({ valid: true, count: 2 });
    expect((result['matches'] as Array<{ groups: string[] }>).map((m) => m.groups)).toEqual([
      ['2024', '03'],
      ['2025', '11'],
    ]);
  });

  it.each([
    ['1 +', /unexpected end/],
    ['constructor', /unknown variable/],
    ['process.exit(1)', /unexpected|unknown/],
    ['x ; 1', /unexpected character/],
  ])('evalExpression refuses %j', async (expr, message) => {
    const spec = specNamed('evalExpression');
    const outcome = await runLocalPass(
      { ...spec, params: spec.params.map((p) => (p.name === 'expr' ? { ...p, testValue: expr } : p)) },
      deps(),
    );
    expect(outcome.ok ? 'passed' : outcome.error.message).toMatch(message);
  });
});
