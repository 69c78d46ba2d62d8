/**
 * The sandbox baseline and the named sandbox profiles (docs/rules/sandbox.md#r-sandbox-4-the-baseline), read from
 * `policies/sandbox-baseline.yaml` and `policies/sandbox-profiles.yaml` and validated with a schema.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { parseDocument } from 'yaml';
import { PortcullisError } from '../errors/index.ts';
import type { NetworkMode, SandboxLimits, SandboxPolicy } from './deps.ts';

/** How a profile sets file access (R-SANDBOX-5). */
export type FileMode = 'off' | 'read' | 'read+write' | 'readwrite';

/** The baseline every tool starts from: a sandbox policy plus the class lists and the statement limit. */
export interface SandboxBaseline extends SandboxPolicy {
  allowClasses: string[];
  denyClasses: string[];
  /** The reference's statement limit; informational, enforced as the CPU-time budget (R-SANDBOX-1). */
  maxStatements: number;
}

/** A named profile that widens or narrows the baseline and may extend another profile. */
export interface SandboxProfile {
  name: string;
  description?: string;
  extends?: string;
  allowClasses: string[];
  denyClasses: string[];
  networkMode?: NetworkMode;
  hostsAllow?: string[];
  fileMode?: FileMode;
  fsBasePath?: string;
  destructive?: boolean;
  /** Accepted for compatibility and ignored: Portcullis grants no host-class interop (R-SANDBOX-2). */
  javaInterop?: boolean;
  limits?: Partial<SandboxLimits>;
}

/** The baseline plus the profiles, as the resolver takes them. */
export interface SandboxPolicies {
  baseline: SandboxBaseline;
  profiles: Readonly<Record<string, SandboxProfile>>;
}

const NETWORK_MODES = ['blocked', 'allowlist', 'strict', 'open'];
const classList = { type: 'array', items: { type: 'string', minLength: 1 } };
const positiveInt = { type: 'integer', minimum: 1 };
const limitsProperties = {
  memoryMb: positiveInt,
  cpuTimeMs: positiveInt,
  wallTimeMs: positiveInt,
  maxResultBytes: positiveInt,
  maxConsoleEntries: { type: 'integer', minimum: 0 },
  maxFetchBytes: positiveInt,
};
const network = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: { enum: NETWORK_MODES },
    hostsAllow: { type: 'array', items: { type: 'string', minLength: 1 } },
  },
};

const baselineSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['allowClasses', 'denyClasses', 'network', 'files', 'limits'],
  properties: {
    allowClasses: classList,
    denyClasses: classList,
    network: { ...network, required: ['mode'] },
    files: {
      type: 'object',
      additionalProperties: false,
      required: ['read', 'write'],
      properties: {
        read: { type: 'boolean' },
        write: { type: 'boolean' },
        basePath: { type: ['string', 'null'], minLength: 1 },
      },
    },
    destructive: { type: 'boolean' },
    maxStatements: positiveInt,
    limits: {
      type: 'object',
      additionalProperties: false,
      required: Object.keys(limitsProperties),
      properties: limitsProperties,
    },
  },
};

const profilesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['profiles'],
  properties: {
    profiles: {
      type: 'object',
      propertyNames: { pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          description: { type: 'string' },
          extends: { type: 'string', minLength: 1 },
          allowClasses: classList,
          denyClasses: classList,
          network,
          fileMode: { enum: ['off', 'read', 'read+write', 'readwrite'] },
          fsBasePath: { type: 'string', minLength: 1 },
          destructive: { type: 'boolean' },
          javaInterop: { type: 'boolean' },
          limits: { type: 'object', additionalProperties: false, properties: limitsProperties },
        },
      },
    },
  },
};

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validateBaseline = ajv.compile(baselineSchema);
const validateProfiles = ajv.compile(profilesSchema);

/** The directory of the bundled policy files (`policies/` at the repository root). */
export const BUNDLED_POLICIES_DIR = fileURLToPath(new URL('../../policies/', import.meta.url));

/** File names inside a policies directory. */
export const BASELINE_FILE = 'sandbox-baseline.yaml';
export const PROFILES_FILE = 'sandbox-profiles.yaml';

function describe(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const params = e.params as Record<string, unknown>;
    const at = e.instancePath === '' ? '/' : e.instancePath;
    if (e.keyword === 'additionalProperties')
      return `${at}: unknown key "${String(params['additionalProperty'])}"`;
    if (e.keyword === 'required') return `${at}: missing key "${String(params['missingProperty'])}"`;
    return `${at}: ${e.message ?? e.keyword}`;
  });
}

function invalid(file: string, problems: string[]): PortcullisError {
  return new PortcullisError('CONFIG_INVALID', `${file}: ${problems.join('; ')}`, {
    pointer: '',
    details: { file, problems },
  });
}

function parseYamlDocument(text: string, file: string): unknown {
  // Core schema only; unknown tags (warnings in the yaml package) are refused like errors.
  const doc = parseDocument(text, { schema: 'core', prettyErrors: false });
  const problems = [...doc.errors, ...doc.warnings].map((e) => e.message);
  if (problems.length > 0)
    throw invalid(
      file,
      problems.map((p) => `not acceptable YAML (${p})`),
    );
  try {
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (cause) {
    throw invalid(file, [`not acceptable YAML (${cause instanceof Error ? cause.message : String(cause)})`]);
  }
}

/** Parses and validates the baseline YAML text; throws CONFIG_INVALID naming every problem. */
export function parseSandboxBaseline(text: string, file = BASELINE_FILE): SandboxBaseline {
  const doc = parseYamlDocument(text, file);
  if (!validateBaseline(doc)) throw invalid(file, describe(validateBaseline.errors));
  const d = doc as {
    allowClasses: string[];
    denyClasses: string[];
    network: { mode: NetworkMode; hostsAllow?: string[] };
    files: { read: boolean; write: boolean; basePath?: string | null };
    destructive?: boolean;
    maxStatements?: number;
    limits: SandboxLimits;
  };
  return {
    allowClasses: [...new Set(d.allowClasses)],
    denyClasses: [...new Set(d.denyClasses)],
    networkMode: d.network.mode,
    hostsAllow: d.network.hostsAllow ?? [],
    fileRead: d.files.read,
    fileWrite: d.files.write,
    fsBasePath: d.files.basePath ?? null,
    destructive: d.destructive ?? false,
    maxStatements: d.maxStatements ?? 500_000,
    limits: { ...d.limits },
  };
}

/** Parses and validates the profiles YAML text; throws CONFIG_INVALID naming every problem. */
export function parseSandboxProfiles(text: string, file = PROFILES_FILE): Record<string, SandboxProfile> {
  const doc = parseYamlDocument(text, file);
  if (!validateProfiles(doc)) throw invalid(file, describe(validateProfiles.errors));
  const raw = (doc as { profiles: Record<string, Record<string, unknown>> }).profiles;
  const out: Record<string, SandboxProfile> = {};
  for (const [name, p] of Object.entries(raw)) {
    const net = p['network'] as { mode?: NetworkMode; hostsAllow?: string[] } | undefined;
    const profile: SandboxProfile = {
      name,
      allowClasses: (p['allowClasses'] as string[] | undefined) ?? [],
      denyClasses: (p['denyClasses'] as string[] | undefined) ?? [],
    };
    if (typeof p['description'] === 'string') profile.description = p['description'];
    if (typeof p['extends'] === 'string') profile.extends = p['extends'];
    if (net?.mode !== undefined) profile.networkMode = net.mode;
    if (net?.hostsAllow !== undefined) profile.hostsAllow = net.hostsAllow;
    if (typeof p['fileMode'] === 'string') profile.fileMode = p['fileMode'] as FileMode;
    if (typeof p['fsBasePath'] === 'string') profile.fsBasePath = p['fsBasePath'];
    if (typeof p['destructive'] === 'boolean') profile.destructive = p['destructive'];
    if (typeof p['javaInterop'] === 'boolean') profile.javaInterop = p['javaInterop'];
    if (p['limits'] !== undefined) profile.limits = p['limits'] as Partial<SandboxLimits>;
    out[name] = profile;
  }
  return out;
}

/** Reads the baseline and the profiles from a policies directory (default: the bundled `policies/`). */
export async function loadSandboxPolicies(dir: string = BUNDLED_POLICIES_DIR): Promise<SandboxPolicies> {
  const baselinePath = join(dir, BASELINE_FILE);
  const profilesPath = join(dir, PROFILES_FILE);
  const read = async (path: string): Promise<string> => {
    try {
      return await readFile(path, 'utf8');
    } catch (cause) {
      throw new PortcullisError('CONFIG_NOT_FOUND', `cannot read the sandbox policy file ${path}`, { cause });
    }
  };
  const baseline = parseSandboxBaseline(await read(baselinePath), baselinePath);
  const profiles = parseSandboxProfiles(await read(profilesPath), profilesPath);
  return { baseline, profiles };
}
