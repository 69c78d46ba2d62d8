import { describe, expect, it } from 'vitest';
import { resolveSandbox } from '../resolver.ts';
import { computeToolSafety, deriveHelpers, RUNTIME_ID } from '../tool-safety.ts';
import type { SandboxOverrides } from '../types.ts';
import { policiesOf, profile, referenceBaseline } from './fixtures.ts';

function safetyOf(overrides: SandboxOverrides, code = 'return 1;', name?: string) {
  const policies = policiesOf(referenceBaseline(), [profile('tight', { limits: { cpuTimeMs: 1234 } })]);
  const result = resolveSandbox({ policies, overrides, profile: name ?? null });
  if (!result.ok) throw new Error('unexpected rejection');
  return { resolved: result.value, safety: computeToolSafety({ code, category: 'WEB' }, result.value) };
}

describe('toolSafety (R-SPEC-9)', () => {
  it('matches the getUpbitTicker capabilities for a one-host allowlist', () => {
    const { safety } = safetyOf({ networkMode: 'allowlist', hostsAllow: ['api.upbit.com'] });
    expect(safety).toMatchObject({
      version: '1.0',
      runtime: {
        id: RUNTIME_ID,
        javaInterop: false,
        helpers: ['safety.http/v1'],
        console: true,
        ecmaVersion: '2024',
      },
      category: { source: 'user', id: 'WEB' },
      capabilities: {
        network: { mode: 'allowlist', hosts: ['api.upbit.com'] },
        fileRead: false,
        fileWrite: false,
      },
    });
  });

  it('is computed from the same merge enforcement uses', () => {
    for (const overrides of [
      { networkMode: 'OPEN' },
      { networkMode: 'strict', hostsAllow: ['ignored.example'] },
      { fileRead: true, fsBasePath: '/srv/x' },
      { fileWrite: true, destructive: true },
    ] satisfies SandboxOverrides[]) {
      const { resolved, safety } = safetyOf(overrides);
      expect(safety.capabilities.network).toEqual({
        mode: resolved.policy.networkMode,
        hosts: resolved.policy.hostsAllow,
      });
      expect(safety.capabilities.fileRead).toBe(resolved.policy.fileRead);
      expect(safety.capabilities.fileWrite).toBe(resolved.policy.fileWrite);
      expect(safety.enforcement.fsBasePath).toBe(resolved.policy.fsBasePath);
      expect(safety.enforcement.destructive).toBe(resolved.policy.destructive);
      expect(safety.enforcement.cpuTimeMs).toBe(resolved.policy.limits.cpuTimeMs);
    }
  });

  it('says that the statement limit is enforced as a CPU-time budget', () => {
    const { safety } = safetyOf({}, 'return 1;', 'tight');
    expect(safety.enforcement.statementLimit).toMatch(/CPU-time budget/);
    expect(safety.enforcement.cpuTimeMs).toBe(1234);
    expect(safety.enforcement.profiles).toEqual(['tight']);
  });

  it('never claims host-class interop, even with widened class lists (R-SANDBOX-2)', () => {
    const { safety } = safetyOf({ addAllowClasses: ['java.net.URL'] });
    expect(safety.runtime.javaInterop).toBe(false);
  });

  it.each<[string, SandboxOverrides, string, string[]]>([
    ['pure compute', {}, 'return x + 1;', []],
    ['network', { networkMode: 'strict' }, 'return 1;', ['safety.http/v1']],
    ['files', { fileRead: true }, 'return 1;', ['safety.fs/v1']],
    ['parser use', {}, 'return safety.parser.csv(t);', ['safety.parser/v1']],
    ['crypto use', {}, 'return crypto.subtle.digest("SHA-256", b);', ['tool-safety-helpers/v1#crypto']],
    ['encoding use', {}, 'return btoa(t);', ['tool-safety-helpers/v1#encoding']],
  ])('helpers for %s', (_label, overrides, code, helpers) => {
    const { resolved } = safetyOf(overrides);
    expect(deriveHelpers(resolved, code)).toEqual(helpers);
    for (const helper of helpers) expect(helper).toMatch(/^[a-z][a-z0-9.-]*\/v[0-9]+(#[a-z0-9-]+)?$/);
  });
});

describe('toolSafety shows how secrets reach tool code', () => {
  it('handles by default, plaintext only with secretsInCode', () => {
    expect(safetyOf({}).safety.capabilities.secretsInCode).toBe(false);
    expect(safetyOf({ secretsInCode: true }).safety.capabilities.secretsInCode).toBe(true);
  });

  it('lists the secret helpers when the code uses them', () => {
    const code = "return safety.crypto.hmac(key, 'x') + safety.http.basicAuth(user, key);";
    expect(safetyOf({}, code).safety.runtime.helpers).toContain('tool-safety-helpers/v1#secrets');
    expect(safetyOf({}).safety.runtime.helpers).not.toContain('tool-safety-helpers/v1#secrets');
  });
});
