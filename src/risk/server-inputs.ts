// How the server-risk inputs are filled from a live connection and its catalog entry
// (docs/rules/risk-model.md#r-srv-6-filling-the-inputs-from-a-connection).
import { classifyAuthMode, inferAuthMode } from './auth-mode.ts';
import type { AuthMode } from './auth-mode.ts';
import type { CatalogEntry, CatalogRiskFactors } from './catalog-types.ts';
import { classifyHost } from './host-class.ts';
import type { TransportKind } from './host-class.ts';
import type { ServerRiskInput } from './server-risk.ts';
import { parseTrustSignals } from './trust-signals.ts';

/** The recency window of the server doc axis: 90 days in milliseconds. */
export const RECENT_USE_WINDOW_MS = 90 * 24 * 60 * 60 * 1000;

/** An upstream connection as configured, plus its usage record. */
export interface ServerContext {
  readonly transport: TransportKind;
  /** Endpoint URL for HTTP transports. */
  readonly url?: string | undefined;
  /** Alternative endpoint key, used when `url` is absent. */
  readonly endpoint?: string | undefined;
  /** Any non-null value means the connection uses OAuth (only read without a catalog entry). */
  readonly oauth?: unknown;
  /** The key being present means a header secret (only read without a catalog entry). */
  readonly headers?: unknown;
  /** Epoch ms of the last call through this server; null or absent when never used. */
  readonly lastUsedAt?: number | null | undefined;
}

/**
 * True when the server counts as recently used at `now`: never used, or last used strictly after
 * `now − 90 days` (so exactly 90 days ago is a gap; R-SRV-4).
 */
export function isRecentlyUsed(lastUsedAt: number | null | undefined, now: number): boolean {
  if (lastUsedAt === null || lastUsedAt === undefined) return true;
  return lastUsedAt > now - RECENT_USE_WINDOW_MS;
}

/** The OR of every catalog tool's risk factors (McpCatalogEntry.serverDerivedRiskFactors). */
export function serverRiskFactors(entry: CatalogEntry): Required<CatalogRiskFactors> {
  const factors = { write: false, exec: false, irreversible: false, sendsUserData: false };
  for (const descriptor of Object.values(entry.tools)) {
    const own = descriptor.riskFactors ?? {};
    factors.write ||= own.write === true;
    factors.exec ||= own.exec === true;
    factors.irreversible ||= own.irreversible === true;
    factors.sendsUserData ||= own.sendsUserData === true;
  }
  return factors;
}

/** The distinct OAuth default scopes over all of the entry's transports, in first-seen order. */
export function catalogOAuthScopes(entry: CatalogEntry): string[] {
  const scopes = new Set<string>();
  for (const transport of entry.transports) {
    for (const scope of transport.oauthDefaults?.scopes ?? []) scopes.add(scope);
  }
  return [...scopes];
}

/** The auth mode of a server: the first catalog transport's mode, else inferred from the connection. */
export function resolveAuthMode(context: ServerContext, entry: CatalogEntry | null): AuthMode {
  if (entry === null) return inferAuthMode(context);
  const first = entry.transports[0];
  return classifyAuthMode(first?.auth, first?.oauthIssuer);
}

/**
 * Fills the server-risk inputs as the reference's live path does (R-SRV-6): URL is `url` else
 * `endpoint`; "user-typed" means no catalog entry matched and `matchesCatalogHost` is always false (a host
 * match is a catalog match); without an entry the doc record has no URL and is not adequate.
 */
export function resolveServerRiskInput(
  context: ServerContext,
  entry: CatalogEntry | null,
  now: number,
): ServerRiskInput {
  const url = context.url ?? context.endpoint ?? null;
  const recentlyUsed = isRecentlyUsed(context.lastUsedAt, now);
  return {
    hostClass: classifyHost(context.transport, url),
    authMode: resolveAuthMode(context, entry),
    trustSignals: entry === null ? [] : parseTrustSignals(entry.trustSignals),
    userTyped: entry === null,
    matchesCatalogHost: false,
    docs:
      entry === null
        ? { docsUrl: null, docsAdequate: false, recentlyUsed }
        : { docsUrl: entry.docsUrl, docsAdequate: entry.docsAdequate, recentlyUsed },
    writeCapability: entry === null ? false : serverRiskFactors(entry).write,
    oauthScopes: entry === null ? [] : catalogOAuthScopes(entry),
  };
}

/**
 * True when the tool's server counts as trusted for the per-tool doc waiver (R-TOOL-4): a catalog
 * entry matched and its raw trust-signal list is non-empty (unparsed strings count).
 */
export function isTrustedServer(entry: CatalogEntry | null): boolean {
  return entry !== null && entry.trustSignals.length > 0;
}
