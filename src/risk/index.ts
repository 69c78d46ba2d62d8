/**
 * risk: the pure risk engine of Portcullis. Scores servers (host class, auth, trust, docs, floors) and tools
 * (base action, doc penalty, floors), composes them, applies HITL credit, aggregates and caps compositions,
 * scans every model-visible string for prompt injection, and checks the shadowing rules R1–R3. Plain data in,
 * plain data out: no I/O, no clock ("now" is an argument), except `loadServerCatalog`, which reads the catalog.
 * Rules and thresholds: docs/rules/risk-model.md.
 */
export { RISK_LEVELS, isRiskAtLeast, isRiskLevel, maxRisk, riskFromOrdinal, riskOrdinal } from './levels.ts';
export type { RiskLevel } from './levels.ts';
export { bucketScore } from './bucket.ts';

export { classifyHost, extractHost, isLoopbackHost, isPrivateLanHost } from './host-class.ts';
export type { HostClass, TransportKind } from './host-class.ts';
export { classifyAuthMode, inferAuthMode } from './auth-mode.ts';
export type { AuthMode, ConnectionAuthShape } from './auth-mode.ts';
export { parseTrustSignals } from './trust-signals.ts';
export type { TrustSignal } from './trust-signals.ts';

export { isPrivilegedScope, scoreServerRisk } from './server-risk.ts';
export type {
  ServerAxisScores,
  ServerDocGap,
  ServerDocRecord,
  ServerFloorTrigger,
  ServerRisk,
  ServerRiskInput,
} from './server-risk.ts';
export {
  RECENT_USE_WINDOW_MS,
  catalogOAuthScopes,
  isRecentlyUsed,
  isTrustedServer,
  resolveAuthMode,
  resolveServerRiskInput,
  serverRiskFactors,
} from './server-inputs.ts';
export type { ServerContext } from './server-inputs.ts';

export type { McpToolDefinition, ToolAnnotations } from './tool-definition.ts';
export { hasIrreversibleVerb } from './irreversible-verb.ts';
export {
  MIN_DESCRIPTION_LENGTH,
  baseActionScore,
  findToolDocGaps,
  hasNoHints,
  isBoilerplateDescription,
  propertyDescriptionCoverage,
  scoreToolPublishRisk,
} from './tool-risk.ts';
export type {
  CuratorChecklist,
  ToolAxisScores,
  ToolDocGap,
  ToolFloorTrigger,
  ToolPublishRisk,
  ToolPublishRiskInput,
} from './tool-risk.ts';
export { effectiveAnnotations, findToolDescriptor, inferSideEffectScope } from './tool-inputs.ts';

export {
  DEFAULT_EXPOSED_MAX_RISK,
  aggregateRisk,
  applyHitlMitigation,
  composeRisk,
  exceedsMaxRisk,
} from './compose.ts';
export type { ComposedRisk, ScoredSide } from './compose.ts';
export { assessServer, evaluateLocalToolRisk, evaluateToolRisk } from './evaluate.ts';
export type {
  LocalToolRiskEvaluation,
  LocalToolRiskInput,
  RiskFloorTrigger,
  ScanVerdict,
  ServerAssessment,
  ToolRiskEvaluation,
  ToolRiskEvaluationInput,
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
export { checkCompositionEnable } from './composition-gate.ts';
export type {
  CompositionCandidate,
  CompositionGateDecision,
  CompositionGateInput,
  CompositionRefusal,
} from './composition-gate.ts';

export { matchCatalogEntry, packageCandidates } from './catalog-match.ts';
export type { CatalogMatch, CatalogMatchTarget } from './catalog-match.ts';
export type {
  CatalogAnnotationOverrides,
  CatalogEntry,
  CatalogMatchRules,
  CatalogRiskFactors,
  CatalogToolDescriptor,
  CatalogTransport,
  SideEffectScope,
} from './catalog-types.ts';
