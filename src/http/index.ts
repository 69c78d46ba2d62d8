/**
 * http: the hono app of the gateway — /mcp (Host/Origin check, API keys, body cap, era router, legacy sessions),
 * /healthz, /readyz and the admin API — and the listener.
 */

export { createGatewayRoutes } from './gateway-routes.ts';

export { createMcpEndpoint } from './mcp-endpoint.ts';
export { answerChunk } from './legacy-transport.ts';

export { listenGateway } from './listen.ts';
export type { AdminAccess, AdminRequestFacts } from './admin-access.ts';
export type { Listening } from './listen.ts';
