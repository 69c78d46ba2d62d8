import { describe, expect, it } from 'vitest';
import { declaredDialect, foreignSchemaEngine, linearJsonSchemaValidator } from './foreign-schema.ts';
import { linearRegExp } from '../shared/linear-regexp.ts';

describe('foreign schema engines', () => {
  it.each(['draft-07', '2019-09', '2020-12'] as const)(
    '%s runs schema regexes on the linear engine',
    (dialect) => {
      expect(foreignSchemaEngine(dialect).opts.code.regExp).toBe(linearRegExp);
    },
  );

  it('reads the dialect a schema declares, as the SDK does', () => {
    expect(declaredDialect({}, '2020-12')).toBe('2020-12');
    expect(declaredDialect({ $schema: 'http://json-schema.org/draft-07/schema#' }, '2020-12')).toBe(
      'draft-07',
    );
    expect(declaredDialect({ $schema: 'https://json-schema.org/draft/2019-09/schema' }, '2020-12')).toBe(
      '2019-09',
    );
    expect(() => declaredDialect({ $schema: 'https://example.com/mine' }, '2020-12')).toThrow(/unsupported/);
  });
});

describe('linearJsonSchemaValidator (the SDK provider)', () => {
  const provider = linearJsonSchemaValidator();
  const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } };

  it('answers like the SDK provider: data when valid, a readable message when not', () => {
    const validate = provider.getValidator<{ code: string }>(schema);
    expect(validate({ code: 'aaa' })).toEqual({
      valid: true,
      data: { code: 'aaa' },
      errorMessage: undefined,
    });
    const refused = validate({ code: 'aab' });
    expect(refused.valid).toBe(false);
    expect(refused.errorMessage).toContain('must match pattern');
  });

  it('compiles a schema with an $id once and reuses it', () => {
    const withId = { $id: 'urn:test:report', type: 'string' };
    expect(provider.getValidator(withId)('x').valid).toBe(true);
    expect(provider.getValidator({ ...withId })(1).valid).toBe(false);
  });

  it('throws for a pattern RE2 cannot run (the SDK reports it as a schema error)', () => {
    const backref = { type: 'object', properties: { w: { type: 'string', pattern: '^(\\w+) \\1$' } } };
    expect(() => provider.getValidator(backref)).toThrow(/cannot run in linear time/);
  });
});
