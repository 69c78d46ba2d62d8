/**
 * config: the portcullis.yaml schema (committed JSON Schema), YAML loading, strict validation with path-naming
 * errors, `${ENV}` resolution, defaults, and the resolved frozen PortcullisConfig. The only reader of process.env.
 */
export { loadConfig, buildConfig, processEnvLookup } from './load-config.ts';

export { parseDuration } from './duration.ts';

export type {
  PortcullisConfig,
  AdminKeyConfig,
  AdminOAuthConfig,
  AdminRole,
  ApiKeyConfig,
  OAuthConfig,
  UpstreamConfig,
  PromptOverride,
  CompositionConfig,
  ApprovalRuleConfig,
  ProfileConfig,
  HitlMode,
  ApprovalChannel,
  GuardId,
  GuardMode,
  GuardPolicy,
  GuardsConfig,
} from './types.ts';
export { loadServerCatalog } from './server-catalog.ts';
