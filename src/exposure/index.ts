/** exposure: the exposed-tool registry — aliases, compositions, withheld tools — and the exposed-tool types every call path reads. */
export { createToolRegistry, implicitCompositionId } from './registry.ts';
export type { ToolRegistry, RegistryDeps, GovernFunction } from './registry.ts';
export { assignAliases, defaultAlias, sanitizeName, EXPOSED_NAME_PATTERN } from './aliases.ts';
export type { AliasRequest, AliasAssignment } from './aliases.ts';
export type {
  ExposedTool,
  UpstreamExposedTool,
  LocalExposedTool,
  ToolGovernance,
  ToolRisk,
  LocalToolRisk,
  SandboxRisk,
  GuardFinding,
  LocalToolProvider,
  LocalTool,
  WithheldReason,
} from './types.ts';
