/** Identity: who is calling. */
export { ANONYMOUS, type Principal } from './principal.ts';
export { createAuthenticator, type Authenticator } from './authenticator.ts';
export { bearerToken, createApiKeyVerifier } from './api-keys.ts';
export { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from './protected-resource.ts';
