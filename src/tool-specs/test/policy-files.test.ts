import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSandboxPolicies, parseSandboxBaseline, parseSandboxProfiles } from '../policy-files.ts';
import { resolveSandbox } from '../resolver.ts';
import { REFERENCE_ALLOW, REFERENCE_DENY } from './fixtures.ts';

describe('bundled policy files', () => {
  it('the baseline holds the reference lists, network blocked, files off and the documented limits', async () => {
    const { baseline } = await loadSandboxPolicies();
    expect(baseline.denyClasses).toEqual(REFERENCE_DENY);
    expect(baseline.allowClasses).toEqual(REFERENCE_ALLOW);
    expect(baseline).toMatchObject({
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
    });
  });

  it.each([
    ['pure-compute', { networkMode: 'blocked', fileRead: false, fileWrite: false }],
    ['http-read', { networkMode: 'strict', fileRead: false, fileWrite: false }],
    ['workspace-read', { networkMode: 'blocked', fileRead: true, fileWrite: false }],
    ['workspace-rw', { networkMode: 'blocked', fileRead: true, fileWrite: true, destructive: false }],
  ])('profile %s resolves', async (name, expected) => {
    const policies = await loadSandboxPolicies();
    const result = resolveSandbox({ policies, overrides: {}, profile: name });
    expect(result.ok && result.value.policy).toMatchObject(expected);
  });
});

describe('policy file validation', () => {
  it('rejects an unknown key, naming the file and the path', () => {
    expect(() =>
      parseSandboxBaseline(
        'allowClasses: []\ndenyClasses: []\nnetwork: {mode: blocked}\nfiles: {read: false, write: false}\nlimits: {}\nsurprise: 1\n',
        'b.yaml',
      ),
    ).toThrow(/b\.yaml: .*surprise/);
  });

  it('rejects an upper-case network mode in a profile (files are validated strictly)', () => {
    expect(() => parseSandboxProfiles('profiles:\n  p:\n    network: {mode: OPEN}\n')).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });

  it('rejects a YAML custom tag', () => {
    expect(() => parseSandboxProfiles('profiles: !!js/object {}\n')).toThrow(/Unresolved tag/);
  });

  it('reads a policies directory and reports a missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portcullis-policies-'));
    try {
      await expect(loadSandboxPolicies(dir)).rejects.toMatchObject({ code: 'CONFIG_NOT_FOUND' });
      await writeFile(
        join(dir, 'sandbox-baseline.yaml'),
        'allowClasses: [a.*]\ndenyClasses: [a.B]\nnetwork: {mode: strict}\nfiles: {read: true, write: false}\n' +
          'limits: {memoryMb: 8, cpuTimeMs: 10, wallTimeMs: 20, maxResultBytes: 30, maxConsoleEntries: 0, maxFetchBytes: 40}\n',
      );
      await writeFile(join(dir, 'sandbox-profiles.yaml'), 'profiles: {}\n');
      const policies = await loadSandboxPolicies(dir);
      expect(policies.baseline).toMatchObject({
        networkMode: 'strict',
        fileRead: true,
        allowClasses: ['a.*'],
      });
      expect(policies.profiles).toEqual({});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
