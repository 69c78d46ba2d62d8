import { describe, expect, it } from 'vitest';
import type { ApprovalRuleConfig } from '../config/index.ts';
import { isPortcullisError } from '../errors/index.ts';
import { compileApprovalRules } from './index.ts';
import type { ApprovalCall, RuleDecision } from './rules.ts';

/** Overrides; `principal: undefined` stands for an anonymous call. */
type Over = { [K in keyof ApprovalCall]?: ApprovalCall[K] | undefined };

const call = (over: Over = {}): ApprovalCall =>
  ({
    alias: 'files_write',
    origin: 'upstream',
    upstream: 'files',
    tool: 'write_file',
    risk: 'L3',
    args: { path: '/home/u/notes.txt', size: 42, mode: { append: true }, tags: ['a', 'b'] },
    principal: 'alice',
    ...over,
  }) as ApprovalCall;

const deny = (match: ApprovalRuleConfig['match'], id = 'r'): ApprovalRuleConfig => ({
  id,
  match,
  decision: 'deny',
  reason: 'no',
});

const decide = (rules: ApprovalRuleConfig[], c: ApprovalCall, now = 0): RuleDecision =>
  compileApprovalRules(rules).evaluate(c, now);

const DENIED = { kind: 'deny', ruleId: 'r', reason: 'no' };
const ALLOWED = { kind: 'allow' };

describe('matching each field', () => {
  it.each<[string, ApprovalRuleConfig['match'], Over, object]>([
    ['alias glob hit', { alias: 'files_*' }, {}, DENIED],
    ['alias glob miss', { alias: 'web_*' }, {}, ALLOWED],
    ['alias exact', { alias: 'files_write' }, {}, DENIED],
    ['upstream glob hit', { upstream: 'fil?s' }, {}, DENIED],
    ['upstream miss', { upstream: 'web' }, {}, ALLOWED],
    [
      'upstream never matches a local tool',
      { upstream: '*' },
      { origin: 'local', upstream: 'files' },
      ALLOWED,
    ],
    ['tool glob hit', { tool: '{write,delete}_*' }, {}, DENIED],
    ['tool glob miss', { tool: 'read_*' }, {}, ALLOWED],
    ['origin hit', { origin: 'upstream' }, {}, DENIED],
    ['origin miss', { origin: 'local' }, {}, ALLOWED],
    ['riskAtLeast equal', { riskAtLeast: 'L3' }, {}, DENIED],
    ['riskAtLeast above', { riskAtLeast: 'L2' }, {}, DENIED],
    ['riskAtLeast below', { riskAtLeast: 'L4' }, {}, ALLOWED],
    ['riskAtLeast L5 by ordinal', { riskAtLeast: 'L5' }, { risk: 'L5' }, DENIED],
    ['principal glob hit', { principal: 'ali*' }, {}, DENIED],
    ['principal glob miss', { principal: 'bob' }, {}, ALLOWED],
    ['principal * matches anonymous', { principal: '*' }, { principal: undefined }, DENIED],
    ['principal anonymous', { principal: 'anonymous' }, { principal: undefined }, DENIED],
    ['group hit (any of them)', { group: 'team-*' }, { groups: ['staff', 'team-a'] }, DENIED],
    ['group miss', { group: 'team-b' }, { groups: ['team-a'] }, ALLOWED],
    ['group never matches a caller without groups', { group: '*' }, { groups: [] }, ALLOWED],
    ['group never matches an anonymous call', { group: '*' }, { principal: undefined }, ALLOWED],
    ['scope hit', { scope: 'tools:*' }, { scopes: ['mcp', 'tools:write'] }, DENIED],
    ['scope miss', { scope: 'admin' }, { scopes: ['mcp'] }, ALLOWED],
    [
      'group and scope are AND-ed',
      { group: 'team-a', scope: 'admin' },
      { groups: ['team-a'], scopes: [] },
      ALLOWED,
    ],
    ['empty match matches all', {}, {}, DENIED],
    ['fields are AND-ed (all hold)', { alias: 'files_*', riskAtLeast: 'L3', principal: 'alice' }, {}, DENIED],
    [
      'fields are AND-ed (one fails)',
      { alias: 'files_*', riskAtLeast: 'L4', principal: 'alice' },
      {},
      ALLOWED,
    ],
  ])('%s', (_name, match, over, expected) => {
    expect(decide([deny(match)], call(over))).toEqual(expected);
  });
});

describe('matching arguments', () => {
  const args = {
    path: '/home/u/secrets/key.pem',
    size: 42,
    force: true,
    nothing: null,
    mode: { b: 1, a: 2 },
    items: [{ name: 'first' }, { name: 'second' }],
    'a/b': 'slash',
    'm~n': 'tilde',
  };
  it.each<[string, Record<string, string | { regex: string }>, unknown, boolean]>([
    ['glob on a string', { '/path': '**/secrets/**' }, args, true],
    ['glob miss', { '/path': '/tmp/**' }, args, false],
    ['glob with a dot folder', { '/path': '**/secrets/**' }, { path: '/home/.u/secrets/.key' }, true],
    ['regex, unanchored', { '/path': { regex: 'secrets/.*\\.pem' } }, args, true],
    ['regex anchored miss', { '/path': { regex: '^secrets' } }, args, false],
    ['a deny regex folds case by default', { '/path': { regex: 'SECRETS' } }, args, true],
    [
      'a catastrophic regex runs in linear time',
      { '/path': { regex: '^(a+)+$' } },
      { path: `${'a'.repeat(5000)}!` },
      false,
    ],
    ['number by its JSON text', { '/size': '42' }, args, true],
    ['number glob', { '/size': '4*' }, args, true],
    ['boolean by its JSON text', { '/force': 'true' }, args, true],
    ['null by its JSON text', { '/nothing': 'null' }, args, true],
    ['object by its canonical JSON text', { '/mode': '{"a":2,"b":1}' }, args, true],
    ['array index', { '/items/1/name': 'sec*' }, args, true],
    ['array index out of range', { '/items/5/name': '*' }, args, false],
    ['non-numeric array index', { '/items/x': '*' }, args, false],
    ['escaped slash ~1', { '/a~1b': 'slash' }, args, true],
    ['escaped tilde ~0', { '/m~0n': 'tilde' }, args, true],
    ['missing value never matches', { '/absent': '*' }, args, false],
    ['pointer into a string never matches', { '/path/0': '*' }, args, false],
    ['prototype is not reachable', { '/__proto__': '*' }, args, false],
    ['constructor is not reachable', { '/constructor': '*' }, args, false],
    ['no arguments at all', { '/path': '*' }, undefined, false],
    ['two pointers AND-ed (both hold)', { '/path': '**/secrets/**', '/size': '42' }, args, true],
    ['two pointers AND-ed (one fails)', { '/path': '**/secrets/**', '/size': '43' }, args, false],
  ])('%s', (_name, matchArgs, callArgs, matches) => {
    expect(decide([deny({ args: matchArgs })], call({ args: callArgs }))).toEqual(matches ? DENIED : ALLOWED);
  });

  it.each([
    ['dot-dot segments', '/srv/public/../secrets/x'],
    ['doubled slashes', '//srv//secrets/x'],
    ['dot segments', '/srv/./secrets/x'],
    ['backslashes', '\\srv\\secrets\\x'],
  ])('a deny rule also matches the normalized path (%s)', (_name, path) => {
    expect(decide([deny({ args: { '/path': '/srv/secrets/**' } })], call({ args: { path } }))).toEqual(
      DENIED,
    );
  });

  it('an allow rule matches only the value as given', () => {
    const rules: ApprovalRuleConfig[] = [
      { id: 'ok', match: { args: { '/path': '/srv/secrets/**' } }, decision: 'allow' },
      deny({}),
    ];
    expect(decide(rules, call({ args: { path: '/srv/secrets/a' } }))).toEqual({
      kind: 'allow',
      ruleId: 'ok',
    });
    expect(decide(rules, call({ args: { path: '/srv/x/../secrets/a' } }))).toEqual(DENIED);
  });
});

describe('rule order and decisions', () => {
  it('allows when there are no rules', () => {
    expect(decide([], call())).toEqual({ kind: 'allow' });
    expect(compileApprovalRules(undefined).evaluate(call(), 0)).toEqual({ kind: 'allow' });
  });

  it('takes the first matching rule', () => {
    const rules: ApprovalRuleConfig[] = [
      { id: 'miss', match: { alias: 'web_*' }, decision: 'deny', reason: 'web' },
      { id: 'ask', match: { alias: 'files_*' }, decision: 'ask', prompt: 'Write {args}?' },
      { id: 'allow', match: {}, decision: 'allow' },
    ];
    expect(decide(rules, call())).toEqual({ kind: 'ask', ruleId: 'ask', prompt: 'Write {args}?' });
    expect(decide(rules, call({ alias: 'other' }))).toEqual({ kind: 'allow', ruleId: 'allow' });
    expect(decide(rules, call({ alias: 'web_fetch' }))).toEqual({
      kind: 'deny',
      ruleId: 'miss',
      reason: 'web',
    });
  });

  it('gives a deny without a reason a default one, and an ask without a prompt none', () => {
    const rules: ApprovalRuleConfig[] = [
      { id: 'd', match: { alias: 'files_*' }, decision: 'deny' },
      { id: 'a', match: {}, decision: 'ask' },
    ];
    expect(decide(rules, call())).toEqual({ kind: 'deny', ruleId: 'd', reason: 'denied by rule d' });
    expect(decide(rules, call({ alias: 'x' }))).toEqual({ kind: 'ask', ruleId: 'a' });
  });
});

describe('rate limits', () => {
  const rules: ApprovalRuleConfig[] = [
    { id: 'slow-down', match: { principal: '*' }, rateLimit: { calls: 2, per: '1m' } },
    { id: 'no-web', match: { alias: 'web_*' }, decision: 'deny', reason: 'web' },
  ];

  it('denies calls over the limit per (principal, alias) and frees slots as the window slides', () => {
    const engine = compileApprovalRules(rules);
    const at = (now: number, over: Over = {}) => engine.evaluate(call(over), now);
    expect(at(0)).toEqual({ kind: 'allow' });
    expect(at(10_000)).toEqual({ kind: 'allow' });
    expect(at(20_000)).toEqual({ kind: 'rate-limited', ruleId: 'slow-down', retryAfterMs: 40_000 });
    expect(at(20_000, { principal: 'bob' })).toEqual({ kind: 'allow' });
    expect(at(20_000, { alias: 'files_read' })).toEqual({ kind: 'allow' });
    expect(at(20_000, { principal: undefined })).toEqual({ kind: 'allow' });
    expect(at(59_999)).toEqual({ kind: 'rate-limited', ruleId: 'slow-down', retryAfterMs: 1 });
    expect(at(60_000)).toEqual({ kind: 'allow' });
    expect(at(60_001)).toEqual({ kind: 'rate-limited', ruleId: 'slow-down', retryAfterMs: 9_999 });
    expect(at(70_000)).toEqual({ kind: 'allow' });
  });

  it('counts a group rule per principal: two people of one group each have their own window', () => {
    const engine = compileApprovalRules([
      { id: 'team', match: { group: 'team-a' }, rateLimit: { calls: 1, per: '1m' } },
    ]);
    const member = (principal: string) => call({ principal, groups: ['team-a'] });
    expect(engine.evaluate(member('alice'), 0)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(member('carol'), 1)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(member('alice'), 2)).toMatchObject({ kind: 'rate-limited', ruleId: 'team' });
    expect(engine.evaluate(call({ principal: 'bob', groups: ['team-b'] }), 3)).toEqual({ kind: 'allow' });
  });

  it('neither counts nor refuses the retry of a call already counted (the modern second round)', () => {
    const engine = compileApprovalRules(rules);
    expect(engine.evaluate(call(), 0)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(call({ counted: true }), 1)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(call(), 2)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(call({ counted: true }), 3)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(call(), 4)).toMatchObject({ kind: 'rate-limited' });
  });

  it('continues with the next rule under the limit', () => {
    const engine = compileApprovalRules(rules);
    expect(engine.evaluate(call({ alias: 'web_fetch' }), 0)).toEqual({
      kind: 'deny',
      ruleId: 'no-web',
      reason: 'web',
    });
  });

  it('does not count calls it does not match', () => {
    const engine = compileApprovalRules([
      { id: 'limit-writes', match: { tool: 'write_*' }, rateLimit: { calls: 1, per: '30s' } },
    ]);
    expect(engine.evaluate(call({ tool: 'read_file' }), 0)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(call(), 0)).toEqual({ kind: 'allow' });
    expect(engine.evaluate(call(), 1)).toMatchObject({ kind: 'rate-limited', retryAfterMs: 29_999 });
  });
});

describe('failing closed', () => {
  it('denies when reading an argument throws', () => {
    const args = Object.defineProperty({}, 'path', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(decide([deny({ args: { '/path': '*' } }, 'p')], call({ args }))).toEqual({
      kind: 'deny',
      ruleId: 'p',
      reason: 'approval rules failed',
    });
  });

  it('denies when an argument cannot be turned into JSON text', () => {
    const rules: ApprovalRuleConfig[] = [
      { id: 'fine', match: { alias: 'x' }, decision: 'allow' },
      { id: 'big', match: { args: { '/n': '1' } }, decision: 'allow' },
    ];
    expect(decide(rules, call({ args: { n: 1n } }))).toEqual({
      kind: 'deny',
      ruleId: 'big',
      reason: 'approval rules failed',
    });
  });

  it('denies with a clock that is not a number', () => {
    expect(decide([deny({ alias: 'nope' })], call(), Number.NaN)).toMatchObject({ kind: 'deny' });
  });
});

describe('compiling', () => {
  const bad: [string, unknown, RegExp][] = [
    [
      'invalid regex',
      { id: 'rx', match: { args: { '/p': { regex: '(' } } }, decision: 'deny' },
      /"rx".*args \/p regex/,
    ],
    [
      'a regex that needs backtracking',
      { id: 'bk', match: { args: { '/p': { regex: '^(\\w+) \\1$' } } }, decision: 'deny' },
      /"bk".*args \/p regex is invalid: it needs a feature that cannot run in linear time/,
    ],
    ['bad pointer', { id: 'ptr', match: { args: { path: '*' } }, decision: 'deny' }, /"ptr".*JSON pointer/],
    [
      'bad pointer escape',
      { id: 'esc', match: { args: { '/a~2': '*' } }, decision: 'deny' },
      /"esc".*JSON pointer/,
    ],
    ['bad risk', { id: 'rk', match: { riskAtLeast: 'L9' }, decision: 'ask' }, /"rk".*riskAtLeast/],
    ['bad origin', { id: 'o', match: { origin: 'remote' }, decision: 'ask' }, /"o".*origin/],
    [
      'unknown match field',
      { id: 'u', match: { host: 'x' }, decision: 'ask' },
      /"u".*unknown match field host/,
    ],
    ['unknown rule field', { id: 'u2', match: {}, decision: 'ask', when: 1 }, /"u2".*unknown field when/],
    ['empty glob', { id: 'g', match: { alias: '' }, decision: 'ask' }, /"g".*alias/],
    ['bad decision', { id: 'd', match: {}, decision: 'maybe' }, /"d".*decision/],
    [
      'decision and rateLimit',
      { id: 'b', match: {}, decision: 'allow', rateLimit: { calls: 1, per: '1m' } },
      /"b".*exactly one/,
    ],
    ['neither', { id: 'n', match: {} }, /"n".*exactly one/],
    ['bad duration', { id: 'dur', match: {}, rateLimit: { calls: 1, per: 'soon' } }, /"dur".*rateLimit.per/],
    ['zero calls', { id: 'z', match: {}, rateLimit: { calls: 0, per: '1m' } }, /"z".*rateLimit.calls/],
    ['missing match', { id: 'mm', decision: 'allow' }, /"mm".*match/],
    ['missing id', { match: {}, decision: 'allow' }, /id must be/],
    [
      'args value shape',
      { id: 'av', match: { args: { '/p': { glob: '*' } } }, decision: 'deny' },
      /"av".*glob string or \{ regex/,
    ],
  ];
  it.each(bad)('refuses %s with a config error naming the rule and field', (_name, rule, message) => {
    let error: unknown;
    try {
      compileApprovalRules([rule as ApprovalRuleConfig]);
    } catch (e) {
      error = e;
    }
    expect(isPortcullisError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as { pointer?: string }).pointer).toMatch(/^\/approval\/rules\/0/);
  });

  it('names the top-level arguments a rule looks at', () => {
    const rules = compileApprovalRules([
      { id: 'r', match: { args: { '/a/b': 'x', '/c': 'y', '/a/d': 'z' } }, decision: 'ask' },
    ]);
    expect(rules.watchedArgs('r')).toEqual(['a', 'c', 'a']);
    expect(rules.watchedArgs('other')).toEqual([]);
    expect(rules.watchedArgs(undefined)).toEqual([]);
  });

  it('refuses duplicate ids', () => {
    expect(() => compileApprovalRules([deny({}, 'same'), deny({}, 'same')])).toThrow(/"same".*used twice/);
  });

  it('versions the rule set by content, not key order', () => {
    const a = compileApprovalRules([{ id: 'x', match: { alias: 'a', tool: 'b' }, decision: 'deny' }]);
    const b = compileApprovalRules([{ decision: 'deny', match: { tool: 'b', alias: 'a' }, id: 'x' }]);
    const c = compileApprovalRules([{ id: 'x', match: { alias: 'a', tool: 'c' }, decision: 'deny' }]);
    expect(a.version).toMatch(/^[0-9a-f]{64}$/);
    expect(a.version).toBe(b.version);
    expect(a.version).not.toBe(c.version);
    expect(a.size).toBe(1);
  });
});
