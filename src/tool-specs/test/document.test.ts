import { describe, expect, it } from 'vitest';
import { validate as isUuid, version as uuidVersion } from 'uuid';
import { deriveToolId, parseSpec, serializeSpec, TOOL_ID_NAMESPACE } from '../document.ts';

const base64Example = {
  toolId: 'e30d037d-20cf-55f2-b43a-1b89560417da',
  name: 'base64',
  description:
    "Encodes UTF-8 text to base64, or decodes base64 back to UTF-8 text. Use mode='encode' (default) or 'decode'.",
  category: 'ENCODING',
  tags: ['util'],
  params: [
    {
      name: 'text',
      type: 'STRING',
      required: true,
      testValue: 'hello world',
      description: 'Text to encode/decode',
    },
    { name: 'mode', type: 'STRING', required: false, testValue: 'encode', description: 'encode | decode' },
  ],
  staticVariables: [],
  code: '/* ... */',
  codeType: 'Javascript',
  sandboxOverrides: {},
  toolSafety: {
    version: '1.0',
    runtime: { id: 'spring-ai-playground/polyglot-js', javaInterop: false, helpers: [], console: true },
    capabilities: { network: { mode: 'blocked', hosts: [] }, fileRead: false, fileWrite: false },
  },
  draft: false,
};

describe('parseSpec', () => {
  it('accepts every canonical example of the format', () => {
    const examples: unknown[] = [
      base64Example,
      {
        name: 'getUpbitTicker',
        category: 'WEB',
        tags: ['korea'],
        params: [{ name: 'markets', type: 'STRING', required: true, testValue: 'KRW-BTC,KRW-ETH' }],
        staticVariables: [],
        code: 'return 1;',
        codeType: 'Javascript',
        sandboxOverrides: { networkMode: 'allowlist', hostsAllow: ['api.upbit.com'] },
      },
      {
        name: 'searchNaver',
        params: [{ name: 'query', type: 'STRING', required: true, testValue: '스프링 AI' }],
        staticVariables: [
          { naverClientId: '${NAVER_CLIENT_ID}' },
          { naverClientSecret: '${NAVER_CLIENT_SECRET}' },
        ],
        code: 'return 1;',
        codeType: 'Javascript',
        sandboxOverrides: { networkMode: 'allowlist', hostsAllow: ['openapi.naver.com'] },
      },
      {
        name: 'evalExpression',
        params: [
          { name: 'expr', type: 'STRING', required: true, testValue: 'x + 2 * y' },
          { name: 'variables', type: 'OBJECT', required: false, testValue: '{"x":3,"y":4}' },
        ],
        code: 'return 1;',
        codeType: 'Javascript',
      },
      { name: 'experimentalThing', code: '/* ... */', codeType: 'Javascript', draft: true },
    ];
    for (const example of examples) {
      const result = parseSpec(example);
      expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([]);
    }
  });

  it('applies the R-SPEC-1 defaults to a minimal document', () => {
    const result = parseSpec('{"name":"tiny","code":"return 1;","codeType":"Javascript"}');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const spec = result.value;
    expect(spec).toMatchObject({
      toolId: deriveToolId('tiny'),
      description: '',
      category: null,
      tags: [],
      params: [],
      staticVariables: [],
      sandboxOverrides: {},
      toolSafety: {},
      draft: true,
      createTimestamp: null,
      updateTimestamp: null,
      humanInTheLoop: null,
    });
  });

  it('treats null fields like absent ones', () => {
    const result = parseSpec({
      name: 'n',
      code: 'return 1;',
      codeType: 'Javascript',
      tags: null,
      params: null,
      sandboxOverrides: null,
      draft: null,
    });
    expect(result.ok && result.value.tags.length === 0 && result.value.draft).toBe(true);
  });

  it('keeps an explicit toolId and derives a UUID v5 otherwise', () => {
    const explicit = parseSpec(base64Example);
    expect(explicit.ok && explicit.value.toolId).toBe('e30d037d-20cf-55f2-b43a-1b89560417da');
    const derived = deriveToolId('base64');
    expect(isUuid(derived) && uuidVersion(derived)).toBe(5);
    expect(deriveToolId('base64')).toBe(derived);
    expect(deriveToolId('base65')).not.toBe(derived);
    // Pinned: changing TOOL_ID_NAMESPACE would silently re-key every derived toolId.
    expect(TOOL_ID_NAMESPACE).toBe('317fc9d2-8577-424d-bd07-f9f6d79e0a6f');
    expect(derived).toBe('a8b5409d-0bfe-5f24-b7bb-adbfeeebdc9a');
  });

  it('reports every problem of one document, each with a JSON pointer', () => {
    const result = parseSpec({
      name: '',
      codeType: 'Python',
      tags: ['a', 'b', 'c'],
      params: [
        { name: 'ok', type: 'STRING', required: true, testValue: 'x' },
        { name: 'city', type: 'STRING', required: true },
        { name: 'n', type: 'FLOAT', required: false },
      ],
      sandboxOverrides: { networkMode: 'strict', allowEverything: true },
      staticVariables: [{ a: '1', b: '2' }, { key: '${lower_case}' }],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const found = result.errors.map((e) => `${e.code} ${e.pointer ?? ''}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'SPEC_PARSE /code',
        'SPEC_PARSE /name',
        'SPEC_PARSE /codeType',
        'SPEC_PARSE /params/2/type',
        'SPEC_PARSE /sandboxOverrides/allowEverything',
        'SPEC_PARSE /staticVariables/0',
        'SPEC_INVARIANT /tags',
        'SPEC_INVARIANT /params/1/testValue',
        'SPEC_INVARIANT /staticVariables/1/key',
      ]),
    );
    for (const error of result.errors) expect(error.message.length).toBeGreaterThan(10);
  });

  it('reports invalid JSON as SPEC_PARSE at the root', () => {
    const result = parseSpec('{"name": "x",');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ code: 'SPEC_PARSE', pointer: '' });
    expect(result.errors[0]?.message).toMatch(/not valid JSON/);
  });

  it('rejects a non-string testValue and a second key in a static variable entry', () => {
    const result = parseSpec({
      name: 'x',
      code: '',
      codeType: 'Javascript',
      params: [{ name: 'n', type: 'INTEGER', required: true, testValue: 3 }],
    });
    expect(result.ok ? [] : result.errors.map((e) => e.pointer)).toContain('/params/0/testValue');
  });

  it('accepts sandboxOverrides.secretsInCode as a boolean only', () => {
    const doc = (value: unknown) => ({
      name: 'x',
      code: '',
      codeType: 'Javascript',
      sandboxOverrides: { secretsInCode: value },
    });
    const ok = parseSpec(doc(true));
    expect(ok.ok && ok.value.sandboxOverrides.secretsInCode).toBe(true);
    const bad = parseSpec(doc('yes'));
    expect(bad.ok ? [] : bad.errors.map((e) => e.pointer)).toContain('/sandboxOverrides/secretsInCode');
  });

  it('does not alias the input object', () => {
    const doc = structuredClone(base64Example);
    const result = parseSpec(doc);
    doc.params[0]!.name = 'changed';
    expect(result.ok && result.value.params[0]?.name).toBe('text');
  });
});

describe('serializeSpec', () => {
  it('round-trips unknown top-level fields in their original order', () => {
    const text = JSON.stringify({
      'x-acme-cost-cap': { usd: 3 },
      name: 'ordered',
      'x-acme-owner': 'team-a',
      code: 'return 1;',
      codeType: 'Javascript',
      draft: false,
      futureField: [1, 2, 3],
    });
    const first = parseSpec(text);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const written = serializeSpec(first.value);
    const keys = Object.keys(JSON.parse(written) as object);
    expect(keys.slice(0, 6)).toEqual([
      'x-acme-cost-cap',
      'name',
      'x-acme-owner',
      'code',
      'codeType',
      'draft',
    ]);
    expect(keys).toContain('futureField');
    expect(keys).toContain('toolId');
    const second = parseSpec(written);
    expect(second.ok).toBe(true);
    if (!second.ok) return;
    expect(second.value.extensions).toEqual({
      'x-acme-cost-cap': { usd: 3 },
      'x-acme-owner': 'team-a',
      futureField: [1, 2, 3],
    });
    expect(serializeSpec(second.value)).toBe(written);
  });

  it('writes defaults and keeps sandboxOverrides and params exactly as authored', () => {
    const parsed = parseSpec({
      name: 'w',
      code: 'return 1;',
      codeType: 'Javascript',
      params: [{ name: 'a', type: 'STRING', required: false }],
      sandboxOverrides: { networkMode: 'OPEN', fileRead: null },
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const doc = JSON.parse(serializeSpec(parsed.value)) as Record<string, unknown>;
    expect(doc['params']).toEqual([{ name: 'a', type: 'STRING', required: false }]);
    expect(doc['sandboxOverrides']).toEqual({ networkMode: 'OPEN', fileRead: null });
    expect(doc['draft']).toBe(true);
    expect(doc['description']).toBe('');
    expect('createTimestamp' in doc).toBe(false);
  });
});

describe('hostile keys', () => {
  it('keeps a top-level "__proto__" field as data through the round trip', () => {
    const text = '{"name":"p","code":"return 1;","codeType":"Javascript","__proto__":{"polluted":true}}';
    const parsed = parseSpec(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.getPrototypeOf(parsed.value.extensions)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(serializeSpec(parsed.value)).toContain('"__proto__"');
  });
});
