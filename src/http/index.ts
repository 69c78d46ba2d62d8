/**
 * http: the hono app of the gateway — /mcp (Host/Origin check, API keys, body cap, era router, legacy sessions),
 * /healthz, /readyz and the admin API — and createGateway, which builds everything without listening.
 */
export { createGateway } from './create-gateway.ts';
export type { Gateway, GatewayDeps, ListKind } from './create-gateway.ts';
export { createApiKeyVerifier, allowedHostnames, checkHostAndOrigin } from './security.ts';
export type { ApiKeyVerifier, Principal } from './security.ts';
export { listenGateway } from './listen.ts';
export type { Listening } from './listen.ts';
