/** downstream: the MCP surface clients see — the server surface (prompts, resources, completion, subscriptions), the call paths of each era, parked modern-era calls and the error-to-wire mapping. */
export { createDownstreamServer, GATEWAY_SERVER_INFO } from './downstream-server.ts';
export type { GatewayCore, DownstreamIdentity } from './gateway-core.ts';
export { createParkedCalls } from './parked-calls.ts';
export type {
  ParkedCalls,
  ParkedCall,
  PendingInput,
  QuestionAsker,
  UpstreamQuestion,
} from './parked-calls.ts';
export { buildUpstreamSurface } from './prompts-resources.ts';
export type { UpstreamSurface, ExposedPrompt } from './prompts-resources.ts';
export { createResourceSubscriptions } from './resource-subscriptions.ts';
export type {
  ResourceSubscriptions,
  ResourceFollower,
  UpstreamSubscriber,
} from './resource-subscriptions.ts';
