/**
 * upstream: the gateway as an MCP client. Transports (stdio, Streamable HTTP, legacy SSE), era negotiation,
 * the supervisor (parallel connect, backoff, list refresh) and the routing of upstream-initiated elicitation.
 */
export { createSupervisor } from './supervisor.ts';
export type { Supervisor, SupervisorOptions, UpstreamChange } from './supervisor.ts';
export { connectUpstream, GATEWAY_CLIENT_INFO, describeError } from './connection.ts';
export type { UpstreamConnection, ConnectionEvents } from './connection.ts';
export { createClientRequestRouter } from './client-request-router.ts';
export type {
  ClientRequestRouter,
  DeclineReason,
  InFlightCall,
  UpstreamLogMessage,
} from './client-request-router.ts';
export { createTransport, INHERITED_CHILD_ENV, perRequestSignalFetch } from './transports.ts';
export type { TransportContext } from './transports.ts';
export { reconnectDelayMs } from './backoff.ts';

export { foreignSchemaEngine, linearJsonSchemaValidator } from './foreign-schema.ts';
export type {
  UpstreamSnapshot,
  UpstreamState,
  UpstreamCallOptions,
  UpstreamElicitation,
  ElicitationAsker,
  SamplingAsker,
  UpstreamSampling,
  DeclinedRequest,
} from './types.ts';
