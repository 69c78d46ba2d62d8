// The one evaluation path for a tool's risk (docs/rules/risk-model.md#r-comp-3-one-evaluation-path).
import type { CatalogEntry, CatalogToolDescriptor } from './catalog-types.ts';
import { applyHitlMitigation, composeRisk } from './compose.ts';
import type { RiskLevel } from './levels.ts';
import { isTrustedServer, resolveServerRiskInput } from './server-inputs.ts';
import type { ServerContext } from './server-inputs.ts';
import { scoreServerRisk } from './server-risk.ts';
import type { ServerFloorTrigger, ServerRisk } from './server-risk.ts';
import type { McpToolDefinition } from './tool-definition.ts';
import { effectiveAnnotations, inferSideEffectScope } from './tool-inputs.ts';
import { scoreToolPublishRisk } from './tool-risk.ts';
import type { ToolFloorTrigger, ToolPublishRisk } from './tool-risk.ts';

/** A server scored once, with what its tools' evaluation needs from it. */
export interface ServerAssessment {
  readonly risk: ServerRisk;
  /** Catalog entry with non-empty raw trust signals: its tools get the doc waiver. */
  readonly trustedServer: boolean;
  /** The id of the catalog entry used, or null for a user-typed server. */
  readonly catalogId: string | null;
}

/** Scores a server from its connection, its catalog entry (or null) and the current time. */
export function assessServer(
  context: ServerContext,
  entry: CatalogEntry | null,
  now: number,
): ServerAssessment {
  return {
    risk: scoreServerRisk(resolveServerRiskInput(context, entry, now)),
    trustedServer: isTrustedServer(entry),
    catalogId: entry === null ? null : entry.id,
  };
}

/** The result of a poisoning scan as the evaluation reads it (a TextScanResult or ToolScanResult fits). */
export interface ScanVerdict {
  readonly clean: boolean;
}

/** Everything one tool's evaluation reads. */
export interface ToolRiskEvaluationInput {
  readonly server: ServerAssessment;
  /** The live upstream definition: real input schema, live annotations. */
  readonly tool: McpToolDefinition;
  /** The catalog descriptor of this tool; its annotations override the live ones, key by key. */
  readonly descriptor?: CatalogToolDescriptor | undefined;
  /** True when every call of the exposed tool needs a human's approval. */
  readonly hitl: boolean;
  readonly scan: ScanVerdict;
}

/** Any floor that can set a tool's final level. */
export type RiskFloorTrigger = ServerFloorTrigger | ToolFloorTrigger;

/** A tool's risk with everything behind it. */
export interface ToolRiskEvaluation {
  readonly server: ServerRisk;
  readonly publish: ToolPublishRisk;
  /** The composed (inherent) level; this is the level the max-risk cap is checked against. */
  readonly final: RiskLevel;
  /** The level after HITL credit; equals `final` without HITL or with a poisoning hit. */
  readonly effective: RiskLevel;
  readonly floorTrigger: RiskFloorTrigger | null;
  /** True when HITL credit was applied (HITL on and the scan clean), even if the level did not move. */
  readonly hitlMitigated: boolean;
  /** True when the poisoning scan found anything. */
  readonly poisoned: boolean;
}

/**
 * Evaluates an upstream tool (R-COMP-3: the one path whose result both gates exposure and is shown): tool risk
 * from the real input schema, the live annotations overridden by the catalog descriptor, the descriptor's
 * side-effect scope and user-data flag, and the trusted-server doc waiver; composed with the server risk;
 * HITL credit only when the scan is clean (a poisoned description forfeits it).
 */
export function evaluateToolRisk(input: ToolRiskEvaluationInput): ToolRiskEvaluation {
  const { tool, descriptor } = input;
  const publish = scoreToolPublishRisk({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: effectiveAnnotations(tool.annotations, descriptor),
    sideEffectScope: inferSideEffectScope(descriptor),
    sendsUserData: descriptor?.riskFactors?.sendsUserData === true,
    trustedServer: input.server.trustedServer,
  });
  const composed = composeRisk(input.server.risk, publish);
  const hitlMitigated = input.hitl && input.scan.clean;
  return {
    server: input.server.risk,
    publish,
    final: composed.level,
    effective: hitlMitigated ? applyHitlMitigation(composed.level, true) : composed.level,
    floorTrigger: composed.floorTrigger,
    hitlMitigated,
    poisoned: !input.scan.clean,
  };
}

/** Everything a local (Safe Tool Spec) tool's evaluation reads. */
export interface LocalToolRiskInput {
  /** The sandbox level of the spec; null counts as L0. */
  readonly sandboxLevel: RiskLevel | null;
  readonly hitl: boolean;
  readonly scan: ScanVerdict;
}

/** A local tool's risk: the sandbox level, and the level after HITL credit. */
export interface LocalToolRiskEvaluation {
  readonly final: RiskLevel;
  readonly effective: RiskLevel;
  readonly hitlMitigated: boolean;
  readonly poisoned: boolean;
}

/**
 * Evaluates a local tool (R-COMP-4): the inherent level is its sandbox level; the effective level
 * is HITL-mitigated (L0 → L1) only when approval is required and the scan is clean.
 */
export function evaluateLocalToolRisk(input: LocalToolRiskInput): LocalToolRiskEvaluation {
  const final = input.sandboxLevel ?? 'L0';
  const hitlMitigated = input.hitl && input.scan.clean;
  return {
    final,
    effective: hitlMitigated ? applyHitlMitigation(final, true) : final,
    hitlMitigated,
    poisoned: !input.scan.clean,
  };
}
