/**
 * The HTTP surface of a gateway as one hono app: /healthz, /readyz, /mcp and /mcp/<profile> behind the door
 * (Host/Origin, then API keys, then the profile's principals) and the admin API behind its own credentials
 * (admin-guard.ts) plus the Host check.
 */
import { Hono, type Context } from 'hono';
import type { Profiles } from '../exposure/index.ts';
import { ANONYMOUS, type Principal } from '../identity/index.ts';
import type { PortcullisConfig } from '../config/index.ts';
import type { Logger } from '../telemetry/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { createAdminAccess } from './admin-access.ts';
import { createAdminApi, type AdminDeps } from './admin-api.ts';
import { installErrorHandlers } from './error-handler.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import type { McpEndpoint } from './mcp-endpoint.ts';
import {
  allowedHostnames,
  checkHost,
  checkHostAndOrigin,
  createApiKeyVerifier,
  type ApiKeyVerifier,
} from './security.ts';

/** What the routes serve. */
export interface GatewayRoutesDeps {
  config: PortcullisConfig;
  endpoint: Pick<McpEndpoint, 'handle'>;
  /**
   * Turns an /mcp request's Authorization header into its principal, or undefined (401); by default the API key
   * verifier's, with no groups or scopes.
   */
  principalOf?: (authorization: string | null) => Principal | undefined;
  /** The profiles served at /mcp (default) and /mcp/<name>. */
  profiles: Profiles;
  snapshots: () => UpstreamSnapshot[];
  /** True while the store answers queries (readiness). */
  storeOpen: () => boolean;
  logger: Pick<Logger, 'log'>;
  /** The admin API's domain dependencies; its access rules are built here from the config. */
  admin: Omit<AdminDeps, 'config' | 'access' | 'log'>;
}

/** Builds the hono app of a gateway (without listening). */
export function createGatewayRoutes(deps: GatewayRoutesDeps): Hono {
  const { config, logger } = deps;
  const hosts = allowedHostnames(config.listen.host, config.http.allowedHosts);
  const origins = [...hosts, ...config.http.allowedOrigins];
  const keys = createApiKeyVerifier(config.auth.apiKeys);
  const principalOfRequest = deps.principalOf ?? ((authorization) => principalOf(keys, authorization));
  const forbidden = (reason: string) =>
    jsonRpcError(403, JSON_RPC.INVALID_REQUEST, 'FORBIDDEN_ORIGIN', `Forbidden: ${reason}`);
  const app = new Hono();
  installErrorHandlers(app, (event, fields, level) => logger.log(event, fields, level));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) => {
    const upstreams = deps.snapshots().map((s) => ({ id: s.id, state: s.state }));
    const storeOpen = deps.storeOpen();
    return c.json(
      { status: storeOpen ? 'ready' : 'unavailable', store: storeOpen ? 'open' : 'closed', upstreams },
      storeOpen ? 200 : 503,
    );
  });
  const mcp = (c: Context, profileName: string | undefined) => {
    const refused = checkHostAndOrigin(c.req.raw, hosts, origins);
    if (refused) return forbidden(refused);
    const principal = principalOfRequest(c.req.header('authorization') ?? null);
    if (!principal) {
      return jsonRpcError(
        401,
        JSON_RPC.INVALID_REQUEST,
        'UNAUTHORIZED',
        'Unauthorized: send Authorization: Bearer <api key>',
        { 'www-authenticate': 'Bearer realm="portcullis"' },
      );
    }
    return serveProfile(deps, c.req.raw, principal, profileName);
  };
  app.all('/mcp', (c) => mcp(c, undefined));
  app.all('/mcp/:profile', (c) => mcp(c, c.req.param('profile')));

  const access = createAdminAccess({
    adminKeys: config.admin.keys,
    apiKeys: config.auth.apiKeys,
    allowedOrigins: config.admin.allowedOrigins,
    apiKeyPrincipal: (authorization) => keys.verify(authorization),
  });
  logger.log('admin.access', { mode: access.mode });
  const admin = createAdminApi({
    ...deps.admin,
    config,
    access,
    log: (event, fields, level) => logger.log(event, fields, level),
  });
  // Only the Host check here (DNS rebinding); the admin API checks its own credentials.
  app.use('/admin/api/*', async (c, next) => {
    const refused = checkHost(c.req.raw, hosts);
    if (refused) return forbidden(refused);
    await next();
  });
  app.route('/admin/api', admin);
  return app;
}

/**
 * The caller of an /mcp request as a Principal, or undefined when the credential is missing or wrong. The one
 * place that turns a verified credential into a principal on the /mcp path.
 */
function principalOf(keys: ApiKeyVerifier, authorization: string | null): Principal | undefined {
  const id = keys.verify(authorization);
  if (id === undefined) return undefined;
  return keys.enabled ? { id, source: 'api-key', groups: [], scopes: [] } : ANONYMOUS;
}

/** Picks the request's profile (404 unknown, 403 not admitted) and hands the request to the endpoint. */
function serveProfile(
  deps: Pick<GatewayRoutesDeps, 'endpoint' | 'profiles'>,
  request: Request,
  principal: Principal,
  name: string | undefined,
): Promise<Response> | Response {
  const profile = name === undefined ? deps.profiles.default : deps.profiles.get(name);
  if (!profile) {
    return jsonRpcError(404, JSON_RPC.INVALID_REQUEST, 'PROFILE_NOT_FOUND', `Unknown profile: ${name}`);
  }
  if (!profile.admits(principal)) {
    return jsonRpcError(
      403,
      JSON_RPC.INVALID_REQUEST,
      'PROFILE_FORBIDDEN',
      `Forbidden: this caller may not use profile "${profile.name}"`,
    );
  }
  return deps.endpoint.handle(request, principal, profile);
}
