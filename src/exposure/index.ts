/** exposure: the exposed-tool registry — aliases, compositions, withheld tools — the profiles that narrow it per endpoint, and the exposed-tool types every call path reads. */
export { createToolRegistry } from './registry.ts';
export type { ToolRegistry, GovernFunction } from './registry.ts';
export { defaultAlias } from './aliases.ts';
export { compileProfiles } from './profiles.ts';
export type { Profile, Profiles } from './profiles.ts';

export type {
  ExposedTool,
  UpstreamExposedTool,
  LocalExposedTool,
  GuardFinding,
  LocalToolProvider,
  LocalTool,
  WithheldReason,
} from './types.ts';
