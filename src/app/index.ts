/** app: the composition root. createGateway(config, deps) wires every domain into one gateway without listening; nothing else lives here. */
export { createGateway } from './create-gateway.ts';
export type { Gateway, GatewayDeps, ListKind } from './create-gateway.ts';
