/**
 * Governed exposure (docs/rules/risk-model.md): nothing reaches /mcp without having been scored, scanned,
 * fingerprinted and checked for shadowing. Runs inside every registry rebuild, before the list is advertised,
 * through one evaluation path per tool, on every exposure path. The facts come first (tool-facts.ts), then
 * the guards decide in order — fingerprint, poisoning, composition gate (risk cap, shadowing) — each in the
 * mode the config gives it (runner.ts). Prompts, resources and server instructions go through the fingerprint and
 * poisoning guards too (surface-governance.ts), with the same ledger and live scanner: every scan knows the other
 * servers' tool names.
 */
import type { PortcullisConfig, UpstreamConfig } from '../config/index.ts';
import type { ExposedTool, GovernFunction } from '../exposure/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { CatalogEntry, ServerAssessment } from '../risk/index.ts';
import type { NewEvent } from '../store/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { createCompositionGate } from './composition-gate.ts';
import type { Guard } from './contract.ts';
import { createGovernanceEmitter } from './event-emitter.ts';
import { fingerprintGuard } from './fingerprint-guard.ts';
import { createLiveScanner, type ScannerFactory } from './live-scanner.ts';
import { poisoningGuard } from './poisoning-guard.ts';
import { runGuards, type GuardVerdict } from './runner.ts';
import { assessServers, catalogEntryOf } from './server-assessment.ts';
import { reviewSurfaces, type SurfaceReview } from './surface-governance.ts';
import { gatherLocalFacts, gatherUpstreamFacts } from './tool-facts.ts';

/** What governance needs from the rest of the gateway. */
export interface GovernanceDeps {
  config: PortcullisConfig;
  catalog: readonly CatalogEntry[];
  ledger: Ledger;
  /** Compiles a scanner that looks for the given names of other servers' tools (the live cross-server check). */
  createScanner: ScannerFactory;
  /** The upstreams whose prompts, resources and instructions clients may see. */
  snapshots(): readonly UpstreamSnapshot[];
  /** Last use of an upstream (server-risk doc axis: not used within 90 days). */
  lastUsedAt(upstream: string): number | null;
  recordEvent(event: NewEvent): void;
  now(): number;
  log(event: string, fields: Record<string, unknown>, level?: 'warn' | 'error'): void;
}

/** The live view governance keeps for the admin API and `portcullis scan`. */
export interface Governance {
  govern: GovernFunction;
  /** The last assessment of each upstream (after the last rebuild), with its catalog match. */
  servers(): ReadonlyMap<string, ServerAssessment>;
  /** The catalog entry an upstream config matches, or null. */
  catalogEntryOf(upstream: UpstreamConfig): CatalogEntry | null;
  /**
   * The governed prompts, resources and instructions of the current snapshots, and what was flagged (reviewed
   * again only when a snapshot or the tool registry changed).
   */
  surfaces(): SurfaceReview;
}

/** Withholds a still-exposed tool the guards withheld, and keeps their findings on it. */
function applyVerdict(tool: ExposedTool, verdict: GuardVerdict): void {
  if (verdict.findings.length > 0) tool.governance = { ...tool.governance, findings: verdict.findings };
  if (!tool.exposed || verdict.withheld === undefined) return;
  tool.exposed = false;
  tool.withheldReason = verdict.withheld.reason;
  if (verdict.withheld.detail !== undefined) tool.withheldDetail = verdict.withheld.detail;
}

/** Creates the governance stage. */
export function createGovernance(deps: GovernanceDeps): Governance {
  let servers = new Map<string, ServerAssessment>();
  const emit = createGovernanceEmitter(deps);
  const runnerDeps = {
    policies: deps.config.guards,
    log: (event: string, fields: Record<string, unknown>, level: 'warn' | 'error') =>
      deps.log(event, fields, level),
  };
  const guards: readonly Guard<ExposedTool>[] = [
    fingerprintGuard,
    poisoningGuard,
    createCompositionGate({ ...runnerDeps, compositions: deps.config.compositions, emit }),
  ];

  const scanner = createLiveScanner(deps.createScanner);
  let toolsVersion = 0;
  let lastReview:
    { version: number; snapshots: readonly UpstreamSnapshot[]; review: SurfaceReview } | undefined;
  const surfaces = (): SurfaceReview => {
    const snapshots = deps.snapshots();
    // Snapshots are replaced, never changed in place: the same objects mean the same surface.
    const last = lastReview;
    const same =
      last !== undefined &&
      last.version === toolsVersion &&
      last.snapshots.length === snapshots.length &&
      last.snapshots.every((snapshot, i) => snapshot === snapshots[i]);
    if (same) return last.review;
    const review = reviewSurfaces(snapshots, {
      ...runnerDeps,
      config: deps.config,
      ledger: deps.ledger,
      scanner,
      emit,
    });
    lastReview = { version: toolsVersion, snapshots: [...snapshots], review };
    return review;
  };

  const govern: GovernFunction = (tools) => {
    const assessed = assessServers({ ...deps, emit }, deps.now());
    servers = new Map([...assessed].map(([id, server]) => [id, server.assessment]));
    scanner.setTools(tools);
    toolsVersion += 1;
    const facts = { ledger: deps.ledger, scanner, emit };
    for (const tool of tools) {
      if (tool.origin === 'local') {
        gatherLocalFacts(facts, tool);
        continue;
      }
      const server = assessed.get(tool.upstream);
      if (server) gatherUpstreamFacts(facts, tool, server);
    }
    const verdicts = runGuards(guards, tools, runnerDeps);
    tools.forEach((tool, i) => applyVerdict(tool, verdicts[i] ?? { findings: [] }));
    return tools;
  };

  return {
    govern,
    servers: () => servers,
    catalogEntryOf: (upstream) => catalogEntryOf(deps.catalog, upstream),
    surfaces,
  };
}
