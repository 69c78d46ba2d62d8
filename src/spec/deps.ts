/** Everything the spec domain uses from other domains, imported in one place through their doors. */
export type {
  NetworkMode,
  SandboxLimits,
  SandboxPolicy,
  ToolRunner,
  ToolRunRequest,
  ToolRunResult,
  Masker,
} from '../sandbox/index.ts';
export { createMasker } from '../sandbox/index.ts';
export { maxRisk, riskOrdinal } from '../risk/index.ts';
export type { RiskLevel } from '../risk/index.ts';
// The one placeholder grammar (DESIGN decision 8).
export {
  anchoredPlaceholder,
  findPlaceholders,
  isMissingValue,
  substitutePlaceholders,
} from '../config/index.ts';
export type { EnvLookup } from '../config/index.ts';
