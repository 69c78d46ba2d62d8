import { describe, expect, it } from 'vitest';
import {
  createPolicyResolver,
  normalizeHostPattern,
  resolveSandbox,
  type ResolvedSandbox,
} from '../resolver.ts';
import type { SandboxPolicies } from '../policy-files.ts';
import type { SandboxOverrides } from '../types.ts';
import { policiesOf, profile, referenceBaseline, specOf } from './fixtures.ts';

function resolveOk(
  overrides: SandboxOverrides,
  policies: SandboxPolicies = policiesOf(),
  name?: string,
): ResolvedSandbox {
  const result = resolveSandbox({ policies, overrides, profile: name ?? null });
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
  return result.value;
}

function rejects(overrides: SandboxOverrides, policies: SandboxPolicies = policiesOf(), name?: string) {
  const result = resolveSandbox({
    policies,
    overrides,
    profile: name ?? null,
    profilePointer: '/x-portcullis-sandbox-profile',
  });
  if (result.ok) throw new Error('expected RESOLVER_REJECT');
  return result.errors;
}

describe('resolver: merge, tristates, network', () => {
  it('R-SANDBOX-4: the baseline posture is network blocked, files off, no hosts', () => {
    expect(resolveOk({}).policy).toMatchObject({
      networkMode: 'blocked',
      hostsAllow: [],
      fileRead: false,
      fileWrite: false,
      destructive: false,
      fsBasePath: null,
    });
  });

  it('treats an absent block, an empty block and an all-null block alike (R-SANDBOX-5)', () => {
    const allNull: SandboxOverrides = {
      addAllowClasses: null,
      removeAllowClasses: null,
      addDenyClasses: null,
      removeDenyClasses: null,
      networkMode: null,
      hostsAllow: null,
      fileRead: null,
      fileWrite: null,
      fsBasePath: null,
      destructive: null,
    };
    const a = resolveSandbox({ policies: policiesOf(), overrides: undefined });
    const b = resolveSandbox({ policies: policiesOf(), overrides: {} });
    const c = resolveSandbox({ policies: policiesOf(), overrides: allNull });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it.each<[string, SandboxOverrides, Partial<ResolvedSandbox['policy']>]>([
    ['OPEN is lower-cased to open', { networkMode: 'OPEN' }, { networkMode: 'open' }],
    ['" Strict " is trimmed and lower-cased', { networkMode: ' Strict ' }, { networkMode: 'strict' }],
    [
      '"*" stays a host pattern meaning any host',
      { networkMode: 'allowlist', hostsAllow: ['*'] },
      { networkMode: 'allowlist', hostsAllow: ['*'] },
    ],
    [
      'hosts are trimmed, lower-cased and de-duplicated',
      { networkMode: 'allowlist', hostsAllow: [' API.Upbit.com ', 'api.upbit.com', '*.Example.com'] },
      { hostsAllow: ['api.upbit.com', '*.example.com'] },
    ],
    [
      'hosts are dropped outside allowlist mode (R-SANDBOX-5)',
      { networkMode: 'strict', hostsAllow: ['a.com'] },
      { hostsAllow: [] },
    ],
    [
      'hosts without a mode stay unused under the blocked baseline',
      { hostsAllow: ['a.com'] },
      { networkMode: 'blocked', hostsAllow: [] },
    ],
    ['fileRead true widens', { fileRead: true }, { fileRead: true, fileWrite: false }],
    ['fileWrite alone is write-only (R-FS-1)', { fileWrite: true }, { fileRead: false, fileWrite: true }],
    ['destructive is carried into the policy', { fileWrite: true, destructive: true }, { destructive: true }],
    ['fsBasePath overrides the baseline', { fsBasePath: '/srv/tools' }, { fsBasePath: '/srv/tools' }],
    ['secrets are handles unless the spec says otherwise', {}, { secretsInCode: false }],
    ['secretsInCode: null inherits the handle default', { secretsInCode: null }, { secretsInCode: false }],
    ['secretsInCode: true hands tool code plaintext', { secretsInCode: true }, { secretsInCode: true }],
  ])('%s', (_label, overrides, expected) => {
    expect(resolveOk(overrides).policy).toMatchObject(expected);
  });

  it('tristates: null inherits a granting baseline, explicit false clears it', () => {
    const granting = policiesOf(referenceBaseline({ fileRead: true, fileWrite: true, destructive: true }));
    expect(resolveOk({ fileRead: null, fileWrite: null }, granting).policy).toMatchObject({
      fileRead: true,
      fileWrite: true,
    });
    expect(resolveOk({ fileRead: false, destructive: false }, granting).policy).toMatchObject({
      fileRead: false,
      fileWrite: true,
      destructive: false,
    });
  });

  it('allowlist hosts are the union of inherited and declared hosts', () => {
    const policies = policiesOf(
      referenceBaseline({ networkMode: 'allowlist', hostsAllow: ['base.example'] }),
    );
    expect(resolveOk({ hostsAllow: ['api.example'] }, policies).policy.hostsAllow).toEqual([
      'base.example',
      'api.example',
    ]);
  });

  it('R-SANDBOX-5: removal wins — a class both added to and removed from deny is not denied', () => {
    const resolved = resolveOk({
      addDenyClasses: ['java.lang.System'],
      removeDenyClasses: ['java.lang.System'],
    });
    expect(resolved.denyClasses).not.toContain('java.lang.System');
    const allow = resolveOk({ addAllowClasses: ['java.net.URL'], removeAllowClasses: ['java.net.URL'] });
    expect(allow.allowClasses).not.toContain('java.net.URL');
  });

  it('R-SANDBOX-2: the class lists are merged but interop is never granted', () => {
    const resolved = resolveOk({ addAllowClasses: ['java.net.URL'] });
    expect(resolved.allowClasses).toContain('java.net.URL');
    expect(resolved.javaInterop).toBe(false);
  });

  it('limits and the statement budget come from the baseline', () => {
    const resolved = resolveOk({});
    expect(resolved.policy.limits).toEqual(referenceBaseline().limits);
    expect(resolved.maxStatements).toBe(500_000);
  });
});

describe('resolver: rejections', () => {
  it.each<[string, SandboxOverrides, string, string]>([
    [
      'disjointness: a class added to both lists',
      { addAllowClasses: ['com.acme.X'], addDenyClasses: ['com.acme.X'] },
      '/sandboxOverrides/addAllowClasses/0',
      'allow-deny-overlap',
    ],
    [
      'disjointness: a deny identical to a baseline allow entry',
      { addDenyClasses: ['java.util.*'] },
      '/sandboxOverrides/addDenyClasses/0',
      'allow-deny-overlap',
    ],
    [
      'disjointness: allowing a baseline-denied class without removing the deny',
      { addAllowClasses: ['java.lang.System'] },
      '/sandboxOverrides/addAllowClasses/0',
      'allow-deny-overlap',
    ],
    [
      'an unknown network mode (validated once)',
      { networkMode: 'permissive' },
      '/sandboxOverrides/networkMode',
      'unknown-network-mode',
    ],
    [
      'a URL instead of a host',
      { networkMode: 'allowlist', hostsAllow: ['https://api.x.com/v1'] },
      '/sandboxOverrides/hostsAllow/0',
      'invalid-host',
    ],
    [
      'a wildcard in the middle of a host',
      { networkMode: 'allowlist', hostsAllow: ['api.*.com'] },
      '/sandboxOverrides/hostsAllow/0',
      'invalid-host',
    ],
    ['a blank fsBasePath', { fsBasePath: '  ' }, '/sandboxOverrides/fsBasePath', 'invalid-base-path'],
  ])('%s → RESOLVER_REJECT', (_label, overrides, pointer, reason) => {
    const errors = rejects(overrides);
    expect(errors.map((e) => [e.code, e.pointer, e.reason])).toContainEqual([
      'RESOLVER_REJECT',
      pointer,
      reason,
    ]);
  });

  it('disjointness: pattern overlap is fine (lookup is deny-first)', () => {
    expect(resolveOk({ addDenyClasses: ['java.util.HashMap'] }).denyClasses).toContain('java.util.HashMap');
  });

  it('allowing a baseline-denied class works when its deny is removed too', () => {
    const resolved = resolveOk({
      addAllowClasses: ['java.lang.System'],
      removeDenyClasses: ['java.lang.System'],
    });
    expect(resolved.allowClasses).toContain('java.lang.System');
  });

  it('reports every problem of one block together', () => {
    const errors = rejects({
      networkMode: 'bogus',
      hostsAllow: ['a b'],
      addAllowClasses: ['java.lang.Runtime', 'java.lang.Thread'],
    });
    expect(errors.map((e) => e.reason).sort()).toEqual([
      'allow-deny-overlap',
      'allow-deny-overlap',
      'invalid-host',
      'unknown-network-mode',
    ]);
  });
});

describe('resolver: profiles', () => {
  const chain = (n: number) =>
    Array.from({ length: n }, (_, i) => profile(`p${i}`, i === 0 ? {} : { extends: `p${i - 1}` }));

  it('applies the chain root first, then the spec overrides', () => {
    const policies = policiesOf(referenceBaseline(), [
      profile('net', { networkMode: 'allowlist', hostsAllow: ['a.example'], allowClasses: ['com.acme.*'] }),
      profile('files', { extends: 'net', fileMode: 'read+write', limits: { cpuTimeMs: 900 } }),
    ]);
    const resolved = resolveOk({ hostsAllow: ['b.example'], fileWrite: false }, policies, 'files');
    expect(resolved.profileChain).toEqual(['net', 'files']);
    expect(resolved.policy).toMatchObject({
      networkMode: 'allowlist',
      hostsAllow: ['a.example', 'b.example'],
      fileRead: true,
      fileWrite: false,
    });
    expect(resolved.policy.limits.cpuTimeMs).toBe(900);
    expect(resolved.allowClasses).toContain('com.acme.*');
  });

  it('a child profile overrides its parent', () => {
    const policies = policiesOf(referenceBaseline(), [
      profile('rw', { fileMode: 'readwrite' }),
      profile('ro', { extends: 'rw', fileMode: 'read' }),
      profile('off', { extends: 'ro', fileMode: 'off' }),
    ]);
    expect(resolveOk({}, policies, 'ro').policy).toMatchObject({ fileRead: true, fileWrite: false });
    expect(resolveOk({}, policies, 'off').policy).toMatchObject({ fileRead: false, fileWrite: false });
  });

  it('a chain of exactly 8 resolves', () => {
    expect(resolveOk({}, policiesOf(referenceBaseline(), chain(8)), 'p7').profileChain).toHaveLength(8);
  });

  it.each([
    ['a chain deeper than 8', policiesOf(referenceBaseline(), chain(9)), 'p8', 'profile-too-deep'],
    [
      'a cycle',
      policiesOf(referenceBaseline(), [profile('a', { extends: 'b' }), profile('b', { extends: 'a' })]),
      'a',
      'profile-cycle',
    ],
    ['a self-cycle', policiesOf(referenceBaseline(), [profile('a', { extends: 'a' })]), 'a', 'profile-cycle'],
    ['an unknown profile', policiesOf(), 'nope', 'unknown-profile'],
    [
      'an unknown parent',
      policiesOf(referenceBaseline(), [profile('a', { extends: 'ghost' })]),
      'a',
      'unknown-profile',
    ],
    ['a name inherited from Object.prototype', policiesOf(), 'toString', 'unknown-profile'],
  ])('%s → RESOLVER_REJECT', (_label, policies, name, reason) => {
    const errors = rejects({}, policies, name);
    expect(errors[0]).toMatchObject({
      code: 'RESOLVER_REJECT',
      reason,
      pointer: '/x-portcullis-sandbox-profile',
    });
  });

  it('a spec picks its profile with x-portcullis-sandbox-profile, over the configured default', () => {
    const policies = policiesOf(referenceBaseline(), [
      profile('strict-net', { networkMode: 'strict' }),
      profile('reader', { fileMode: 'read' }),
    ]);
    const resolver = createPolicyResolver(policies, { defaultProfile: 'reader' });
    const plain = resolver.policyFor(specOf({ name: 'a' }));
    const own = resolver.policyFor(specOf({ name: 'b', 'x-portcullis-sandbox-profile': 'strict-net' }));
    expect(plain.policy).toMatchObject({ fileRead: true, networkMode: 'blocked' });
    expect(own.policy).toMatchObject({ fileRead: false, networkMode: 'strict' });
  });

  it('policyFor throws one RESOLVER_REJECT that carries every problem', () => {
    const resolver = createPolicyResolver(policiesOf());
    const spec = specOf({
      name: 'bad',
      sandboxOverrides: { networkMode: 'x', addDenyClasses: ['java.lang.*'] },
    });
    expect(() => resolver.policyFor(spec)).toThrow(expect.objectContaining({ code: 'RESOLVER_REJECT' }));
    try {
      resolver.policyFor(spec);
    } catch (error) {
      expect((error as { details?: { errors?: unknown[] } }).details?.errors).toHaveLength(2);
    }
  });
});

describe('normalizeHostPattern', () => {
  it.each([
    ['api.example.com', 'api.example.com'],
    ['*', '*'],
    ['*.Example.COM', '*.example.com'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['localhost', 'localhost'],
    ['http://x', undefined],
    ['a/b', undefined],
    ['user@host', undefined],
    ['', undefined],
    ['**', undefined],
  ])('%j → %j', (input, output) => {
    expect(normalizeHostPattern(input)).toBe(output);
  });
});
