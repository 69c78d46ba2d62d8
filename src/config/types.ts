/** The resolved, frozen configuration of one gateway process (defaults applied, `${ENV}` substituted). */
import type { RiskLevel } from '../risk/index.ts';
import type { Era } from '../shared/index.ts';

/** Human-in-the-loop modes (docs/rules/approval.md#r-hitl-1-modes). */
export type HitlMode = 'REQUIRED' | 'AUTO_APPROVE' | 'DISABLED';

/** Per-tool override of an upstream tool's exposure. */
export interface ToolOverride {
  alias?: string;
  description?: string;
  hitl?: HitlMode;
}

/** Per-prompt override of how an upstream prompt is published (its name otherwise `<upstreamId>_<name>`). */
export interface PromptOverride {
  alias?: string;
  description?: string;
}

/** Which upstream tools are exposed (globs over upstream tool names). */
export interface ToolSelection {
  include: string[];
  exclude: string[];
  overrides: Record<string, ToolOverride>;
}

/** How the gateway talks to one upstream MCP server. */
export type UpstreamConfig =
  | (UpstreamCommon & {
      transport: 'stdio';
      command: string;
      args: string[];
      cwd?: string;
      env: Record<string, string>;
    })
  | (UpstreamCommon & { transport: 'http' | 'sse'; url: string; headers: Record<string, string> });

/** Fields every upstream has. */
export interface UpstreamCommon {
  id: string;
  enabled: boolean;
  /** Era negotiation: auto probes with server/discover and falls back to initialize. */
  protocol: 'auto' | Era;
  catalog?: string;
  callTimeoutMs: number;
  /** How long connecting (spawn or HTTP, era probe, MCP handshake) may take before the attempt fails (default 30 s). */
  connectTimeoutMs?: number;
  /** Relay the upstream's sampling/createMessage to the client whose call caused it (off: no sampling offered). */
  sampling: boolean;
  /** Most tools the upstream may list (default 1000); a longer list reports the upstream down instead. */
  maxTools?: number;
  /** Absent when the config names no `tools` block (then no implicit composition is built). */
  tools?: ToolSelection;
  /** Prompt overrides by upstream prompt name. */
  promptOverrides?: Record<string, PromptOverride>;
}

/** One member of a curated composition. */
export interface CompositionMember {
  upstream: string;
  tool: string;
  alias?: string;
  description?: string;
  hitl?: HitlMode;
}

/** A curated tool set. */
export interface CompositionConfig {
  id: string;
  enabled: boolean;
  maxRisk: RiskLevel;
  members: CompositionMember[];
}

/**
 * Where a person is asked to approve a call (docs/rules/approval.md#r-hitl-5-approval-channels): the client's
 * elicitation prompt, the operators' approval inbox (`console`), or the prompt when the client can show one and
 * the inbox otherwise (`both`).
 */
export type ApprovalChannel = 'elicitation' | 'console' | 'both';

/** One approval rule, as written in config (compiled by approval/). */
export interface ApprovalRuleConfig {
  id: string;
  match: {
    alias?: string;
    upstream?: string;
    tool?: string;
    origin?: 'upstream' | 'local';
    riskAtLeast?: RiskLevel;
    principal?: string;
    /** Matches when any of the caller's groups matches the glob. */
    group?: string;
    /** Matches when any of the caller's scopes matches the glob. */
    scope?: string;
    args?: Record<string, string | { regex: string }>;
    /** Matches when any string anywhere in the arguments matches. */
    anyArg?: string | { regex: string };
  };
  /** Case handling of argument matching; the default folds case for deny, ask and rateLimit rules only. */
  caseSensitive?: boolean;
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
  prompt?: string;
  rateLimit?: { calls: number; per: string };
  /** The approval channel of the calls this rule asks about; the global `approval.channel` otherwise. */
  channel?: ApprovalChannel;
}

/** Include and exclude globs over exposed names; an absent include means every name. */
export interface NameSelection {
  include?: string[];
  exclude?: string[];
}

/** Which tools a profile serves: names, upstreams, tags and a risk cap, all of which must hold. */
export interface ProfileToolSelection extends NameSelection {
  /** Upstream id globs; a local tool has no upstream, so it never passes this filter. */
  upstreams?: string[];
  /** Tag globs; a tool passes when any of its tags matches one. */
  tags?: string[];
  maxRisk?: RiskLevel;
}

/** Who may use a profile: any principal matching one entry of any list (globs). */
export interface ProfilePrincipals {
  /** API key names or principal ids. */
  keys?: string[];
  groups?: string[];
  scopes?: string[];
}

/** One profile: a named tool, prompt and resource set with its own endpoint (docs/identity.md#profiles). */
export interface ProfileConfig {
  tools?: ProfileToolSelection;
  prompts?: NameSelection;
  resources?: NameSelection;
  /** Absent: every principal may use the profile. */
  principals?: ProfilePrincipals;
}

/** The whole resolved configuration. */
export interface PortcullisConfig {
  /** Where the configuration came from: a file path, or `embedded default`. */
  source: string;
  /** Directory relative paths are resolved against. */
  baseDir: string;
  listen: { host: string; port: number };
  /** How /mcp callers prove who they are: API keys, OAuth bearer tokens, or neither (anonymous). */
  auth: { apiKeys: ApiKeyConfig[]; oauth?: OAuthConfig };
  /** Admin API credentials; see AdminKeyConfig and AdminOAuthConfig. */
  admin: { keys: AdminKeyConfig[]; allowedOrigins: string[]; oauth?: AdminOAuthConfig };
  /** The operator's console; `traceUrl` links an audit row's trace id (`{traceId}` replaced). */
  console?: { traceUrl?: string };
  http: {
    allowedHosts: string[];
    allowedOrigins: string[];
    maxBodyBytes: number;
    sessionIdleTimeoutMs: number;
    maxSessions: number;
    /** Open 2025-era sessions one principal may hold at once. */
    maxSessionsPerPrincipal: number;
    /** 2026-era requests one principal may have running at once. */
    maxRequestsPerPrincipal: number;
  };
  store: { path: string };
  exposure: 'builtin' | 'composed' | 'both';
  /** The poisoning guard's mode as the older key says it (`block` = enforce); `guards.poisoning` is the full form. */
  poisoning: 'warn' | 'block';
  /** Mode and error handling of each governance guard. */
  guards: GuardsConfig;
  callTimeoutMs: number;
  upstreams: UpstreamConfig[];
  compositions: CompositionConfig[];
  /** Named tool sets served at /mcp/<name>; `default` serves /mcp (absent: everything). */
  profiles: Record<string, ProfileConfig>;
  tools: { dir?: string; bundled: boolean; workspace: string; profile?: string };
  approval: {
    autoApproveThreshold: RiskLevel;
    elicitationTimeoutMs: number;
    rules: ApprovalRuleConfig[];
    channel: ApprovalChannel;
    /** The approval inbox of the `console` channel; its entries expire after `elicitationTimeoutMs`. */
    inbox: {
      /** Calls waiting at once, over all principals. */
      maxPending: number;
      /** Calls one principal may have waiting at once. */
      maxPerPrincipal: number;
      /** How long one modern-era round waits for the operator before answering `input_required` again. */
      modernHoldMs: number;
    };
  };
  telemetry: {
    serviceName: string;
    otlp?: { endpoint: string; headers: Record<string, string> };
    captureArguments: boolean;
    logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  };
  /** Every secret value substituted from `${ENV}` placeholders, to be masked at every egress. */
  secrets: string[];
}

/** What an admin credential may do: viewer reads, operator also acts on the ledger and tools, admin everything. */
export type AdminRole = 'viewer' | 'operator' | 'admin';

/** One admin API key: its holder's name (the audited actor), the key, and its role. */
export interface AdminKeyConfig {
  name: string;
  key: string;
  role: AdminRole;
}

/** One /mcp API key; without a name the principal is `key:` and 12 hex digits of the key's SHA-256. */
export interface ApiKeyConfig {
  key: string;
  name?: string;
  groups: string[];
  scopes: string[];
}

/** RFC 7662 introspection of opaque bearer tokens. */
export interface IntrospectionConfig {
  endpoint: string;
  clientId: string;
  clientSecret: string;
}

/** This gateway as an OAuth 2.1 resource server (docs/identity.md). */
export interface OAuthConfig {
  issuer: string;
  /** The resource identifier: tokens must name it in `aud`, and the metadata names it as `resource`. */
  audience: string;
  /** Absent: discovered from the issuer's metadata. */
  jwksUri?: string;
  requiredScopes: string[];
  principalClaim: string;
  groupsClaim: string;
  clockSkewSeconds: number;
  /** Least time between two fetches of the key set when a token names an unknown key. */
  jwksCooldownMs: number;
  introspection?: IntrospectionConfig;
}

/** Groups and scopes (of OAuth principals) that hold one admin role; any one of them grants it. */
export interface AdminRoleGrant {
  groups: string[];
  scopes: string[];
}

/** Admin roles granted to OAuth principals by group or scope. */
export interface AdminOAuthConfig {
  roles: { readonly [role in AdminRole]?: AdminRoleGrant };
}

/**
 * The governance guards that can be configured (see docs/configuration.md): the exposure guards in the order they
 * decide, then `responseScan`, the call-time scan of results, prompt messages and resource contents.
 */
export type GuardId = 'fingerprint' | 'poisoning' | 'riskCap' | 'shadowing' | 'composition' | 'responseScan';

/** enforce withholds, advisory only annotates, off does not run the guard. */
export type GuardMode = 'enforce' | 'advisory' | 'off';

/** How one guard runs: its mode, and whether a guard that throws withholds (closed) or lets through (open). */
export interface GuardPolicy {
  mode: GuardMode;
  onError: 'closed' | 'open';
}

/** The policy of every guard. */
export type GuardsConfig = { readonly [id in GuardId]: GuardPolicy };
