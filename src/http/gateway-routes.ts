/**
 * The HTTP surface of a gateway as one hono app: /healthz, /readyz, /mcp and /mcp/<profile> behind the door
 * (Host/Origin, then API keys or OAuth bearer tokens, then the profile's principals), the RFC 9728 protected
 * resource metadata when OAuth is configured, and the admin API behind its own credentials (admin-guard.ts)
 * plus the Host check.
 */
import { Hono, type Context } from 'hono';
import type { Profiles } from '../exposure/index.ts';
import type { Principal } from '../identity/index.ts';
import type { PortcullisConfig } from '../config/index.ts';
import {
  bearerToken,
  createApiKeyVerifier,
  createAuthenticator,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  type Authenticator,
} from '../identity/index.ts';
import type { Logger } from '../telemetry/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { createAdminAccess } from './admin-access.ts';
import { createAdminApi, type AdminDeps } from './admin-api.ts';
import { adminRequestFacts } from './admin-guard.ts';
import { createConsole } from '../console/index.ts';
import { installErrorHandlers } from './error-handler.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import type { McpEndpoint } from './mcp-endpoint.ts';
import { allowedHostnames, checkHost, checkHostAndOrigin } from './security.ts';

/** What the routes serve. */
export interface GatewayRoutesDeps {
  config: PortcullisConfig;
  endpoint: Pick<McpEndpoint, 'handle'>;
  /** The profiles served at /mcp (default) and /mcp/<name>. */
  profiles: Profiles;
  snapshots: () => UpstreamSnapshot[];
  /** True while the store answers queries (readiness). */
  storeOpen: () => boolean;
  logger: Pick<Logger, 'log'>;
  /** The admin API's domain dependencies; its access rules are built here from the config. */
  admin: Omit<AdminDeps, 'config' | 'access' | 'log'>;
  /** Who is calling; built from `config.auth` when absent. */
  authenticator?: Authenticator;
}

/** Builds the hono app of a gateway (without listening). */
export function createGatewayRoutes(deps: GatewayRoutesDeps): Hono {
  const { config, logger } = deps;
  const hosts = allowedHostnames(config.listen.host, config.http.allowedHosts);
  const origins = [...hosts, ...config.http.allowedOrigins];
  const authenticator =
    deps.authenticator ??
    createAuthenticator(config.auth, { ownCredentials: config.admin.keys.map((admin) => admin.key) });
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
  const oauth = config.auth.oauth;
  if (oauth) {
    // RFC 9728: the document at the root and at each /mcp path; public and readable from any page.
    const metadata = protectedResourceMetadata(oauth);
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };
    for (const path of [
      PROTECTED_RESOURCE_PATH,
      `${PROTECTED_RESOURCE_PATH}/mcp`,
      `${PROTECTED_RESOURCE_PATH}/mcp/:profile`,
    ]) {
      app.get(path, (c) => {
        const refused = checkHost(c.req.raw, hosts);
        if (refused) return forbidden(refused);
        return c.json(metadata, 200, { ...cors, 'cache-control': 'max-age=300' });
      });
      app.options(path, (c) => c.body(null, 204, { ...cors, 'access-control-max-age': '600' }));
    }
  }
  const mcp = async (c: Context, profileName: string | undefined) => {
    const refused = checkHostAndOrigin(c.req.raw, hosts, origins);
    if (refused) return forbidden(refused);
    const outcome = await authenticator.authenticate(
      c.req.raw.headers,
      profileName === undefined ? {} : { profile: profileName },
    );
    if (!outcome.ok) {
      logger.log(
        'auth.refused',
        { status: outcome.status, code: outcome.code, reason: outcome.message },
        'info',
      );
      return jsonRpcError(
        outcome.status,
        JSON_RPC.INVALID_REQUEST,
        outcome.code,
        outcome.message,
        outcome.wwwAuthenticate === undefined ? {} : { 'www-authenticate': outcome.wwwAuthenticate },
      );
    }
    // The client's credential stops here: upstream transports send only their configured headers.
    return serveProfile(deps, c.req.raw, outcome.principal, profileName);
  };
  app.all('/mcp', (c) => mcp(c, undefined));
  app.all('/mcp/:profile', (c) => mcp(c, c.req.param('profile')));

  const apiKeys = createApiKeyVerifier(config.auth.apiKeys);
  const access = createAdminAccess({
    adminKeys: config.admin.keys,
    apiKeys: config.auth.apiKeys.map((k) => k.key),
    allowedOrigins: config.admin.allowedOrigins,
    apiKeyPrincipal: (authorization) => {
      const token = bearerToken(authorization);
      return token === undefined ? undefined : apiKeys.verify(token)?.id;
    },
    ...(config.admin.oauth === undefined
      ? {}
      : {
          oauth: {
            roles: config.admin.oauth,
            principal: async (authorization: string | null) => {
              const outcome = await authenticator.authenticate(
                new Headers(authorization === null ? {} : { authorization }),
              );
              return outcome.ok && outcome.principal.source === 'oauth' ? outcome.principal : undefined;
            },
          },
        }),
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
  app.route(
    '/console',
    createConsole({
      adminApi: admin,
      access,
      factsOf: adminRequestFacts,
      checkHost: (request) => checkHost(request, hosts),
      traceUrl: config.console?.traceUrl,
      now: deps.admin.now,
    }),
  );
  return app;
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
