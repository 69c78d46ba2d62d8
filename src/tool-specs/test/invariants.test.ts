import { describe, expect, it } from 'vitest';
import { checkSpecInvariants, findSpecConflicts, malformedPlaceholders } from '../invariants.ts';
import { parseTestValue } from '../test-values.ts';
import { specOf } from './fixtures.ts';

const doc = (fields: Record<string, unknown>): Record<string, unknown> => ({
  name: 't',
  code: 'return 1;',
  codeType: 'Javascript',
  ...fields,
});

describe('cross-field invariants', () => {
  it.each([
    [
      'required param without testValue',
      { params: [{ name: 'a', type: 'STRING', required: true }] },
      '/params/0/testValue',
    ],
    [
      'required param with a null testValue',
      { params: [{ name: 'a', type: 'STRING', required: true, testValue: null }] },
      '/params/0/testValue',
    ],
    [
      'required param with a blank testValue',
      { params: [{ name: 'a', type: 'STRING', required: true, testValue: '   ' }] },
      '/params/0/testValue',
    ],
    [
      'INTEGER testValue that is not an integer',
      { params: [{ name: 'n', type: 'INTEGER', required: false, testValue: '3.5' }] },
      '/params/0/testValue',
    ],
    [
      'OBJECT testValue that is a JSON array',
      { params: [{ name: 'o', type: 'OBJECT', required: true, testValue: '[1]' }] },
      '/params/0/testValue',
    ],
    ['three tags', { tags: ['util', 'korea', 'search'] }, '/tags'],
    [
      'param name that is not an identifier',
      { params: [{ name: 'my-city', type: 'STRING', required: false }] },
      '/params/0/name',
    ],
    [
      'param name that is a reserved word',
      { params: [{ name: 'delete', type: 'STRING', required: false }] },
      '/params/0/name',
    ],
    [
      'param name that shadows a sandbox global',
      { params: [{ name: 'fetch', type: 'STRING', required: false }] },
      '/params/0/name',
    ],
    [
      'duplicate param names',
      {
        params: [
          { name: 'a', type: 'STRING', required: false },
          { name: 'a', type: 'NUMBER', required: false },
        ],
      },
      '/params/1/name',
    ],
    [
      'static variable key that is not an identifier',
      { staticVariables: [{ 'api-key': 'x' }] },
      '/staticVariables/0/api-key',
    ],
    [
      'static variable named __proto__',
      { staticVariables: [JSON.parse('{"__proto__":"x"}') as Record<string, string>] },
      '/staticVariables/0/__proto__',
    ],
    [
      'lower-case placeholder (R-SECRET-1)',
      { staticVariables: [{ key: '${api_key}' }] },
      '/staticVariables/0/key',
    ],
    [
      'placeholder starting with a digit',
      { staticVariables: [{ key: '${1KEY}' }] },
      '/staticVariables/0/key',
    ],
    ['unclosed placeholder', { staticVariables: [{ key: 'Bearer ${TOKEN' }] }, '/staticVariables/0/key'],
    ['empty placeholder', { staticVariables: [{ key: '${}' }] }, '/staticVariables/0/key'],
  ])('%s is a SPEC_INVARIANT', (_label, fields, pointer) => {
    const errors = checkSpecInvariants(doc(fields));
    expect(errors.map((e) => `${e.code} ${e.pointer ?? ''}`)).toContain(`SPEC_INVARIANT ${pointer}`);
  });

  it.each([
    ['an anchored placeholder', { staticVariables: [{ key: '${API_KEY}' }] }],
    ['a leading underscore (R-SECRET-1 grammar)', { staticVariables: [{ key: '${_PRIVATE_1}' }] }],
    ['embedded placeholders', { staticVariables: [{ base: 'https://${API_HOST}/v2?k=${API_KEY}' }] }],
    ['a literal value', { staticVariables: [{ clientId: '12345-abc' }] }],
    ['two tags', { tags: ['util', 'korea'] }],
    ['an optional param without testValue', { params: [{ name: 'a', type: 'INTEGER', required: false }] }],
    [
      'a static variable with the same name as a param',
      {
        params: [{ name: 'token', type: 'STRING', required: false }],
        staticVariables: [{ token: '${TOKEN}' }],
      },
    ],
  ])('%s holds', (_label, fields) => {
    expect(checkSpecInvariants(doc(fields))).toEqual([]);
  });

  it('lists every malformed placeholder of one value', () => {
    expect(malformedPlaceholders('a ${ok} ${OK} ${Bad} ${GOOD_1}')).toEqual(['${ok}', '${Bad}']);
  });
});

describe('parseTestValue', () => {
  it.each([
    ['STRING', ' keep spaces ', ' keep spaces '],
    ['INTEGER', '42', 42],
    ['INTEGER', '-7', -7],
    ['NUMBER', '3.25', 3.25],
    ['NUMBER', '1e3', 1000],
    ['BOOLEAN', 'TRUE', true],
    ['BOOLEAN', 'false', false],
    ['OBJECT', '{"x":3,"y":4}', { x: 3, y: 4 }],
    ['ARRAY', '[1,"a"]', [1, 'a']],
  ] as const)('%s %j parses', (type, text, value) => {
    expect(parseTestValue(type, text)).toEqual({ ok: true, value });
  });

  it.each([
    ['INTEGER', '4.2'],
    ['INTEGER', '9007199254740993'],
    ['NUMBER', 'abc'],
    ['NUMBER', ''],
    ['BOOLEAN', 'yes'],
    ['OBJECT', 'null'],
    ['ARRAY', '{"a":1}'],
    ['OBJECT', '{x:1}'],
  ] as const)('%s %j is refused', (type, text) => {
    expect(parseTestValue(type, text).ok).toBe(false);
  });
});

describe('findSpecConflicts', () => {
  it('flags two published specs with one name and names both sources', () => {
    const a = specOf({ name: 'dup', draft: false, toolId: '11111111-1111-5111-8111-111111111111' }, 'a.json');
    const b = specOf({ name: 'dup', draft: false, toolId: '22222222-2222-5222-8222-222222222222' }, 'b.json');
    const errors = findSpecConflicts([a, b]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'SPEC_INVARIANT', pointer: '/name', reason: 'duplicate-name' });
    expect(errors[0]?.message).toContain('a.json');
    expect(errors[0]?.message).toContain('b.json');
  });

  it('exempts drafts from name uniqueness (R-SPEC-2)', () => {
    const a = specOf({ name: 'dup', draft: false, toolId: '11111111-1111-5111-8111-111111111111' });
    const b = specOf({ name: 'dup', draft: true, toolId: '22222222-2222-5222-8222-222222222222' });
    expect(findSpecConflicts([a, b])).toEqual([]);
  });

  it('flags a toolId shared by two specs, drafts included (R-SPEC-2)', () => {
    const a = specOf({ name: 'one', draft: true, toolId: 'same' });
    const b = specOf({ name: 'two', draft: true, toolId: 'same' });
    expect(findSpecConflicts([a, b]).map((e) => e.reason)).toEqual(['duplicate-tool-id']);
  });
});
