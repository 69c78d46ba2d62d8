/** Shared test data: the reference baseline (docs/rules/sandbox.md, R-SANDBOX-4) and small spec builders. */
import { parseSpec } from '../document.ts';
import type { SandboxBaseline, SandboxPolicies, SandboxProfile } from '../policy-files.ts';
import type { SafeToolSpec } from '../types.ts';

/** The reference deny list (12 entries). */
export const REFERENCE_DENY = [
  'java.lang.System',
  'java.lang.Runtime',
  'java.lang.ProcessBuilder',
  'java.lang.Process',
  'java.lang.Class',
  'java.lang.invoke.*',
  'java.lang.reflect.*',
  'java.lang.Thread',
  'java.lang.ThreadGroup',
  'java.lang.ClassLoader',
  'java.util.ServiceLoader',
  'java.util.spi.*',
];

/** The reference allow list (5 entries). */
export const REFERENCE_ALLOW = ['java.lang.*', 'java.math.*', 'java.time.*', 'java.util.*', 'java.text.*'];

/** A baseline with the reference lists, network blocked and files off. */
export function referenceBaseline(overrides: Partial<SandboxBaseline> = {}): SandboxBaseline {
  return {
    allowClasses: [...REFERENCE_ALLOW],
    denyClasses: [...REFERENCE_DENY],
    networkMode: 'blocked',
    hostsAllow: [],
    fileRead: false,
    fileWrite: false,
    fsBasePath: null,
    destructive: false,
    maxStatements: 500_000,
    limits: {
      memoryMb: 64,
      cpuTimeMs: 5000,
      wallTimeMs: 30_000,
      maxResultBytes: 1_048_576,
      maxConsoleEntries: 1000,
      maxFetchBytes: 10_485_760,
    },
    ...overrides,
  };
}

/** A profile with empty lists plus the given fields. */
export function profile(name: string, fields: Partial<SandboxProfile> = {}): SandboxProfile {
  return { name, allowClasses: [], denyClasses: [], ...fields };
}

/** Policies from a baseline and profiles. */
export function policiesOf(baseline = referenceBaseline(), profiles: SandboxProfile[] = []): SandboxPolicies {
  return { baseline, profiles: Object.fromEntries(profiles.map((p) => [p.name, p])) };
}

/** Parses a spec document or fails the test with every problem. */
export function specOf(doc: Record<string, unknown>, source?: string): SafeToolSpec {
  const result = parseSpec({ code: 'return 1;', codeType: 'Javascript', ...doc }, source);
  if (!result.ok)
    throw new Error(result.errors.map((e) => `${e.code} ${e.pointer ?? ''} ${e.message}`).join('\n'));
  return result.value;
}
