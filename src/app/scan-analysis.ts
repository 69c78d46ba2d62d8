/**
 * The analysis `portcullis scan` prints, wired here so it is the gateway's own: the tool registry and governance
 * (risk, poisoning scan, fingerprint, composition gate) over the gathered upstream snapshots on a throwaway
 * ledger, the same fingerprint and poisoning guards with the same live scanner (knowing the other servers' tool
 * names) over prompts, resources, resource templates and server instructions, and the risk engine's shadowing
 * rules over every tool of every server as one client sees them.
 */
import { createArgumentValidator } from '../calls/index.ts';
import { loadServerCatalog, type PortcullisConfig } from '../config/index.ts';
import { createToolRegistry, type ExposedTool } from '../exposure/index.ts';
import { createGovernance, type Governance, type SurfaceFinding } from '../guards/index.ts';
import { createLedger } from '../ledger/index.ts';
import { createPoisoningScanner } from '../poisoning/index.ts';
import {
  checkAliasCollisions,
  checkCrossServerReferences,
  checkSelfScopeViolations,
  toolMetadataKey,
  type ComposedTool,
  type ShadowingViolation,
} from '../risk/index.ts';
import { openStore } from '../store/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import type { AppCore } from './core.ts';

/** A model-visible surface besides tools. */
export type SurfaceKind = SurfaceFinding['kind'];

/** One finding on a prompt, resource, resource template or server instructions: a poisoning match or the ledger. */
export interface SurfaceHit {
  upstream: string;
  kind: SurfaceKind;
  /** The item's name ('' for server instructions). */
  name: string;
  fieldPath: string;
  /** A poisoning pattern id, or `fingerprint-<status>` for a definition the ledger does not hold as approved. */
  ruleId: string;
  category: 'poisoning' | 'exposure';
  matchedText: string;
  /** What the match says about itself (the model's probability and top features for MODEL_SCORE). */
  detail?: string;
  /** The ledger's fingerprint of the item's definition. */
  digest: string | null;
  /** True when the gateway would withhold the item. */
  withheld: boolean;
  /** The scanner model's probability that the item is poisoned (prompts, resources and templates). */
  score?: number;
}

/** A shadowing rule broken between the servers of one scan. */
export interface ShadowingHit {
  rule: ShadowingViolation['rule'];
  upstream: string;
  tool: string;
  detail: string;
}

/** The governed view of gathered snapshots. */
export interface GovernedScan {
  governance: Pick<Governance, 'servers'>;
  tools: readonly ExposedTool[];
  surfaces: SurfaceHit[];
  shadowing: ShadowingHit[];
}

/** The surface governance's findings as scan hits: one per poisoning match, one per fingerprint finding. */
function surfaceHits(findings: readonly SurfaceFinding[]): SurfaceHit[] {
  return findings.flatMap((f) => {
    const base = {
      upstream: f.upstream,
      kind: f.kind,
      name: f.kind === 'server-instructions' ? '' : f.name,
      digest: f.fingerprint?.hash ?? null,
      withheld: f.withheld,
      ...(f.score === undefined ? {} : { score: f.score }),
    };
    const status = f.fingerprint?.status;
    const ledger: SurfaceHit[] =
      status === undefined || status === 'ACTIVE'
        ? []
        : [
            {
              ...base,
              ruleId: `fingerprint-${status.toLowerCase()}`,
              category: 'exposure',
              fieldPath: '',
              matchedText: '',
            },
          ];
    return [
      ...f.matches.map((m): SurfaceHit => ({
        ...base,
        ruleId: m.patternId,
        category: 'poisoning',
        fieldPath: m.fieldPath,
        matchedText: m.matchedText,
        ...(m.detail === undefined ? {} : { detail: m.detail }),
      })),
      ...ledger,
    ];
  });
}

/**
 * R1 (one tool name offered by two servers), R2 (a description telling the model to use another server's tool)
 * and R3 (a description naming another server) over every listed tool, as a client that loads all the servers
 * of the file at once would see them.
 */
function scanShadowing(snapshots: readonly UpstreamSnapshot[]): ShadowingHit[] {
  const connected = snapshots.filter((s) => s.state === 'connected');
  const members = connected.flatMap((s) =>
    s.tools.map((t): ComposedTool => ({ serverId: s.id, toolName: t.name, exposedAlias: t.name })),
  );
  const metadata = new Map(
    connected.flatMap((s) =>
      s.tools.map((t) => [toolMetadataKey(s.id, t.name), { description: t.description }] as const),
    ),
  );
  const perServer = connected.map((s) => ({
    id: s.id,
    enabled: true,
    members: members.filter((m) => m.serverId === s.id),
  }));
  const hits: ShadowingHit[] = [];
  for (const violation of [
    ...checkAliasCollisions(perServer),
    ...checkCrossServerReferences(members, metadata),
    ...checkSelfScopeViolations(members, metadata),
  ]) {
    if (violation.rule === 'R1_ALIAS_COLLISION') {
      for (const owner of violation.compositionIds.split(','))
        hits.push({ rule: violation.rule, upstream: owner, tool: violation.alias, detail: violation.detail });
    } else {
      hits.push({
        rule: violation.rule,
        upstream: violation.member.serverId,
        tool: violation.member.toolName,
        detail: violation.detail,
      });
    }
  }
  return hits;
}

/** The analysis of a running gateway core whose upstreams have settled (`scan --config`). */
export function analyzeCore(
  core: Pick<AppCore, 'supervisor' | 'governance' | 'registry'>,
): Omit<GovernedScan, 'governance'> {
  return {
    tools: core.registry.all(),
    surfaces: surfaceHits(core.governance.surfaces().findings),
    shadowing: scanShadowing(core.supervisor.snapshots()),
  };
}

/** Governs `snapshots` (ids matching `config.upstreams`) the way the gateway would, on a throwaway ledger. */
export function governSnapshots(
  config: PortcullisConfig,
  snapshots: readonly UpstreamSnapshot[],
  now = Date.now,
): GovernedScan {
  const store = openStore({ path: ':memory:' });
  try {
    const governance = createGovernance({
      config,
      catalog: loadServerCatalog(),
      ledger: createLedger(store.ledger, now),
      createScanner: (otherNames) => createPoisoningScanner({ otherNames }),
      snapshots: () => snapshots,
      lastUsedAt: () => null,
      recordEvent: () => {},
      now,
      log: () => {},
    });
    const validator = createArgumentValidator();
    const registry = createToolRegistry({
      config,
      snapshots: () => snapshots,
      govern: governance.govern,
      inputSchemaProblem: (schema) => validator.schemaProblem(schema),
    });
    registry.rebuild();
    // The surfaces are reviewed after the rebuild, so their scans know every server's tool names.
    return {
      governance,
      tools: registry.all(),
      surfaces: surfaceHits(governance.surfaces().findings),
      shadowing: scanShadowing(snapshots),
    };
  } finally {
    store.close();
  }
}
