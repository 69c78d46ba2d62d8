// Types of the server catalog (catalog/servers/*.json, validated by catalog/servers/catalog.schema.json).
import type { TransportKind } from './host-class.ts';

/** Where a tool's side effects land, as the tool base-action axis scores it. */
export type SideEffectScope = 'LOCAL_ONLY' | 'UNKNOWN' | 'REMOTE_WRITE_SCOPE' | 'REMOTE_ADMIN_SCOPE';

/** What a curator knows a tool can do. */
export interface CatalogRiskFactors {
  /** The tool changes state outside the conversation. */
  readonly write?: boolean;
  /** The tool runs code or commands, or drives a browser. */
  readonly exec?: boolean;
  /** The tool's effect cannot be undone (delete, merge, send). */
  readonly irreversible?: boolean;
  /** The tool sends user-supplied data to a third party. */
  readonly sendsUserData?: boolean;
}

/** Annotation values a curator asserts; each present key overrides the live upstream annotation. */
export interface CatalogAnnotationOverrides {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** What the catalog says about one tool of a server. */
export interface CatalogToolDescriptor {
  /** Explicit scope; when absent the scope is inferred from `riskFactors`. */
  readonly sideEffectScope?: SideEffectScope;
  readonly riskFactors?: CatalogRiskFactors;
  readonly annotations?: CatalogAnnotationOverrides;
}

/** One way to reach a catalog server, with the auth it expects. */
export interface CatalogTransport {
  readonly type: TransportKind;
  /** Raw auth mode string, classified by `classifyAuthMode` (e.g. NONE, API_KEY, BEARER, OAUTH). */
  readonly auth: string;
  /** OAuth issuer; an issuer containing `oob`, `custom` or `manual-paste` makes OAuth custom. */
  readonly oauthIssuer?: string;
  readonly oauthDefaults?: { readonly scopes: readonly string[] };
}

/** How to recognise a server: package or image names in a stdio command line, host patterns for URLs. */
export interface CatalogMatchRules {
  /** npm, PyPI or container image names, matched against the command and each argument. */
  readonly packages?: readonly string[];
  /** Host names, exact or `*.example.com` (any subdomain, not the apex). */
  readonly hosts?: readonly string[];
}

/** One known MCP server. */
export interface CatalogEntry {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly publisher?: string;
  /** `archived` marks a server its publisher no longer maintains. */
  readonly maintenance?: 'active' | 'archived';
  readonly match: CatalogMatchRules;
  /** Raw signal strings; see `parseTrustSignals`. Any non-empty set makes the server "trusted" for the doc waiver. */
  readonly trustSignals: readonly string[];
  readonly docsUrl: string | null;
  readonly docsAdequate: boolean;
  readonly transports: readonly CatalogTransport[];
  /** Descriptors by exact upstream tool name. */
  readonly tools: Readonly<Record<string, CatalogToolDescriptor>>;
}
