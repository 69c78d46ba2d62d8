/** downstream: the MCP surface clients see — the gateway's own 2025-era session server, the 2026-era SDK server, the server surface (prompts, resources, completion, subscriptions), the call paths of each era, parked modern-era calls and the error-to-wire mapping. */
export { createDownstreamServer } from './downstream-server.ts';
export { STDIO_PRINCIPAL } from './call-context.ts';
export { createLegacyServer, type LegacyServer } from './legacy-server.ts';
export type { GatewayCore, DownstreamIdentity } from './gateway-core.ts';
export { createParkedCalls } from './parked-calls.ts';

export { buildUpstreamSurface } from './prompts-resources.ts';
export { withoutUris } from './withheld-resources.ts';

export { createResourceSubscriptions } from './resource-subscriptions.ts';
