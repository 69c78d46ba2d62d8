// Server risk: four summed axes, the shared bucketing and three floor overrides
// (docs/rules/risk-model.md, R-SRV-1 and R-SRV-5).
import type { AuthMode } from './auth-mode.ts';
import { bucketScore } from './bucket.ts';
import type { HostClass } from './host-class.ts';
import { isBlank } from '../shared/index.ts';
import type { RiskLevel } from './levels.ts';
import type { TrustSignal } from './trust-signals.ts';

/** The server floors, in the order they are checked; the first hit wins and forces L5. */
export type ServerFloorTrigger =
  'non_loopback_no_auth_write_capability' | 'non_loopback_no_auth_trust_unknown' | 'privileged_oauth_scope';

/** One gap counted by the server doc axis. */
export type ServerDocGap = 'docs_url_missing' | 'docs_inadequate' | 'not_used_recently';

/** The documentation record of a server; null on the input counts as fully complete. */
export interface ServerDocRecord {
  /** Where the server is documented; null or blank is a gap. */
  readonly docsUrl: string | null;
  /** False when a curator judged the docs inadequate (a gap). */
  readonly docsAdequate: boolean;
  /** False when the server was last used 90 days ago or earlier (a gap); never used counts as recent. */
  readonly recentlyUsed: boolean;
}

/** Everything the server scorer reads; build it with `resolveServerRiskInput` or by hand in tests. */
export interface ServerRiskInput {
  readonly hostClass: HostClass;
  /** Null counts as NONE. */
  readonly authMode: AuthMode | null;
  /** Parsed catalog signals (empty without a catalog entry). */
  readonly trustSignals: readonly TrustSignal[];
  /** True when no catalog entry matched: the connection was typed by a user. */
  readonly userTyped: boolean;
  /** True when a user-typed URL's host matches a catalog host pattern. */
  readonly matchesCatalogHost: boolean;
  readonly docs: ServerDocRecord | null;
  /** OR of the catalog tools' write factors (the server can write). */
  readonly writeCapability: boolean;
  /** The union of the OAuth default scopes over the catalog entry's transports. */
  readonly oauthScopes: readonly string[];
}

/** The four server axes, each as its points. */
export interface ServerAxisScores {
  readonly transport: number;
  readonly auth: number;
  readonly trust: number;
  readonly doc: number;
}

/** A scored server: level, the sum and the axes behind it, and the floor that forced the level if any. */
export interface ServerRisk {
  readonly level: RiskLevel;
  readonly totalScore: number;
  readonly axisScores: ServerAxisScores;
  readonly floorTrigger: ServerFloorTrigger | null;
  readonly hostClass: HostClass;
  readonly docGaps: readonly ServerDocGap[];
}

const AUTH_POINTS: Readonly<Record<AuthMode, number>> = {
  NONE: 0,
  OAUTH_STANDARD: 0,
  API_KEY: 1,
  BEARER: 1,
  OAUTH_CUSTOM: 2,
};

function isLocal(hostClass: HostClass): boolean {
  return hostClass === 'STDIO' || hostClass === 'LOOPBACK';
}

function trustPoints(input: ServerRiskInput): number {
  if (input.userTyped) return input.matchesCatalogHost ? 1 : 2;
  if (input.trustSignals.includes('VENDOR_OFFICIAL')) return 0;
  if (input.trustSignals.includes('COMMUNITY_CURATED')) return 1;
  return 2;
}

function docGaps(docs: ServerDocRecord | null): ServerDocGap[] {
  if (docs === null) return [];
  const gaps: ServerDocGap[] = [];
  if (isBlank(docs.docsUrl)) gaps.push('docs_url_missing');
  if (!docs.docsAdequate) gaps.push('docs_inadequate');
  if (!docs.recentlyUsed) gaps.push('not_used_recently');
  return gaps;
}

/**
 * True when an OAuth scope is privileged (R-SRV-5 floor 3): lower-cased, it contains `admin`,
 * `write_all`, `delete_` or `.all`, or ends with `.admin`. Plain substring tests, so `read.allowlist` trips.
 */
export function isPrivilegedScope(scope: string): boolean {
  const lower = scope.toLowerCase();
  return (
    lower.includes('admin') ||
    lower.includes('write_all') ||
    lower.includes('delete_') ||
    lower.includes('.all') ||
    lower.endsWith('.admin')
  );
}

function serverFloor(input: ServerRiskInput): ServerFloorTrigger | null {
  const noAuth = (input.authMode ?? 'NONE') === 'NONE';
  const remote = !isLocal(input.hostClass);
  if (remote && noAuth && input.writeCapability) return 'non_loopback_no_auth_write_capability';
  const vouched =
    input.trustSignals.includes('VENDOR_OFFICIAL') || input.trustSignals.includes('COMMUNITY_CURATED');
  if (remote && noAuth && !vouched && input.userTyped && !input.matchesCatalogHost) {
    return 'non_loopback_no_auth_trust_unknown';
  }
  // Not gated by host class: a privileged scope is as dangerous on a local server as on a remote one.
  if (input.oauthScopes.some(isPrivilegedScope)) return 'privileged_oauth_scope';
  return null;
}

/**
 * Scores a server (R-SRV-1, R-SRV-5): transport (PRIVATE_LAN → 1), auth (0 when local, else
 * NONE/OAUTH_STANDARD 0, API_KEY/BEARER 1, OAUTH_CUSTOM 2), trust (0–2), doc (min(2, gaps)); the sum is
 * bucketed unless a floor forces L5. The axes and sum are reported either way.
 */
export function scoreServerRisk(input: ServerRiskInput): ServerRisk {
  const gaps = docGaps(input.docs);
  const axisScores: ServerAxisScores = {
    transport: input.hostClass === 'PRIVATE_LAN' ? 1 : 0,
    auth: isLocal(input.hostClass) ? 0 : AUTH_POINTS[input.authMode ?? 'NONE'],
    trust: trustPoints(input),
    doc: Math.min(2, gaps.length),
  };
  const totalScore = axisScores.transport + axisScores.auth + axisScores.trust + axisScores.doc;
  const floorTrigger = serverFloor(input);
  return {
    level: floorTrigger === null ? bucketScore(totalScore) : 'L5',
    totalScore,
    axisScores,
    floorTrigger,
    hostClass: input.hostClass,
    docGaps: gaps,
  };
}
