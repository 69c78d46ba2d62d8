/**
 * The sandbox policy resolver (docs/rules/sandbox.md#r-sandbox-5-policy-resolution): baseline → profile chain →
 * per-spec sandboxOverrides, merged ONCE. Enforcement, toolSafety and the Risk Level all read this result.
 * Pure: plain data in, plain data out.
 * Longer than most files on purpose: one merge over one policy shape, field by field; splitting the fields apart
 * would hide which layer wins for each.
 */
import { PortcullisError } from '../errors/index.ts';
import type { SandboxBaseline, SandboxPolicies, SandboxProfile } from './policy-files.ts';
import type { NetworkMode, SandboxLimits, SandboxPolicy } from './deps.ts';
import { createSpecError, joinPointer, type SpecResult } from './spec-error.ts';
import type { SafeToolSpec, SandboxOverrides } from './types.ts';

/** Deepest allowed profile chain (a profile plus the ones it extends). */
export const MAX_PROFILE_DEPTH = 8;

/** The top-level extension field a spec may use to pick a named sandbox profile. */
export const PROFILE_FIELD = 'x-portcullis-sandbox-profile';

const NETWORK_MODES: readonly NetworkMode[] = ['blocked', 'allowlist', 'strict', 'open'];

/** The merged posture: the runtime policy plus the class lists (accepted, merged, checked and scored only). */
export interface ResolvedSandbox {
  policy: SandboxPolicy;
  /** Effective allow list: (baseline ∪ profiles ∪ add) − remove. */
  allowClasses: string[];
  /** Effective deny list: (baseline ∪ profiles ∪ add) − remove; removal wins (R-SANDBOX-5). */
  denyClasses: string[];
  /** Always false: Portcullis grants no host-class interop (R-SANDBOX-2). */
  javaInterop: false;
  /** Applied profiles, root first; empty when none was named. */
  profileChain: string[];
  /** The baseline lists the Risk Level compares against. */
  baselineAllowClasses: string[];
  baselineDenyClasses: string[];
  /** The reference statement limit, informational: enforced as `policy.limits.cpuTimeMs`. */
  maxStatements: number;
}

/** What the resolver needs. */
export interface ResolveInput {
  policies: SandboxPolicies;
  overrides: SandboxOverrides | null | undefined;
  /** A profile name, or none for the bare baseline. */
  profile?: string | null;
  /** Where the profile name came from, for error pointers ('' when it came from configuration). */
  profilePointer?: string;
}

/** True when `value` is one of the four network modes (after normalization). */
export function isNetworkMode(value: unknown): value is NetworkMode {
  return typeof value === 'string' && (NETWORK_MODES as readonly string[]).includes(value);
}

/** Lower-cases and trims a declared network mode; undefined when it is not one of the four (R-SANDBOX-5). */
export function normalizeNetworkMode(value: string): NetworkMode | undefined {
  const lowered = value.trim().toLowerCase();
  return isNetworkMode(lowered) ? lowered : undefined;
}

const HOST_LABELS =
  /^(?:\*|(?:\*\.)?[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?)$/;
const IPV6_LITERAL = /^\[?[0-9a-f:.]+\]?$/;

/** A host pattern trimmed and lower-cased, or undefined when it is not a host (`*`, `*.x.y`, a name or an IP). */
export function normalizeHostPattern(value: string): string | undefined {
  const host = value.trim().toLowerCase();
  if (host === '') return undefined;
  if (HOST_LABELS.test(host)) return host;
  if (host.includes(':') && IPV6_LITERAL.test(host)) return host.replace(/^\[|\]$/g, '');
  return undefined;
}

interface Draft {
  allow: Set<string>;
  deny: Set<string>;
  networkMode: NetworkMode;
  hosts: string[];
  fileRead: boolean;
  fileWrite: boolean;
  fsBasePath: string | null;
  destructive: boolean;
  secretsInCode: boolean;
  limits: SandboxLimits;
}

function startFrom(baseline: SandboxBaseline): Draft {
  return {
    allow: new Set(baseline.allowClasses),
    deny: new Set(baseline.denyClasses),
    networkMode: baseline.networkMode,
    hosts: [...baseline.hostsAllow],
    fileRead: baseline.fileRead,
    fileWrite: baseline.fileWrite,
    fsBasePath: baseline.fsBasePath,
    destructive: baseline.destructive,
    // Only a spec may ask for plaintext secrets: no baseline or profile hands them out to every tool.
    secretsInCode: false,
    limits: { ...baseline.limits },
  };
}

function profileChain(
  name: string,
  profiles: Readonly<Record<string, SandboxProfile>>,
  pointer: string,
): { ok: true; chain: SandboxProfile[] } | { ok: false; error: PortcullisError } {
  const chain: SandboxProfile[] = [];
  const seen: string[] = [];
  let current: string | undefined = name;
  while (current !== undefined) {
    const profile: SandboxProfile | undefined = Object.hasOwn(profiles, current)
      ? profiles[current]
      : undefined;
    if (profile === undefined) {
      const via = seen.length === 0 ? '' : ` (extended by "${seen[seen.length - 1] ?? ''}")`;
      return {
        ok: false,
        error: createSpecError(
          'RESOLVER_REJECT',
          pointer,
          `unknown sandbox profile "${current}"${via}; known profiles: ${Object.keys(profiles).join(', ') || 'none'}`,
          { reason: 'unknown-profile' },
        ),
      };
    }
    if (seen.includes(current)) {
      return {
        ok: false,
        error: createSpecError(
          'RESOLVER_REJECT',
          pointer,
          `sandbox profiles extend each other in a cycle: ${[...seen, current].join(' → ')}`,
          { reason: 'profile-cycle' },
        ),
      };
    }
    seen.push(current);
    chain.unshift(profile);
    if (chain.length > MAX_PROFILE_DEPTH) {
      return {
        ok: false,
        error: createSpecError(
          'RESOLVER_REJECT',
          pointer,
          `the sandbox profile chain from "${name}" is deeper than ${MAX_PROFILE_DEPTH}: ${seen.join(' → ')} …`,
          { reason: 'profile-too-deep' },
        ),
      };
    }
    current = profile.extends;
  }
  return { ok: true, chain };
}

function applyProfile(draft: Draft, profile: SandboxProfile): void {
  for (const cls of profile.allowClasses) draft.allow.add(cls);
  for (const cls of profile.denyClasses) draft.deny.add(cls);
  if (profile.networkMode !== undefined) {
    draft.networkMode = profile.networkMode;
    draft.hosts = [...(profile.hostsAllow ?? [])];
  } else if (profile.hostsAllow !== undefined) {
    draft.hosts = [...profile.hostsAllow];
  }
  switch (profile.fileMode) {
    case 'off':
      draft.fileRead = false;
      draft.fileWrite = false;
      break;
    case 'read':
      draft.fileRead = true;
      draft.fileWrite = false;
      break;
    case 'read+write':
    case 'readwrite':
      draft.fileRead = true;
      draft.fileWrite = true;
      break;
    case undefined:
      break;
  }
  if (profile.fsBasePath !== undefined) draft.fsBasePath = profile.fsBasePath;
  if (profile.destructive !== undefined) draft.destructive = profile.destructive;
  if (profile.limits !== undefined) draft.limits = { ...draft.limits, ...profile.limits };
}

const OV = 'sandboxOverrides';

function applyOverrides(draft: Draft, overrides: SandboxOverrides, errors: PortcullisError[]): void {
  for (const cls of overrides.addAllowClasses ?? []) draft.allow.add(cls);
  for (const cls of overrides.removeAllowClasses ?? []) draft.allow.delete(cls);
  for (const cls of overrides.addDenyClasses ?? []) draft.deny.add(cls);
  // Removal wins (R-SANDBOX-5): a class both added to and removed from the deny list ends up NOT denied, and is scored so.
  for (const cls of overrides.removeDenyClasses ?? []) draft.deny.delete(cls);

  if (overrides.networkMode !== undefined && overrides.networkMode !== null) {
    const mode = normalizeNetworkMode(overrides.networkMode);
    if (mode === undefined) {
      errors.push(
        createSpecError(
          'RESOLVER_REJECT',
          joinPointer(OV, 'networkMode'),
          `network mode "${overrides.networkMode}" is not one of ${NETWORK_MODES.join(', ')}`,
          { reason: 'unknown-network-mode' },
        ),
      );
    } else draft.networkMode = mode;
  }
  (overrides.hostsAllow ?? []).forEach((raw, index) => {
    const host = normalizeHostPattern(raw);
    if (host === undefined) {
      errors.push(
        createSpecError(
          'RESOLVER_REJECT',
          joinPointer(OV, 'hostsAllow', index),
          `"${raw}" is not a host pattern; write a bare host name (api.example.com), *.example.com, or * for any host`,
          { reason: 'invalid-host' },
        ),
      );
    } else if (!draft.hosts.includes(host)) draft.hosts.push(host);
  });
  if (typeof overrides.fileRead === 'boolean') draft.fileRead = overrides.fileRead;
  if (typeof overrides.fileWrite === 'boolean') draft.fileWrite = overrides.fileWrite;
  if (typeof overrides.destructive === 'boolean') draft.destructive = overrides.destructive;
  if (typeof overrides.secretsInCode === 'boolean') draft.secretsInCode = overrides.secretsInCode;
  if (typeof overrides.fsBasePath === 'string') {
    if (overrides.fsBasePath.trim() === '' || overrides.fsBasePath.includes('\u0000')) {
      errors.push(
        createSpecError(
          'RESOLVER_REJECT',
          joinPointer(OV, 'fsBasePath'),
          'fsBasePath must be a non-blank path',
          {
            reason: 'invalid-base-path',
          },
        ),
      );
    } else draft.fsBasePath = overrides.fsBasePath;
  }
}

function overlapPointer(cls: string, overrides: SandboxOverrides): string {
  const allowAt = (overrides.addAllowClasses ?? []).indexOf(cls);
  if (allowAt !== -1) return joinPointer(OV, 'addAllowClasses', allowAt);
  const denyAt = (overrides.addDenyClasses ?? []).indexOf(cls);
  if (denyAt !== -1) return joinPointer(OV, 'addDenyClasses', denyAt);
  return '/' + OV;
}

/** Resolves one posture; every problem (profile, network mode, hosts, allow/deny overlap) is reported. */
export function resolveSandbox(input: ResolveInput): SpecResult<ResolvedSandbox> {
  const { baseline, profiles } = input.policies;
  const overrides = input.overrides ?? {};
  const draft = startFrom(baseline);
  const errors: PortcullisError[] = [];
  let chainNames: string[] = [];
  if (input.profile !== undefined && input.profile !== null && input.profile !== '') {
    const chain = profileChain(input.profile, profiles, input.profilePointer ?? '');
    if (!chain.ok) errors.push(chain.error);
    else {
      for (const profile of chain.chain) applyProfile(draft, profile);
      chainNames = chain.chain.map((p) => p.name);
    }
  }
  applyOverrides(draft, overrides, errors);
  // R-SANDBOX-5: exact-string disjointness of the final lists (pattern overlap is fine: lookup is deny-first).
  for (const cls of draft.allow) {
    if (!draft.deny.has(cls)) continue;
    errors.push(
      createSpecError(
        'RESOLVER_REJECT',
        overlapPointer(cls, overrides),
        `"${cls}" is in both the allow and the deny class lists after merging; to allow it, also list it in removeDenyClasses, or drop it from addAllowClasses`,
        { reason: 'allow-deny-overlap', details: { class: cls } },
      ),
    );
  }
  if (errors.length > 0) return { ok: false, errors };
  const hosts = draft.networkMode === 'allowlist' ? draft.hosts : [];
  return {
    ok: true,
    value: {
      policy: {
        networkMode: draft.networkMode,
        hostsAllow: hosts,
        fileRead: draft.fileRead,
        fileWrite: draft.fileWrite,
        fsBasePath: draft.fsBasePath,
        destructive: draft.destructive,
        secretsInCode: draft.secretsInCode,
        limits: draft.limits,
      },
      allowClasses: [...draft.allow],
      denyClasses: [...draft.deny],
      javaInterop: false,
      profileChain: chainNames,
      baselineAllowClasses: [...baseline.allowClasses],
      baselineDenyClasses: [...baseline.denyClasses],
      maxStatements: baseline.maxStatements,
    },
  };
}

/** The profile a spec asks for through its extension field, else the configured default. */
export function profileOf(spec: SafeToolSpec, defaultProfile?: string | null): string | null {
  const own = spec.extensions[PROFILE_FIELD];
  if (typeof own === 'string' && own !== '') return own;
  return defaultProfile ?? null;
}

/** Resolves a spec's posture against the policies (its own profile field wins over `defaultProfile`). */
export function resolveSpecSandbox(
  spec: SafeToolSpec,
  policies: SandboxPolicies,
  defaultProfile?: string | null,
): SpecResult<ResolvedSandbox> {
  const own = spec.extensions[PROFILE_FIELD];
  return resolveSandbox({
    policies,
    overrides: spec.sandboxOverrides,
    profile: profileOf(spec, defaultProfile),
    profilePointer: typeof own === 'string' && own !== '' ? joinPointer(PROFILE_FIELD) : '',
  });
}

/** One error standing for several: the first one's code and pointer, every message, all of them in details. */
export function combineSpecErrors(errors: readonly PortcullisError[]): PortcullisError {
  const first = errors[0];
  if (first === undefined) throw new TypeError('combineSpecErrors needs at least one error');
  if (errors.length === 1) return first;
  return new PortcullisError(first.code, errors.map((e) => e.message).join('; '), {
    pointer: first.pointer ?? '',
    details: { errors: errors.map((e) => e.toJSON()) },
  });
}

/** Resolves the runtime posture of a spec, for the gateway and the Local Pass. */
export type PolicyFor = (spec: SafeToolSpec) => ResolvedSandbox;

/** A resolver bound to one set of policies: `resolve` returns problems, `policyFor` throws RESOLVER_REJECT. */
export interface PolicyResolver {
  resolve(spec: SafeToolSpec): SpecResult<ResolvedSandbox>;
  policyFor: PolicyFor;
  readonly policies: SandboxPolicies;
}

/** Binds the resolver to loaded policies and an optional default profile (configuration `tools.profile`). */
export function createPolicyResolver(
  policies: SandboxPolicies,
  options: { defaultProfile?: string | null } = {},
): PolicyResolver {
  const resolve = (spec: SafeToolSpec): SpecResult<ResolvedSandbox> =>
    resolveSpecSandbox(spec, policies, options.defaultProfile);
  return {
    policies,
    resolve,
    policyFor: (spec) => {
      const result = resolve(spec);
      if (!result.ok) throw combineSpecErrors(result.errors);
      return result.value;
    },
  };
}
