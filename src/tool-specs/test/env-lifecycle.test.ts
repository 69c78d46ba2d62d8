import { describe, expect, it } from 'vitest';
import { createMasker, type EnvLookup } from '../deps.ts';
import { declaredEnvVars, resolveStaticVariables } from '../env.ts';
import { buildToolArgs, lifecycleOf, prepareToolCall } from '../lifecycle.ts';
import type { LifecycleState } from '../types.ts';
import { specOf } from './fixtures.ts';

const envOf =
  (values: Record<string, string>): EnvLookup =>
  (name) =>
    Object.hasOwn(values, name) ? values[name] : undefined;

const naver = (draft: boolean) =>
  specOf({
    name: 'searchNaver',
    draft,
    params: [{ name: 'query', type: 'STRING', required: true, testValue: 'x' }],
    staticVariables: [
      { naverClientId: '${NAVER_CLIENT_ID}' },
      { naverClientSecret: '${NAVER_CLIENT_SECRET}' },
    ],
  });

describe('declared env vars (R-SPEC-12, R-SECRET-1)', () => {
  it('are the distinct references across values, embedded ones included, first-seen order', () => {
    const spec = specOf({
      name: 'x',
      staticVariables: [
        { auth: 'Bearer ${TOKEN}' },
        { base: 'https://${HOST}/v2/${TOKEN}' },
        { literal: 'no refs here' },
        { lower: '$HOME and $NOT_BRACED' },
        { underscore: '${_UNDERSCORE}' },
      ],
    });
    expect(declaredEnvVars(spec)).toEqual(['TOKEN', 'HOST', '_UNDERSCORE']);
  });
});

describe('lifecycle (R-SPEC-12)', () => {
  it.each<[string, boolean, Record<string, string>, LifecycleState, string[]]>([
    ['draft wins even when env is missing', true, {}, 'DRAFT', []],
    [
      'draft with env set is still DRAFT',
      true,
      { NAVER_CLIENT_ID: 'id-1', NAVER_CLIENT_SECRET: 'secret-1' },
      'DRAFT',
      [],
    ],
    [
      'published with both vars set is ACTIVE',
      false,
      { NAVER_CLIENT_ID: 'id-1', NAVER_CLIENT_SECRET: 'secret-1' },
      'ACTIVE',
      [],
    ],
    [
      'published with one var unset',
      false,
      { NAVER_CLIENT_ID: 'id-1' },
      'MISSING_REQUIREMENTS',
      ['NAVER_CLIENT_SECRET'],
    ],
    [
      'R-SECRET-2: an empty value is missing',
      false,
      { NAVER_CLIENT_ID: '', NAVER_CLIENT_SECRET: 's' },
      'MISSING_REQUIREMENTS',
      ['NAVER_CLIENT_ID'],
    ],
    [
      'R-SECRET-2: a whitespace-only value is missing',
      false,
      { NAVER_CLIENT_ID: ' \t\n', NAVER_CLIENT_SECRET: 's' },
      'MISSING_REQUIREMENTS',
      ['NAVER_CLIENT_ID'],
    ],
    ['nothing set', false, {}, 'MISSING_REQUIREMENTS', ['NAVER_CLIENT_ID', 'NAVER_CLIENT_SECRET']],
  ])('%s', (_label, draft, env, state, missing) => {
    expect(lifecycleOf(naver(draft), envOf(env))).toEqual({ state, missing });
  });

  it('a null spec is DRAFT and TEST_FAILED is never returned', () => {
    expect(lifecycleOf(null, envOf({})).state).toBe('DRAFT');
    const states = new Set<string>();
    for (const draft of [true, false]) {
      for (const env of [{}, { NAVER_CLIENT_ID: 'a', NAVER_CLIENT_SECRET: 'b' }])
        states.add(lifecycleOf(naver(draft), envOf(env)).state);
    }
    expect(states.has('TEST_FAILED')).toBe(false);
  });

  it('R-SECRET-1: a ${_X} reference is required like any other (one grammar for resolver and requirement check)', () => {
    const spec = specOf({ name: 'u', draft: false, staticVariables: [{ k: '${_X}' }] });
    expect(lifecycleOf(spec, envOf({})).missing).toEqual(['_X']);
    expect(resolveStaticVariables(spec, envOf({ _X: 'value-x' })).values).toEqual({ k: 'value-x' });
  });

  it('R-SECRET-2: the lookup function is the single source for the check, the resolution and the masking', () => {
    const asked: string[] = [];
    const lookup: EnvLookup = (name) => {
      asked.push(name);
      return name === 'TOKEN' ? 'tok-123456' : undefined;
    };
    const spec = specOf({ name: 'l', draft: false, staticVariables: [{ auth: 'Bearer ${TOKEN}' }] });
    expect(lifecycleOf(spec, lookup).state).toBe('ACTIVE');
    expect(resolveStaticVariables(spec, lookup).secrets).toEqual(['tok-123456']);
    expect(new Set(asked)).toEqual(new Set(['TOKEN']));
  });
});

describe('static variable resolution (R-SECRET-2)', () => {
  it('substitutes embedded references literally and returns their values as secrets', () => {
    const spec = specOf({
      name: 'r',
      staticVariables: [{ auth: 'Bearer ${TOKEN}' }, { url: 'https://${HOST}/v2' }, { dollar: '${ODD}' }],
    });
    const resolved = resolveStaticVariables(
      spec,
      envOf({ TOKEN: 'tok-abcdef', HOST: 'api.example', ODD: "$&$1\\'" }),
    );
    expect(resolved.values).toEqual({
      auth: 'Bearer tok-abcdef',
      url: 'https://api.example/v2',
      dollar: "$&$1\\'",
    });
    expect(resolved.secrets).toEqual(['tok-abcdef', 'api.example', "$&$1\\'"]);
    expect(resolved.missing).toEqual([]);
  });

  it('leaves a missing reference verbatim and reports it', () => {
    const spec = specOf({ name: 'm', staticVariables: [{ auth: 'Bearer ${TOKEN}' }] });
    expect(resolveStaticVariables(spec, envOf({ TOKEN: '  ' }))).toEqual({
      values: { auth: 'Bearer ${TOKEN}' },
      secrets: [],
      missing: ['TOKEN'],
    });
  });

  it('a later duplicate key wins', () => {
    const spec = specOf({ name: 'd', staticVariables: [{ k: 'first' }, { k: 'second' }] });
    expect(resolveStaticVariables(spec, envOf({})).values).toEqual({ k: 'second' });
  });
});

describe('masking the resolved secrets (createMasker, R-SECRET-3)', () => {
  it.each<[string, string[], string, string]>([
    ['replaces every occurrence with ***', ['tok-abcdef'], 'a tok-abcdef b tok-abcdef', 'a *** b ***'],
    ['skips values shorter than 4', ['abc'], 'abc abcd', 'abc abcd'],
    ['masks values of length 4', ['abcd'], 'x abcd y', 'x *** y'],
    [
      'R-SECRET-3: longest first, so no suffix of a longer secret leaks',
      ['secret', 'secret-long-value'],
      'secret-long-value',
      '***',
    ],
    ['is plain substring replacement, no regex', ['a.b*c'], 'xa.b*cy axbbc', 'x***y axbbc'],
  ])('%s', (_label, secrets, text, masked) => {
    expect(createMasker(secrets).mask(text)).toBe(masked);
  });

  it('R-SECRET-2, value identity: an embedded secret is masked once resolved', () => {
    const spec = specOf({
      name: 'mk',
      staticVariables: [{ auth: 'Bearer ${TOKEN}' }, { other: '${OTHER}' }],
    });
    const { secrets, values } = resolveStaticVariables(
      spec,
      envOf({ TOKEN: 'shared-value', OTHER: 'shared-value' }),
    );
    expect(secrets).toEqual(['shared-value']);
    expect(createMasker(secrets).mask(`header=${values['auth'] ?? ''}`)).toBe('header=Bearer ***');
  });
});

describe('per-call preparation', () => {
  const tool = (fields: Record<string, unknown> = {}) =>
    specOf({
      name: 'call',
      draft: false,
      params: [
        { name: 'city', type: 'STRING', required: true, testValue: 'Seoul' },
        { name: 'opts', type: 'OBJECT', required: false },
        { name: 'token', type: 'STRING', required: false },
      ],
      staticVariables: [{ token: '${API_TOKEN}' }],
      ...fields,
    });

  it('re-checks requirements on every call: an env var unset since the last call withholds the tool', () => {
    const env: Record<string, string> = { API_TOKEN: 'token-1234' };
    const lookup: EnvLookup = (name) => env[name];
    const spec = tool();
    expect(prepareToolCall(spec, { city: 'Seoul' }, lookup).ok).toBe(true);
    delete env['API_TOKEN'];
    const second = prepareToolCall(spec, { city: 'Seoul' }, lookup);
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.status).toEqual({ state: 'MISSING_REQUIREMENTS', missing: ['API_TOKEN'] });
    expect(second.error.code).toBe('UNKNOWN_TOOL');
    env['API_TOKEN'] = 'token-5678';
    const third = prepareToolCall(spec, { city: 'Seoul' }, lookup);
    expect(third.ok && third.secrets).toEqual(['token-5678']);
  });

  it('a draft is never callable', () => {
    const result = prepareToolCall(
      tool({ draft: true }),
      { city: 'Seoul' },
      envOf({ API_TOKEN: 'token-1234' }),
    );
    expect(result.ok ? 'ok' : result.status.state).toBe('DRAFT');
  });

  it('static variables override a same-named param; undeclared arguments are dropped', () => {
    const result = prepareToolCall(
      tool(),
      { city: 'Busan', token: 'from-the-model', fetch: 'shadow', safety: 1 },
      envOf({ API_TOKEN: 'token-1234' }),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.args).toEqual({ city: 'Busan', opts: undefined, token: 'token-1234' });
    expect(Object.keys(result.args)).toEqual(['city', 'opts', 'token']);
  });

  it('an OBJECT param sent as JSON text is parsed (R-SPEC-13)', () => {
    const result = buildToolArgs(tool(), { city: 'x', opts: '{"a":1}' }, envOf({ API_TOKEN: 'token-1234' }));
    expect(result.ok && result.value.args['opts']).toEqual({ a: 1 });
  });

  it.each([
    ['absent', {}],
    ['null', { city: null }],
    ['blank', { city: '  ' }],
  ])('a required param that is %s is refused with INVALID_ARGUMENTS', (_label, args) => {
    const result = prepareToolCall(tool(), args, envOf({ API_TOKEN: 'token-1234' }));
    expect(result.ok ? 'ok' : result.error.code).toBe('INVALID_ARGUMENTS');
  });
});
