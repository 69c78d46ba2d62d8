import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PortcullisError } from '../errors/index.ts';
import { createArgumentValidator } from './argument-validator.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = path.join(ROOT, 'test/helpers/validate-child.ts');

interface Outcome {
  valid: boolean;
  code?: string;
  message?: string;
  ms: number;
}

/**
 * Validates in a child process and gives up after `limitMs`: a validation that freezes its thread (the
 * defect) fails the test instead of hanging the suite.
 */
function validateInChild(schema: object, args: unknown, limitMs = 5_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // The limit starts once the child has loaded the validator: startup time is not the validation's.
      if (timer === undefined && out.startsWith('ready\n')) {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`validation still running after ${limitMs} ms (event loop frozen); child killed`));
        }, limitMs);
        child.stdin.end(JSON.stringify({ schema, args }));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', () => {
      clearTimeout(timer);
      const line = out.slice('ready\n'.length).trim();
      if (line) resolve(JSON.parse(line) as Outcome);
      else reject(new Error(`validation child failed: ${err.slice(0, 500)}`));
    });
  });
}

const stringArg = (pattern: string) => ({
  type: 'object',
  properties: { value: { type: 'string', pattern } },
});

const CATASTROPHIC: { name: string; schema: object; args: Record<string, unknown> }[] = [
  { name: 'pattern ^(a+)+$', schema: stringArg('^(a+)+$'), args: { value: `${'a'.repeat(50_000)}!` } },
  { name: 'pattern (a|aa)+$', schema: stringArg('(a|aa)+$'), args: { value: `${'a'.repeat(50_000)}!` } },
  {
    name: 'pattern ^(\\w+\\s?)*$',
    schema: stringArg('^(\\w+\\s?)*$'),
    args: { value: `${'aaaa bbbb '.repeat(5_000)}!` },
  },
  {
    name: 'patternProperties key ^(a+)+$ with additionalProperties false',
    schema: {
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'string' } },
      additionalProperties: false,
    },
    args: { [`${'a'.repeat(50_000)}!`]: 'x' },
  },
  {
    name: 'propertyNames pattern ^([a-z]+)*$',
    schema: { type: 'object', propertyNames: { pattern: '^([a-z]+)*$' } },
    args: { [`${'abc'.repeat(20_000)}1`]: 1 },
  },
];

describe('argument validator: schema regular expressions run in linear time', () => {
  it.each(CATASTROPHIC)(
    '$name: a long adversarial argument is refused promptly',
    async ({ schema, args }) => {
      const outcome = await validateInChild(schema, args);
      expect(outcome).toMatchObject({ valid: false, code: 'INVALID_ARGUMENTS' });
    },
  );

  it('nested quantifiers in patternProperties select the properties they match, adversarial keys promptly', async () => {
    const schema = { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } };
    const adversarial = await validateInChild(schema, { [`${'a'.repeat(50_000)}!`]: 'x', aaaa: 1 });
    expect(adversarial).toMatchObject({ valid: true });
    const validator = createArgumentValidator();
    expect(validator.validate('t', schema, { aaaa: 1, other: 'x' })).toEqual({ aaaa: 1, other: 'x' });
    expect(() => validator.validate('t', schema, { aaaa: 'not a number' })).toThrow(/aaaa must be number/);
  });
});

/** Pattern, input, and whether it matches (each row is also checked against the native engine). */
const ORDINARY: [string, string, boolean][] = [
  ['^[a-z0-9-]+$', 'my-repo-2', true],
  ['^[a-z0-9-]+$', 'My Repo', false],
  ['^\\d{4}-\\d{2}-\\d{2}$', '2026-11-25', true],
  ['^\\d{4}-\\d{2}-\\d{2}$', '2026-1-25', false],
  ['^https?://', 'https://example.com', true],
  ['^https?://', 'ftp://example.com', false],
  ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', 'a.b@example.org', true],
  ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', 'a b@example.org', false],
  ['abc', 'xxabcxx', true],
  ['^abc$', 'xxabcxx', false],
  ['^$', '', true],
  ['', 'anything', true],
  ['^(?:GET|POST)$', 'POST', true],
  ['^(?:GET|POST)$', 'PUT', false],
  ['^(?<owner>[\\w.-]+)/(?<repo>[\\w.-]+)$', 'octo/hello.world', true],
  ['^(?<owner>[\\w.-]+)/(?<repo>[\\w.-]+)$', 'octo/hello/world', false],
  ['^a.c$', 'a\nc', false],
  ['^a.c$', 'a\rc', false],
  ['^a.c$', 'a\u2028c', false],
  ['^a.c$', 'a😀c', true],
  ['^.$', '\ud800', true],
  ['^[\\s\\S]+$', 'a\nb', true],
  ['^\\s$', '\u00a0', true],
  ['^\\s$', '\u3000', true],
  ['^\\s$', '\v', true],
  ['^\\s$', '\u200b', false],
  ['^\\S+$', 'a\u00a0b', false],
  ['^\\S+$', 'ab', true],
  ['^\\w+$', 'héllo', false],
  ['^\\d+$', '١٢٣', false],
  ['\\bword\\b', 'a word here', true],
  ['\\bword\\b', 'swordfish', false],
  ['^\\p{L}+$', 'héllo', true],
  ['^\\p{L}+$', 'hé11o', false],
  ['^\\p{Lu}', 'Émile', true],
  ['^\\u00e9$', 'é', true],
  ['^\\u{1F600}$', '😀', true],
  ['^[😀-😂]$', '😁', true],
  ['^[😀-😂]$', '😃', false],
  ['^\\x41$', 'A', true],
  ['^[^]$', '\n', true],
  ['^a\\/b$', 'a/b', true],
  ['^\\cJ$', '\n', true],
  ['(?<=\\$)\\d+', 'costs $42', true],
  ['(?<!\\$)\\b\\d+', '$42', false],
  ['^[a-c]{2,3}$', 'abca', false],
  ['^(a|ab)(c|bcd)(d*)$', 'abcd', true],
];

describe('argument validator: ordinary patterns answer as before (ECMAScript semantics, u flag)', () => {
  const validator = createArgumentValidator();
  it.each(ORDINARY)('%j on %j matches: %s', (pattern, input, matches) => {
    expect(new RegExp(pattern, 'u').test(input)).toBe(matches);
    const check = () => validator.validate('t', stringArg(pattern), { value: input });
    if (matches) expect(check()).toEqual({ value: input });
    else expect(check).toThrow(/must match pattern/);
  });

  it('formats keep working (library-fixed expressions)', () => {
    const schema = { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } };
    expect(validator.validate('t', schema, { at: '2026-11-25T06:30:00Z' })).toEqual({
      at: '2026-11-25T06:30:00Z',
    });
    expect(() => validator.validate('t', schema, { at: 'yesterday' })).toThrow(/must match format/);
  });
});

describe('argument validator: patterns that need backtracking', () => {
  const cases: [string, string][] = [
    ['backreference', '^(\\w+) \\1$'],
    ['lookahead', '^(?=.*\\d)\\w+$'],
    ['negative lookahead', '^(?!admin)\\w+$'],
    ['repeat count above 1000', '^.{1,5000}$'],
  ];
  it.each(cases)('%s: the schema is reported unusable and calls are refused', (_name, pattern) => {
    const validator = createArgumentValidator();
    const schema = stringArg(pattern);
    const problem = validator.schemaProblem(schema);
    expect(problem).toMatch(
      /^input schema uses a regular expression feature that cannot run in linear time: ".*" \(.+\)$/,
    );
    expect(problem).toContain(pattern);
    let thrown: unknown;
    try {
      validator.validate('t', schema, { value: 'x' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PortcullisError);
    expect((thrown as PortcullisError).code).toBe('INVALID_ARGUMENTS');
    expect((thrown as Error).message).toContain('cannot run in linear time');
    expect((thrown as Error).message).toContain('calls are refused');
  });

  it('an invalid ECMAScript pattern stays a compile problem, named as such', () => {
    const validator = createArgumentValidator();
    expect(validator.schemaProblem(stringArg('(unclosed'))).toMatch(/^input schema cannot be compiled: /);
    expect(validator.schemaProblem(stringArg('^ok$'))).toBeUndefined();
    expect(validator.schemaProblem(undefined)).toBeUndefined();
  });
});
