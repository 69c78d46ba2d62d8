/** downstream: the MCP surface clients see — the server surface (prompts, resources, completion, subscriptions), the call paths of each era, parked modern-era calls and the error-to-wire mapping. */
export { createDownstreamServer, STDIO_PRINCIPAL } from './downstream-server.ts';
export type { GatewayCore, DownstreamIdentity } from './gateway-core.ts';
export { createParkedCalls } from './parked-calls.ts';

export { buildUpstreamSurface } from './prompts-resources.ts';
export { withoutUris } from './withheld-resources.ts';

export { createResourceSubscriptions } from './resource-subscriptions.ts';
