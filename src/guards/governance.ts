/**
 * Governed exposure (docs/rules/risk-model.md): nothing reaches /mcp without having been scored, scanned,
 * fingerprinted and checked for shadowing. Runs inside every registry rebuild, before the list is advertised,
 * through one evaluation path per tool, on every exposure path. The facts come first (tool-facts.ts), then
 * the guards decide in order — fingerprint, poisoning, composition gate (risk cap, shadowing) — each in the
 * mode the config gives it (runner.ts).
 */
import type { PortcullisConfig, UpstreamConfig } from '../config/index.ts';
import type { ExposedTool, GovernFunction } from '../exposure/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { PoisoningScanner } from '../poisoning/index.ts';
import type { CatalogEntry, ServerAssessment } from '../risk/index.ts';
import type { NewEvent } from '../store/index.ts';
import { createCompositionGate } from './composition-gate.ts';
import type { Guard } from './contract.ts';
import { createGovernanceEmitter } from './event-emitter.ts';
import { fingerprintGuard } from './fingerprint-guard.ts';
import { poisoningGuard } from './poisoning-guard.ts';
import { runGuards, type GuardVerdict } from './runner.ts';
import { assessServers, catalogEntryOf } from './server-assessment.ts';
import { gatherLocalFacts, gatherUpstreamFacts } from './tool-facts.ts';

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
  log(event: string, fields: Record<string, unknown>, level?: 'warn' | 'error'): void;
}

/** The live view governance keeps for the admin API and `portcullis scan`. */
export interface Governance {
  govern: GovernFunction;
  /** The last assessment of each upstream (after the last rebuild), with its catalog match. */
  servers(): ReadonlyMap<string, ServerAssessment>;
  /** The catalog entry an upstream config matches, or null. */
  catalogEntryOf(upstream: UpstreamConfig): CatalogEntry | null;
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

  const govern: GovernFunction = (tools) => {
    const assessed = assessServers({ ...deps, emit }, deps.now());
    servers = new Map([...assessed].map(([id, server]) => [id, server.assessment]));
    const facts = { ledger: deps.ledger, scanner: deps.scanner, emit };
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
  };
}
