// Builds sandbox policies for tests: generous limits unless a test narrows them.
import type { SandboxLimits, SandboxPolicy } from '../../src/sandbox/index.ts';

export function testPolicy(
  overrides: Partial<Omit<SandboxPolicy, 'limits'>> = {},
  limits: Partial<SandboxLimits> = {},
): SandboxPolicy {
  return {
    networkMode: 'blocked',
    hostsAllow: [],
    fileRead: false,
    fileWrite: false,
    fsBasePath: null,
    destructive: false,
    ...overrides,
    limits: {
      memoryMb: 64,
      cpuTimeMs: 10_000,
      wallTimeMs: 20_000,
      maxResultBytes: 1024 * 1024,
      maxConsoleEntries: 100,
      maxFetchBytes: 1024 * 1024,
      ...limits,
    },
  };
}
