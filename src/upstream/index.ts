/**
 * upstream: the gateway as an MCP client. Transports (stdio, Streamable HTTP, legacy SSE), era negotiation,
 * the supervisor (parallel connect, backoff, list refresh) and the routing of upstream-initiated elicitation.
 */
export { createSupervisor } from './supervisor.ts';
export type { Supervisor } from './supervisor.ts';

export { INHERITED_CHILD_ENV } from './transports.ts';

export { foreignSchemaEngine, linearJsonSchemaValidator } from './foreign-schema.ts';
export type {
  UpstreamSnapshot,
  UpstreamState,
  UpstreamElicitation,
  ElicitationAsker,
  SamplingAsker,
  UpstreamSampling,
  UpstreamRetry,
  CallerCapabilities,
} from './types.ts';
