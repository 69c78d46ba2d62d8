/**
 * Governed exposure (issue: risk engine): nothing reaches /mcp without having been scored, scanned,
 * fingerprinted and checked for shadowing. Runs inside every registry rebuild, before the list is advertised,
 * through ONE evaluation path per tool (reference-rules D25), and on every exposure path (D24).
 */
import type { PortcullisConfig, UpstreamConfig } from '../config/index.ts';
import type { Ledger } from '../ledger/index.ts';
import {
  assessServer,
  checkCompositionEnable,
  evaluateLocalToolRisk,
  DEFAULT_EXPOSED_MAX_RISK,
  evaluateToolRisk,
  findToolDescriptor,
  matchCatalogEntry,
  toolMetadataKey,
  type CatalogEntry,
  type ComposedTool,
  type CompositionSnapshot,
  type RiskLevel,
  type ServerAssessment,
  type ServerContext,
  type ToolMetadata,
  type TransportKind,
} from '../risk/index.ts';
import { type PoisoningScanner } from '../poisoning/index.ts';
import type { EventType, NewEvent } from '../store/index.ts';
import type { GovernFunction } from '../exposure/registry.ts';
import type { ExposedTool } from '../exposure/types.ts';

/** What governance needs from the rest of the gateway. */
export interface GovernanceDeps {
  config: PortcullisConfig;
  catalog: readonly CatalogEntry[];
  ledger: Ledger;
  scanner: PoisoningScanner;
  /** Last use of an upstream (server-risk doc axis: not used within 90 days). */
  lastUsedAt(upstream: string): number | null;
  recordEvent(event: NewEvent): void;
  now(): number;
  log(event: string, fields: Record<string, unknown>): void;
}

/** The live view governance keeps for the admin API and `portcullis scan`. */
export interface Governance {
  govern: GovernFunction;
  /** The last assessment of each upstream (after the last rebuild), with its catalog match. */
  servers(): ReadonlyMap<string, ServerAssessment>;
  /** The catalog entry an upstream config matches, or null. */
  catalogEntryOf(upstream: UpstreamConfig): CatalogEntry | null;
}

/** Maps a configured transport to the risk engine's transport kind. */
export function transportKind(upstream: UpstreamConfig): TransportKind {
  return upstream.transport === 'stdio' ? 'stdio' : upstream.transport === 'sse' ? 'sse' : 'streamable-http';
}

/** The server-risk context of a configured upstream (headers present → bearer auth, reference §2.4). */
export function serverContextOf(upstream: UpstreamConfig, lastUsedAt: number | null): ServerContext {
  if (upstream.transport === 'stdio') return { transport: 'stdio', lastUsedAt };
  return {
    transport: transportKind(upstream),
    url: upstream.url,
    ...(Object.keys(upstream.headers).length > 0 ? { headers: upstream.headers } : {}),
    lastUsedAt,
  };
}

/** Creates the governance stage. */
export function createGovernance(deps: GovernanceDeps): Governance {
  const lastEmitted = new Map<string, string>();
  let servers = new Map<string, ServerAssessment>();

  const emit = (type: EventType, subject: string, payload: Record<string, unknown>) => {
    const key = `${type}:${subject}`;
    const digest = JSON.stringify(payload);
    if (lastEmitted.get(key) === digest) return;
    lastEmitted.set(key, digest);
    deps.recordEvent({ type, at: deps.now(), subject, payload });
    deps.log(`risk.${type}`, { subject, ...payload });
  };

  const catalogEntryOf = (upstream: UpstreamConfig): CatalogEntry | null => {
    const match = matchCatalogEntry(deps.catalog, {
      catalogId: upstream.catalog,
      transport: transportKind(upstream),
      ...(upstream.transport === 'stdio'
        ? { command: upstream.command, args: upstream.args }
        : { url: upstream.url }),
    });
    return match.matched ? match.entry : null;
  };

  const governUpstreamTool = (
    tool: ExposedTool,
    assessment: ServerAssessment,
    entry: CatalogEntry | null,
  ) => {
    const upstream = tool.upstream as string;
    const upstreamTool = tool.upstreamTool as string;
    // Name-based floors look at the upstream's own name (an alias prefix would hide `delete_`); everything
    // else looks at what the model sees.
    const visible = { ...tool.definition, name: upstreamTool };
    const scan = deps.scanner.scanTool(tool.definition);
    const risk = evaluateToolRisk({
      server: assessment,
      tool: visible,
      descriptor: findToolDescriptor(entry, upstreamTool),
      hitl: tool.hitl !== 'DISABLED',
      scan,
    });
    const check = deps.ledger.checkTool(upstream, tool.source);
    if (check.outcome === 'MISMATCH') {
      emit('HashLedgerMismatch', `${upstream}::${upstreamTool}`, {
        upstream,
        tool: upstreamTool,
        previousHash: check.previousHash,
        currentHash: check.record.hash,
      });
    }
    tool.governance = {
      risk: {
        server: risk.server,
        publish: risk.publish,
        final: risk.final,
        effective: risk.effective,
        floorTrigger: risk.floorTrigger,
        hitlMitigated: risk.hitlMitigated,
      },
      poisoning: { clean: scan.clean, matches: [...scan.matches] },
      fingerprint: { hash: check.record.hash, profile: check.record.profile, status: check.record.status },
    };
    const subject = tool.alias;
    emit('ToolPublishRiskComputed', subject, {
      upstream,
      tool: upstreamTool,
      publish: risk.publish.level,
      final: risk.final,
      effective: risk.effective,
    });
    if (risk.floorTrigger)
      emit('FloorOverrideTriggered', subject, { floorTrigger: risk.floorTrigger, final: risk.final });
    if (!scan.clean) {
      emit('PoisoningHit', subject, {
        upstream,
        tool: upstreamTool,
        matches: scan.matches.map((m) => ({
          patternId: m.patternId,
          fieldPath: m.fieldPath,
          offset: m.offset,
        })),
      });
    }
    if (!tool.exposed) return;
    if (check.record.status !== 'ACTIVE') {
      tool.exposed = false;
      tool.withheldReason =
        check.record.status === 'REVOKED' ? 'fingerprint-revoked' : 'fingerprint-awaiting-rereview';
    } else if (!scan.clean && deps.config.poisoning === 'block') {
      tool.exposed = false;
      tool.withheldReason = 'poisoning-blocked';
    }
  };

  const governLocalTool = (tool: ExposedTool) => {
    const scan = deps.scanner.scanTool(tool.definition);
    const sandboxLevel = (tool.governance?.risk?.sandbox as RiskLevel | undefined) ?? null;
    const risk = evaluateLocalToolRisk({ sandboxLevel, hitl: tool.hitl !== 'DISABLED', scan });
    tool.governance = {
      ...tool.governance,
      risk: { ...tool.governance?.risk, ...risk, floorTrigger: null },
      poisoning: { clean: scan.clean, matches: [...scan.matches] },
    };
    if (!scan.clean)
      emit('PoisoningHit', tool.alias, { local: tool.localToolId, matches: scan.matches.length });
    if (tool.exposed && !scan.clean && deps.config.poisoning === 'block') {
      tool.exposed = false;
      tool.withheldReason = 'poisoning-blocked';
    }
  };

  const gateCompositions = (tools: ExposedTool[]) => {
    const byComposition = new Map<string, ExposedTool[]>();
    for (const tool of tools) {
      if (tool.origin !== 'upstream' || !tool.composition) continue;
      if (tool.withheldReason === 'upstream-down' || tool.withheldReason === 'composition-disabled') continue;
      const list = byComposition.get(tool.composition) ?? [];
      list.push(tool);
      byComposition.set(tool.composition, list);
    }
    const metadata = new Map<string, ToolMetadata>();
    for (const tool of tools) {
      if (tool.upstream && tool.upstreamTool) {
        metadata.set(toolMetadataKey(tool.upstream, tool.upstreamTool), {
          description: tool.definition.description,
        });
      }
    }
    const explicit = new Map(deps.config.compositions.map((c) => [c.id, c]));
    const enabled: CompositionSnapshot[] = [];
    const ordered = [...byComposition.keys()].sort((a, b) => {
      const rank = (id: string) => (explicit.has(id) ? 0 : 1);
      return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
    });
    for (const id of ordered) {
      const members = byComposition.get(id) as ExposedTool[];
      const compositionMembers: ComposedTool[] = members.map((t) => ({
        serverId: t.upstream as string,
        toolName: t.upstreamTool as string,
        exposedAlias: t.alias,
      }));
      const levels = new Map<string, RiskLevel | null>(
        members.map((t) => [
          toolMetadataKey(t.upstream as string, t.upstreamTool as string),
          (t.governance?.risk?.effective as RiskLevel | undefined) ?? null,
        ]),
      );
      const cap = explicit.get(id)?.maxRisk ?? DEFAULT_EXPOSED_MAX_RISK;
      const decision = checkCompositionEnable({
        candidate: { id, members: compositionMembers, maxRiskLevel: cap },
        memberLevels: levels,
        enabledCompositions: enabled,
        metadata,
      });
      if (decision.outcome === 'enable') {
        enabled.push({ id, enabled: true, members: compositionMembers });
        emit('CompositionLifecycle', id, { outcome: 'enabled', members: compositionMembers.length, cap });
        continue;
      }
      const reasons = decision.reasons.map(describeRefusal);
      emit('CompositionLifecycle', id, { outcome: 'refused', summary: decision.summary, reasons, cap });
      for (const tool of members) {
        tool.governance = { ...tool.governance, compositionRefusal: reasons };
        if (tool.exposed) {
          tool.exposed = false;
          tool.withheldReason = 'composition-refused';
        }
      }
    }
  };

  const govern: GovernFunction = (tools) => {
    const now = deps.now();
    const next = new Map<string, ServerAssessment>();
    const entries = new Map<string, CatalogEntry | null>();
    for (const upstream of deps.config.upstreams) {
      const entry = catalogEntryOf(upstream);
      entries.set(upstream.id, entry);
      const assessment = assessServer(serverContextOf(upstream, deps.lastUsedAt(upstream.id)), entry, now);
      next.set(upstream.id, assessment);
      emit('ServerRiskComputed', upstream.id, {
        level: assessment.risk.level,
        totalScore: assessment.risk.totalScore,
        axisScores: assessment.risk.axisScores,
        floorTrigger: assessment.risk.floorTrigger,
        catalog: assessment.catalogId,
      });
      if (assessment.risk.floorTrigger) {
        emit('FloorOverrideTriggered', upstream.id, {
          floorTrigger: assessment.risk.floorTrigger,
          level: assessment.risk.level,
        });
      }
    }
    servers = next;
    for (const tool of tools) {
      if (tool.origin === 'local') governLocalTool(tool);
      else if (tool.upstream && next.has(tool.upstream)) {
        governUpstreamTool(
          tool,
          next.get(tool.upstream) as ServerAssessment,
          entries.get(tool.upstream) ?? null,
        );
      }
    }
    gateCompositions(tools);
    return tools;
  };

  return { govern, servers: () => servers, catalogEntryOf };
}

function describeRefusal(reason: Parameters<typeof JSON.stringify>[0]): string {
  const r = reason as {
    kind: string;
    member?: ComposedTool;
    level?: string;
    cap?: string;
    violation?: { rule: string };
  };
  if (r.kind === 'over_max_risk' && r.member) {
    return `over_max_risk: ${r.member.exposedAlias} is ${r.level}, above the cap ${r.cap}`;
  }
  if (r.kind === 'shadowing' && r.violation) return `${r.violation.rule}: ${JSON.stringify(r.violation)}`;
  return r.kind;
}
