/**
 * The toolSafety block (docs/rules/tool-specs.md#r-spec-9-the-toolsafety-block): computed from the SAME merge
 * enforcement uses, never read back for enforcement. The Risk Level is not part of it (R-SPEC-8).
 */
import type { ResolvedSandbox } from './resolver.ts';
import type { NetworkMode } from './deps.ts';
import type { SafeToolSpec } from './types.ts';

/** The spec-schema version toolSafety blocks are written against. */
export const TOOL_SAFETY_VERSION = '1.0';

/** The runtime identifier Portcullis writes into toolSafety. */
export const RUNTIME_ID = 'portcullis/isolated-vm-js';

/** The lowest Portcullis version that runs tools with this toolSafety contract. */
export const RUNTIME_MIN_VERSION = '0.1.0';

/** How the statement limit of the spec is really enforced (R-SANDBOX-1). */
export const STATEMENT_LIMIT_NOTE =
  'V8 cannot count statements: the statement limit is enforced as a CPU-time budget (enforcement.cpuTimeMs)';

/** The resolved posture record audited on every call. */
export interface ToolSafety {
  version: string;
  runtime: {
    id: string;
    minVersion: string;
    ecmaVersion: string;
    javaInterop: false;
    helpers: string[];
    console: boolean;
  };
  category: { source: string; id: string | null };
  capabilities: {
    network: { mode: NetworkMode; hosts: string[] };
    fileRead: boolean;
    fileWrite: boolean;
    /** True when secrets reach tool code as plaintext; false when the code holds handles (the default). */
    secretsInCode: boolean;
  };
  /** Portcullis enforcement fields beside the format's capabilities (R-SPEC-9). */
  enforcement: {
    statementLimit: string;
    maxStatements: number;
    cpuTimeMs: number;
    wallTimeMs: number;
    memoryMb: number;
    maxResultBytes: number;
    maxConsoleEntries: number;
    maxFetchBytes: number;
    fsBasePath: string | null;
    destructive: boolean;
    profiles: string[];
  };
}

/** Helper groups a tool may use, derived from the posture (capability helpers) and from the code (the rest). */
export function deriveHelpers(resolved: ResolvedSandbox, code: string): string[] {
  const helpers: string[] = [];
  if (resolved.policy.fileRead || resolved.policy.fileWrite) helpers.push('safety.fs/v1');
  if (resolved.policy.networkMode !== 'blocked') helpers.push('safety.http/v1');
  if (/\bsafety\s*\.\s*parser\b/.test(code)) helpers.push('safety.parser/v1');
  if (/\bcrypto\s*\.\s*(?:subtle|getRandomValues)\b/.test(code))
    helpers.push('tool-safety-helpers/v1#crypto');
  if (/\b(?:atob|btoa|TextEncoder|TextDecoder)\b/.test(code)) helpers.push('tool-safety-helpers/v1#encoding');
  if (/\bsafety\s*\.\s*(?:crypto\s*\.\s*hmac|http\s*\.\s*basicAuth)\b/.test(code))
    helpers.push('tool-safety-helpers/v1#secrets');
  return helpers;
}

/** Computes the toolSafety block of a spec under its resolved posture. */
export function computeToolSafety(
  spec: Pick<SafeToolSpec, 'code' | 'category'>,
  resolved: ResolvedSandbox,
  options: { categorySource?: string } = {},
): ToolSafety {
  const { policy } = resolved;
  return {
    version: TOOL_SAFETY_VERSION,
    runtime: {
      id: RUNTIME_ID,
      minVersion: RUNTIME_MIN_VERSION,
      ecmaVersion: '2024',
      javaInterop: false,
      helpers: deriveHelpers(resolved, spec.code),
      console: true,
    },
    category: { source: options.categorySource ?? 'user', id: spec.category },
    capabilities: {
      network: { mode: policy.networkMode, hosts: [...policy.hostsAllow] },
      fileRead: policy.fileRead,
      fileWrite: policy.fileWrite,
      secretsInCode: policy.secretsInCode === true,
    },
    enforcement: {
      statementLimit: STATEMENT_LIMIT_NOTE,
      maxStatements: resolved.maxStatements,
      cpuTimeMs: policy.limits.cpuTimeMs,
      wallTimeMs: policy.limits.wallTimeMs,
      memoryMb: policy.limits.memoryMb,
      maxResultBytes: policy.limits.maxResultBytes,
      maxConsoleEntries: policy.limits.maxConsoleEntries,
      maxFetchBytes: policy.limits.maxFetchBytes,
      fsBasePath: policy.fsBasePath,
      destructive: policy.destructive,
      profiles: [...resolved.profileChain],
    },
  };
}
