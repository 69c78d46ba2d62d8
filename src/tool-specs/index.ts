/**
 * spec: Safe Tool Specs, Portcullis's own small JavaScript tools. The document model (schema, round-trip
 * parse/serialize, invariants), the sandbox policy resolver (baseline → profiles → overrides, one merge for
 * enforcement and scoring), the toolSafety block, the sandbox Risk Level, env placeholders and lifecycle,
 * lowering to an MCP tool, the Local Pass publish gate, directory loading/watching and the bundled catalog.
 */
export type {
  HumanInTheLoop,
  LifecycleState,
  ParamType,
  SafeToolSpec,
  SandboxOverrides,
  StaticVariableEntry,
  ToolParamSpec,
} from './types.ts';
export { createSpecError, formatSpecError, joinPointer } from './spec-error.ts';
export type { SpecErrorCode, SpecResult } from './spec-error.ts';
export { validateSpecDocument } from './schema.ts';
export {
  deriveToolId,
  KNOWN_SPEC_FIELDS,
  parseSpec,
  serializeSpec,
  specToDocument,
  TOOL_ID_NAMESPACE,
} from './document.ts';
export {
  checkSpecInvariants,
  findSpecConflicts,
  INJECTED_GLOBALS,
  isBindableName,
  malformedPlaceholders,
  MAX_TAGS,
} from './invariants.ts';
export { parseTestValue } from './test-values.ts';
export type { ParsedTestValue } from './test-values.ts';
export {
  BASELINE_FILE,
  BUNDLED_POLICIES_DIR,
  loadSandboxPolicies,
  parseSandboxBaseline,
  parseSandboxProfiles,
  PROFILES_FILE,
} from './policy-files.ts';
export type { FileMode, SandboxBaseline, SandboxPolicies, SandboxProfile } from './policy-files.ts';
export {
  combineSpecErrors,
  createPolicyResolver,
  isNetworkMode,
  MAX_PROFILE_DEPTH,
  normalizeHostPattern,
  normalizeNetworkMode,
  PROFILE_FIELD,
  profileOf,
  resolveSandbox,
  resolveSpecSandbox,
} from './resolver.ts';
export type { PolicyFor, PolicyResolver, ResolvedSandbox, ResolveInput } from './resolver.ts';
export {
  computeToolSafety,
  deriveHelpers,
  RUNTIME_ID,
  STATEMENT_LIMIT_NOTE,
  TOOL_SAFETY_VERSION,
} from './tool-safety.ts';
export type { ToolSafety } from './tool-safety.ts';
export { classifyClass, patternMatches, scoreSandboxRisk } from './risk-level.ts';
export type { ClassGrant, SandboxRisk } from './risk-level.ts';
export { declaredEnvVars, resolveStaticVariables, staticVariablesOf } from './env.ts';
export type { ResolvedStaticVariables, StaticVariable } from './env.ts';
export { buildToolArgs, lifecycleOf, prepareToolCall } from './lifecycle.ts';
export type { LifecycleStatus, PreparedCall, ToolArgs } from './lifecycle.ts';
export { humanInTheLoopOf, JSON_SCHEMA_TYPES, toMcpTool } from './mcp-tool.ts';
export type { HumanInTheLoopSetting, SpecMcpTool } from './mcp-tool.ts';
export { evaluateSpec } from './evaluate.ts';
export type { SpecEvaluation } from './evaluate.ts';
export { writeFileAtomic } from './persist.ts';
export { publishSpecFile, runLocalPass } from './local-pass.ts';
export type { LocalPassDeps, LocalPassOptions, LocalPassOutcome } from './local-pass.ts';
export { loadSpecDirectory, readSpecFile, watchSpecDirectory } from './directory.ts';
export type { SpecDirectory, WatchOptions } from './directory.ts';
export { BUNDLED_CATALOG_DIR, loadBundledCatalog } from './catalog.ts';
export type { BundledCatalog, BundledSpecEntry, LoadCatalogOptions } from './catalog.ts';
export { createLocalTools, toToolResult } from './local-tools.ts';
export type { LocalTools, LocalToolsOptions } from './local-tools.ts';
