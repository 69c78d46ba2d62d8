/**
 * risk: the pure risk engine of Portcullis. Scores servers (host class, auth, trust, docs, floors) and tools
 * (base action, doc penalty, floors), composes them, applies HITL credit, aggregates and caps compositions,
 * scans every model-visible string for prompt injection, and checks the shadowing rules R1–R3. Plain data in,
 * plain data out: no I/O, no clock ("now" is an argument), except `loadServerCatalog`, which reads the catalog.
 * Rules and thresholds: docs/rules/risk-model.md.
 */
export { isRiskAtLeast, isRiskLevel, maxRisk, riskOrdinal } from './levels.ts';
export type { RiskLevel } from './levels.ts';

export type { TransportKind } from './host-class.ts';

export { parseTrustSignals } from './trust-signals.ts';

export { isTrustedServer } from './server-inputs.ts';
export type { ServerContext } from './server-inputs.ts';

export type { McpToolDefinition } from './tool-definition.ts';

export { findToolDescriptor } from './tool-inputs.ts';

export { DEFAULT_EXPOSED_MAX_RISK, exceedsMaxRisk } from './compose.ts';

export { assessServer, evaluateLocalToolRisk, evaluateToolRisk } from './evaluate.ts';
export type {
  LocalToolRiskEvaluation,
  RiskFloorTrigger,
  ServerAssessment,
  ToolRiskEvaluation,
} from './evaluate.ts';

export {
  checkAliasCollisions,
  checkCrossServerReferences,
  checkSelfScopeViolations,
  toolMetadataKey,
} from './shadowing.ts';
export type {
  ComposedTool,
  CompositionSnapshot,
  ShadowingViolation,
  ToolMetadata,
  ToolMetadataIndex,
} from './shadowing.ts';

export { matchCatalogEntry } from './catalog-match.ts';

export type { CatalogEntry } from './catalog-types.ts';
