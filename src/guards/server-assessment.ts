/** Scores each configured upstream once per rebuild (docs/rules/risk-model.md): the server half of tool risk. */
import type { PortcullisConfig, UpstreamConfig } from '../config/index.ts';
import {
  assessServer,
  matchCatalogEntry,
  type CatalogEntry,
  type ServerAssessment,
  type ServerContext,
  type TransportKind,
} from '../risk/index.ts';
import type { GovernanceEmit } from './event-emitter.ts';

/** Maps a configured transport to the risk engine's transport kind. */
export function transportKind(upstream: UpstreamConfig): TransportKind {
  return upstream.transport === 'stdio' ? 'stdio' : upstream.transport === 'sse' ? 'sse' : 'streamable-http';
}

/** The server-risk context of a configured upstream (headers present → bearer auth, docs/rules/risk-model.md). */
export function serverContextOf(upstream: UpstreamConfig, lastUsedAt: number | null): ServerContext {
  if (upstream.transport === 'stdio') return { transport: 'stdio', lastUsedAt };
  return {
    transport: transportKind(upstream),
    url: upstream.url,
    ...(Object.keys(upstream.headers).length > 0 ? { headers: upstream.headers } : {}),
    lastUsedAt,
  };
}

/** The catalog entry an upstream config matches, or null. */
export function catalogEntryOf(
  catalog: readonly CatalogEntry[],
  upstream: UpstreamConfig,
): CatalogEntry | null {
  const match = matchCatalogEntry(catalog, {
    catalogId: upstream.catalog,
    transport: transportKind(upstream),
    ...(upstream.transport === 'stdio'
      ? { command: upstream.command, args: upstream.args }
      : { url: upstream.url }),
  });
  return match.matched ? match.entry : null;
}

/** One upstream's assessment and the catalog entry behind it. */
export interface AssessedServer {
  assessment: ServerAssessment;
  entry: CatalogEntry | null;
}

/** What assessing the servers reads. */
export interface AssessServersDeps {
  config: PortcullisConfig;
  catalog: readonly CatalogEntry[];
  lastUsedAt(upstream: string): number | null;
  emit: GovernanceEmit;
}

/** Assesses every configured upstream at `now`, emitting ServerRiskComputed (and any floor) per upstream. */
export function assessServers(deps: AssessServersDeps, now: number): Map<string, AssessedServer> {
  const servers = new Map<string, AssessedServer>();
  for (const upstream of deps.config.upstreams) {
    const entry = catalogEntryOf(deps.catalog, upstream);
    const assessment = assessServer(serverContextOf(upstream, deps.lastUsedAt(upstream.id)), entry, now);
    servers.set(upstream.id, { assessment, entry });
    deps.emit('ServerRiskComputed', upstream.id, {
      level: assessment.risk.level,
      totalScore: assessment.risk.totalScore,
      axisScores: assessment.risk.axisScores,
      floorTrigger: assessment.risk.floorTrigger,
      catalog: assessment.catalogId,
    });
    if (assessment.risk.floorTrigger) {
      deps.emit('FloorOverrideTriggered', upstream.id, {
        floorTrigger: assessment.risk.floorTrigger,
        level: assessment.risk.level,
      });
    }
  }
  return servers;
}
