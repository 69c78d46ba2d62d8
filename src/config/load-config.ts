/** Loads portcullis.yaml (or the embedded default), validates it, resolves `${ENV}` and freezes the result. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { PortcullisError } from '../errors/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import { parseDuration } from './duration.ts';
import { isMissingValue, PLACEHOLDER_PATTERN, type EnvLookup } from '../secrets/index.ts';
import type {
  AdminKeyConfig,
  AdminOAuthConfig,
  IntrospectionConfig,
  PortcullisConfig,
  UpstreamConfig,
} from './types.ts';
import { validateConfigDocument } from './validate.ts';
import { checkConfigSemantics } from './semantic-checks.ts';
import type { Era } from '../shared/index.ts';
import { resolveGuardSettings, type RawGuardSettings } from './guard-settings.ts';

/** The file looked for in the working directory when no --config is given. */
export const DEFAULT_CONFIG_FILE = 'portcullis.yaml';

/** Where to load from. */
export interface LoadConfigOptions {
  /** An explicit --config path; a missing file is an error. */
  path?: string;
  /** Working directory for the default file and relative paths. */
  cwd: string;
  /** Environment lookup for `${NAME}` placeholders. */
  lookup: EnvLookup;
}

/** A lookup over the process environment: the one place Portcullis reads process.env. */
export function processEnvLookup(): EnvLookup {
  return (name) => process.env[name];
}

/** Loads, validates and resolves the configuration; throws CONFIG_NOT_FOUND or CONFIG_INVALID. */
export function loadConfig(options: LoadConfigOptions): PortcullisConfig {
  const explicit = options.path !== undefined;
  const file = path.resolve(options.cwd, options.path ?? DEFAULT_CONFIG_FILE);
  if (!existsSync(file)) {
    if (explicit) throw new PortcullisError('CONFIG_NOT_FOUND', `configuration file not found: ${file}`);
    return buildConfig({}, 'embedded default', options.cwd, options.lookup);
  }
  return buildConfig(
    parseConfigText(readFileSync(file, 'utf8'), file),
    file,
    path.dirname(file),
    options.lookup,
  );
}

/** Parses YAML text into a document, turning syntax errors into CONFIG_INVALID with line and column. */
export function parseConfigText(text: string, source: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true }) ?? {};
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}` : '';
    throw new PortcullisError(
      'CONFIG_INVALID',
      `${source}${where}: not valid YAML: ${(error as Error).message}`,
    );
  }
}

/** Validates a parsed document and resolves it into a frozen config; throws CONFIG_INVALID listing every problem. */
export function buildConfig(
  document: unknown,
  source: string,
  baseDir: string,
  lookup: EnvLookup,
): PortcullisConfig {
  const raw = structuredClone(document ?? {}) as Record<string, unknown>;
  // Placeholders are substituted inside parsed strings first (so `${URL}` can fill a uri field), never into
  // the YAML text: an environment value cannot add structure to the document.
  const secrets = new Set<string>();
  const missing: string[] = [];
  const doc =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw)
      ? (resolvePlaceholders(raw, '', lookup, secrets, missing, isDisabledUpstreamPath(raw)) as Record<
          string,
          unknown
        >)
      : raw;
  // A missing variable is the actionable problem; a format error it causes downstream would only distract.
  if (missing.length > 0) throw invalid(source, missing);
  const problems = validateConfigDocument(doc);
  if (problems.length > 0) throw invalid(source, problems);
  inlineRulesFile(doc, baseDir, source);
  const semantic = checkConfigSemantics(doc);
  if (semantic.length > 0) throw invalid(source, semantic);
  const resolved = doc as unknown as RawConfig;

  const config = toConfig(resolved, source, baseDir, [...secrets]);
  return deepFreeze(config);
}

/**
 * `approval.rulesFile` (e.g. policies/approval.yaml, holding `rules:`) is read relative to the config file and
 * validated with the same schema as inline rules; inline rules come first, then the file's.
 */
function inlineRulesFile(doc: Record<string, unknown>, baseDir: string, source: string): void {
  const approval = doc.approval as { rulesFile?: string; rules?: unknown[] } | undefined;
  if (!approval?.rulesFile) return;
  const file = path.resolve(baseDir, approval.rulesFile);
  if (!existsSync(file)) throw invalid(source, [`approval.rulesFile: ${file} does not exist`]);
  const parsed = parseConfigText(readFileSync(file, 'utf8'), file) as {
    rules?: unknown[];
    approval?: { rules?: unknown[] };
  } | null;
  // Both shapes are accepted: a bare `rules:` list, or the `approval:` block copied from portcullis.yaml.
  const rules = parsed?.rules ?? parsed?.approval?.rules ?? [];
  const problems = validateConfigDocument({ approval: { rules } }).map((p) => `${file}: ${p}`);
  if (problems.length > 0) throw invalid(source, problems);
  approval.rules = [...(approval.rules ?? []), ...rules];
}

function invalid(source: string, problems: string[]): PortcullisError {
  return new PortcullisError(
    'CONFIG_INVALID',
    `invalid configuration (${source}):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    { details: { problems } },
  );
}

function isDisabledUpstreamPath(doc: Record<string, unknown>): (pathText: string) => boolean {
  const upstreams = (doc.upstreams ?? {}) as Record<string, { enabled?: boolean }>;
  return (pathText) => {
    const match = /^upstreams\.([^.[]+)/.exec(pathText);
    return match !== null && upstreams[match[1] as string]?.enabled === false;
  };
}

function resolvePlaceholders(
  value: unknown,
  at: string,
  lookup: EnvLookup,
  secrets: Set<string>,
  missing: string[],
  skip: (pathText: string) => boolean,
): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER_PATTERN, (whole, name: string) => {
      const found = lookup(name);
      if (isMissingValue(found)) {
        if (!skip(at))
          missing.push(`${at}: references \${${name}}, which is not set (or is blank) in the environment`);
        return whole;
      }
      secrets.add(found);
      return found;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, index) =>
      resolvePlaceholders(item, `${at}[${index}]`, lookup, secrets, missing, skip),
    );
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        resolvePlaceholders(inner, at ? `${at}.${key}` : key, lookup, secrets, missing, skip),
      ]),
    );
  }
  return value;
}

// The validated document shape (defaults already filled in by the schema).
interface RawConfig {
  listen: { host: string; port: number };
  auth?: { apiKeys?: (string | RawApiKey)[]; oauth?: RawOAuth };
  admin?: { keys?: AdminKeyConfig[]; allowedOrigins?: string[]; oauth?: AdminOAuthConfig };
  console?: { traceUrl?: string };
  http: {
    allowedHosts?: string[];
    allowedOrigins?: string[];
    maxBodyBytes: number;
    sessionIdleTimeout: string;
    maxSessions: number;
    maxSessionsPerPrincipal: number;
    maxRequestsPerPrincipal: number;
  };
  store: { path: string };
  exposure: PortcullisConfig['exposure'];
  poisoning?: RawGuardSettings['poisoning'];
  guards?: RawGuardSettings['guards'];
  callTimeout: string;
  upstreams?: Record<string, RawUpstream>;
  compositions?: Record<
    string,
    { enabled: boolean; maxRisk: RiskLevel; members: PortcullisConfig['compositions'][number]['members'] }
  >;
  profiles?: PortcullisConfig['profiles'];
  tools: { dir?: string; bundled: boolean; workspace: string; profile?: string };
  approval: {
    autoApproveThreshold: RiskLevel;
    elicitationTimeout: string;
    rules?: PortcullisConfig['approval']['rules'];
    rulesFile?: string;
    channel?: PortcullisConfig['approval']['channel'];
    inbox?: { maxPending?: number; maxPerPrincipal?: number; modernHold?: string };
  };
  telemetry: {
    serviceName: string;
    otlp?: { endpoint: string; headers?: Record<string, string> };
    captureArguments: boolean;
    logLevel: PortcullisConfig['telemetry']['logLevel'];
  };
}

interface RawApiKey {
  key: string;
  name: string;
  groups?: string[];
  scopes?: string[];
}

interface RawOAuth {
  issuer: string;
  audience: string;
  jwksUri?: string;
  requiredScopes: string[];
  principalClaim: string;
  groupsClaim: string;
  clockSkew: string;
  jwksCooldown: string;
  introspection?: IntrospectionConfig;
}

function toAuth(auth: RawConfig['auth']): PortcullisConfig['auth'] {
  const apiKeys = (auth?.apiKeys ?? []).map((entry) =>
    typeof entry === 'string'
      ? { key: entry, groups: [], scopes: [] }
      : { key: entry.key, name: entry.name, groups: entry.groups ?? [], scopes: entry.scopes ?? [] },
  );
  const oauth = auth?.oauth;
  if (oauth === undefined) return { apiKeys };
  return {
    apiKeys,
    oauth: {
      issuer: oauth.issuer,
      audience: oauth.audience,
      ...(oauth.jwksUri === undefined ? {} : { jwksUri: oauth.jwksUri }),
      requiredScopes: oauth.requiredScopes,
      principalClaim: oauth.principalClaim,
      groupsClaim: oauth.groupsClaim,
      clockSkewSeconds: Math.ceil(parseDuration(oauth.clockSkew) / 1000),
      jwksCooldownMs: parseDuration(oauth.jwksCooldown),
      ...(oauth.introspection === undefined ? {} : { introspection: oauth.introspection }),
    },
  };
}

interface RawUpstream {
  transport: 'stdio' | 'http' | 'sse';
  enabled: boolean;
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  protocol: 'auto' | Era;
  catalog?: string;
  callTimeout?: string;
  connectTimeout?: string;
  sampling: boolean;
  maxTools: number;
  tools?: { include?: string[]; exclude?: string[]; overrides?: Record<string, object> };
  prompts?: { overrides?: Record<string, object> };
}

function withDefaults(doc: Partial<RawConfig>): RawConfig {
  // The schema fills defaults only inside objects that exist; make every section exist first.
  const filled = { listen: {}, http: {}, store: {}, tools: {}, approval: {}, telemetry: {}, ...doc };
  validateConfigDocument(filled);
  return filled as RawConfig;
}

function toConfig(doc: RawConfig, source: string, baseDir: string, secrets: string[]): PortcullisConfig {
  const raw = withDefaults(doc);
  const callTimeoutMs = parseDuration(raw.callTimeout);
  const upstreams: UpstreamConfig[] = Object.entries(raw.upstreams ?? {}).map(([id, u]) => {
    const common = {
      id,
      enabled: u.enabled,
      protocol: u.protocol,
      ...(u.catalog === undefined ? {} : { catalog: u.catalog }),
      callTimeoutMs: u.callTimeout === undefined ? callTimeoutMs : parseDuration(u.callTimeout),
      ...(u.connectTimeout === undefined ? {} : { connectTimeoutMs: parseDuration(u.connectTimeout) }),
      sampling: u.sampling,
      maxTools: u.maxTools,
      promptOverrides: (u.prompts?.overrides ?? {}) as Record<string, object>,
      ...(u.tools === undefined
        ? {}
        : {
            tools: {
              include: u.tools.include ?? ['*'],
              exclude: u.tools.exclude ?? [],
              overrides: (u.tools.overrides ?? {}) as Record<string, object>,
            },
          }),
    };
    if (u.transport === 'stdio') {
      return {
        ...common,
        transport: 'stdio',
        command: u.command as string,
        args: u.args ?? [],
        ...(u.cwd === undefined ? {} : { cwd: path.resolve(baseDir, u.cwd) }),
        env: u.env ?? {},
      };
    }
    return { ...common, transport: u.transport, url: u.url as string, headers: u.headers ?? {} };
  });
  return {
    source,
    baseDir,
    listen: raw.listen,
    auth: toAuth(raw.auth),
    admin: {
      keys: raw.admin?.keys ?? [],
      allowedOrigins: raw.admin?.allowedOrigins ?? [],
      ...(raw.admin?.oauth === undefined ? {} : { oauth: raw.admin.oauth }),
    },
    ...(raw.console?.traceUrl === undefined ? {} : { console: { traceUrl: raw.console.traceUrl } }),
    http: {
      allowedHosts: raw.http.allowedHosts ?? [],
      allowedOrigins: raw.http.allowedOrigins ?? [],
      maxBodyBytes: raw.http.maxBodyBytes,
      sessionIdleTimeoutMs: parseDuration(raw.http.sessionIdleTimeout),
      maxSessions: raw.http.maxSessions,
      maxSessionsPerPrincipal: raw.http.maxSessionsPerPrincipal,
      maxRequestsPerPrincipal: raw.http.maxRequestsPerPrincipal,
    },
    store: { path: raw.store.path === ':memory:' ? ':memory:' : path.resolve(baseDir, raw.store.path) },
    exposure: raw.exposure,
    ...resolveGuardSettings(raw),
    callTimeoutMs,
    upstreams,
    compositions: Object.entries(raw.compositions ?? {}).map(([id, c]) => ({ id, ...c })),
    profiles: raw.profiles ?? {},
    tools: {
      ...(raw.tools.dir === undefined ? {} : { dir: path.resolve(baseDir, raw.tools.dir) }),
      bundled: raw.tools.bundled,
      workspace: path.resolve(baseDir, raw.tools.workspace),
      ...(raw.tools.profile === undefined ? {} : { profile: raw.tools.profile }),
    },
    approval: {
      autoApproveThreshold: raw.approval.autoApproveThreshold,
      elicitationTimeoutMs: parseDuration(raw.approval.elicitationTimeout),
      rules: raw.approval.rules ?? [],
      channel: raw.approval.channel ?? 'elicitation',
      inbox: {
        maxPending: raw.approval.inbox?.maxPending ?? 100,
        maxPerPrincipal: raw.approval.inbox?.maxPerPrincipal ?? 10,
        modernHoldMs: parseDuration(raw.approval.inbox?.modernHold ?? '20s'),
      },
    },
    telemetry: {
      serviceName: raw.telemetry.serviceName,
      ...(raw.telemetry.otlp === undefined
        ? {}
        : { otlp: { endpoint: raw.telemetry.otlp.endpoint, headers: raw.telemetry.otlp.headers ?? {} } }),
      captureArguments: raw.telemetry.captureArguments,
      logLevel: raw.telemetry.logLevel,
    },
    secrets,
  } as PortcullisConfig;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
