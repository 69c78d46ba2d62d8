/**
 * config: the portcullis.yaml schema (committed JSON Schema), YAML loading, strict validation with path-naming
 * errors, `${ENV}` resolution, defaults, and the resolved frozen PortcullisConfig. The only reader of process.env.
 */
export {
  loadConfig,
  buildConfig,
  parseConfigText,
  processEnvLookup,
  DEFAULT_CONFIG_FILE,
} from './load-config.ts';
export type { LoadConfigOptions } from './load-config.ts';
export { validateConfigDocument, pointerToPath } from './validate.ts';
export { parseDuration } from './duration.ts';

export type {
  PortcullisConfig,
  AdminKeyConfig,
  AdminRole,
  UpstreamConfig,
  UpstreamCommon,
  ToolSelection,
  ToolOverride,
  PromptOverride,
  CompositionConfig,
  CompositionMember,
  ApprovalRuleConfig,
  HitlMode,
  GuardId,
  GuardMode,
  GuardPolicy,
  GuardsConfig,
} from './types.ts';
export { CATALOG_SCHEMA_FILE, DEFAULT_CATALOG_DIR, loadServerCatalog } from './server-catalog.ts';
export type { LoadCatalogOptions as LoadServerCatalogOptions } from './server-catalog.ts';
