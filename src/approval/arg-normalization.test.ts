import { describe, expect, it } from 'vitest';
import type { ApprovalRuleConfig } from '../config/index.ts';
import { isPortcullisError } from '../errors/index.ts';
import { compileApprovalRules } from './index.ts';
import type { ApprovalCall } from './rules.ts';

const call = (args: unknown): ApprovalCall => ({
  alias: 'files_read',
  origin: 'upstream',
  upstream: 'files',
  tool: 'read_file',
  risk: 'L2',
  args,
  principal: 'alice',
});
const verdict = (rule: Partial<ApprovalRuleConfig>, args: unknown) =>
  compileApprovalRules([{ id: 'r', match: {}, decision: 'deny', ...rule } as ApprovalRuleConfig]).evaluate(
    call(args),
    0,
  ).kind;

const NFD_GEHEIM = 'ge\u0301heim'; // "géheim" written as e + combining acute accent

describe('a deny rule on a path matches what the call will touch', () => {
  it.each([
    ['dot-dot back into the folder', 'innocent/../secrets/x'],
    ['dot-dot above the start', 'innocent/../../secrets/x'],
    ['a leading dot-dot', '../secrets/x'],
    ['repeated slashes', 'a//secrets///x'],
    ['backslashes', 'a\\secrets\\x'],
    ['upper case', '/srv/SECRETS/x'],
    ['mixed case', '/srv/Secrets/X'],
    ['upper case after dot-dot', '/srv/public/../SeCrEtS/x'],
  ])('%s: %j', (_name, path) => {
    expect(verdict({ match: { args: { '/path': '**/secrets/**' } } }, { path })).toBe('deny');
  });

  it('matches a value in another Unicode normalization form than the rule', () => {
    const rule = { match: { args: { '/path': '**/g\u00e9heim/**' } } };
    expect(verdict(rule, { path: `/srv/${NFD_GEHEIM}/x` })).toBe('deny');
    const nfdRule = { match: { args: { '/path': `**/${NFD_GEHEIM}/**` } } };
    expect(verdict(nfdRule, { path: '/srv/g\u00e9heim/x' })).toBe('deny');
  });

  it('folds case for regexes of restrictive rules too', () => {
    expect(verdict({ match: { args: { '/path': { regex: '/secrets/' } } } }, { path: '/A/SECRETS/b' })).toBe(
      'deny',
    );
  });

  it('matches case exactly with caseSensitive: true', () => {
    const rule = { match: { args: { '/path': '**/secrets/**' } }, caseSensitive: true };
    expect(verdict(rule, { path: '/srv/SECRETS/x' })).toBe('allow');
    expect(verdict(rule, { path: '/srv/public/../secrets/x' })).toBe('deny');
  });

  it('leaves other paths alone', () => {
    for (const path of ['/srv/secretsauce/x', '/srv/public/x', '/srv/not-secrets/x']) {
      expect(verdict({ match: { args: { '/path': '**/secrets/**' } } }, { path })).toBe('allow');
    }
  });

  it('an allow rule matches the value as given, case and form exactly, unless told to fold', () => {
    const rules = (extra: Partial<ApprovalRuleConfig>) =>
      compileApprovalRules([
        { id: 'ok', match: { args: { '/path': '/srv/public/**' } }, decision: 'allow', ...extra },
        { id: 'rest', match: {}, decision: 'deny', reason: 'no' },
      ]);
    expect(rules({}).evaluate(call({ path: '/srv/PUBLIC/x' }), 0).kind).toBe('deny');
    expect(rules({ caseSensitive: false }).evaluate(call({ path: '/srv/PUBLIC/x' }), 0).kind).toBe('allow');
  });
});

describe('anyArg matches every string argument, at any depth', () => {
  const anyArg = (spec: string | { regex: string }) => ({ match: { anyArg: spec } });

  it.each([
    ['a top-level string', { path: '/srv/secrets/x' }],
    ['a string in an array', { paths: ['/ok', '/srv/secrets/x'] }],
    ['a string deep in objects', { a: { b: { c: [{ d: '/srv/secrets/x' }] } } }],
    ['a normalized string', { edits: [{ file: '/srv/public/../secrets/x' }] }],
    ['a case variant', { target: '/srv/SECRETS/x' }],
  ])('finds %s', (_name, args) => {
    expect(verdict(anyArg('**/secrets/**'), args)).toBe('deny');
  });

  it('takes a regex', () => {
    expect(verdict(anyArg({ regex: '^rm -rf' }), { steps: [{ cmd: 'rm -rf /' }] })).toBe('deny');
  });

  it('does not match numbers, booleans or keys', () => {
    expect(verdict(anyArg('4*'), { size: 42, '42': true })).toBe('allow');
  });

  it('misses when no string matches', () => {
    expect(verdict(anyArg('**/secrets/**'), { paths: ['/a', '/b'], n: 1 })).toBe('allow');
    expect(verdict(anyArg('**/secrets/**'), undefined)).toBe('allow');
  });

  it('walks a very deep argument without recursion and fails closed past its bound', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 50_000; i += 1) deep = [deep];
    expect(verdict(anyArg('**/secrets/**'), { deep })).toBe('deny');
    const wide = { items: Array.from({ length: 20_000 }, (_, i) => `/ok/${i}`) };
    expect(verdict(anyArg('**/secrets/**'), wide)).toBe('deny');
    // The one matching string is visited last, past the bound: an allow rule does not match then.
    const hidden = { items: ['/ok/first', ...Array.from({ length: 20_000 }, (_, i) => `/no/${i}`)] };
    const allow = compileApprovalRules([
      { id: 'ok', match: { anyArg: '/ok/**' }, decision: 'allow' },
      { id: 'rest', match: {}, decision: 'deny', reason: 'no' },
    ]);
    expect(allow.evaluate(call(hidden), 0)).toMatchObject({ kind: 'deny', ruleId: 'rest' });
    expect(allow.evaluate(call({ items: ['/ok/first'] }), 0)).toMatchObject({ kind: 'allow', ruleId: 'ok' });
  });

  it('refuses a bad anyArg at compile time, naming the rule', () => {
    try {
      compileApprovalRules([{ id: 'bad', match: { anyArg: { regex: '(' } }, decision: 'deny' }]);
      expect.unreachable();
    } catch (error) {
      expect(isPortcullisError(error) && error.code).toBe('CONFIG_INVALID');
      expect((error as Error).message).toMatch(/"bad".*anyArg/);
    }
  });
});
