/**
 * app: the composition root. buildCore(config, deps) wires every domain behind the MCP surface (what `stdio`
 * serves); buildGateway / createGateway add the HTTP endpoint and routes; governSnapshots / analyzeCore are the
 * analysis `portcullis scan` prints, wired from the same domains. Nothing else lives here.
 */
export { buildCore } from './core.ts';
export type { AppCore, AppDeps } from './core.ts';
export { buildGateway, createGateway } from './create-gateway.ts';
export type { Gateway, GatewayDeps } from './create-gateway.ts';
export { analyzeCore, governSnapshots } from './scan-analysis.ts';
export type { ShadowingHit, SurfaceHit } from './scan-analysis.ts';
