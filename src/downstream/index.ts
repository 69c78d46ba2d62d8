/** downstream: the MCP surface clients see — the gateway's own 2025-era session server and 2026-era server, the server surface (prompts, resources, completion, subscriptions), the call paths of each era, listen subscriptions, parked modern-era calls and the error-to-wire mapping. */
export { STDIO_PRINCIPAL } from './call-context.ts';
export { createLegacyServer, type LegacyServer } from './legacy-server.ts';
export { createModernServer, type ModernReply, type ModernServer } from './modern-server.ts';
export { createModernListeners, type ListKind, type ModernListeners } from './modern-listen.ts';
export { connectModern } from './modern-connection.ts';
export { isPlainEnvelope } from './modern-shapes.ts';
export type { GatewayCore, DownstreamIdentity } from './gateway-core.ts';
export { createParkedCalls } from './parked-calls.ts';

export { buildUpstreamSurface } from './prompts-resources.ts';
export { withoutUris } from './withheld-resources.ts';

export { createResourceSubscriptions } from './resource-subscriptions.ts';
