/** Everything the spec domain uses from other domains, imported in one place through their doors. */
export type {
  NetworkMode,
  SandboxLimits,
  SandboxPolicy,
  ToolRunner,
  ToolRunRequest,
  ToolRunResult,
} from '../sandbox/index.ts';
export type { Masker } from '../secrets/index.ts';
export { createMasker } from '../secrets/index.ts';
export { maxRisk, riskOrdinal } from '../risk/index.ts';
export type { McpToolDefinition, RiskLevel } from '../risk/index.ts';
export type { HitlMode } from '../config/index.ts';
// The one placeholder grammar (docs/rules/secrets.md#r-secret-1-placeholder-grammar).
export {
  anchoredPlaceholder,
  findPlaceholders,
  isMissingValue,
  substitutePlaceholders,
} from '../secrets/index.ts';
export type { EnvLookup } from '../secrets/index.ts';
