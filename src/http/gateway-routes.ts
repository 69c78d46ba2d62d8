/**
 * The HTTP surface of a gateway as one hono app: /healthz, /readyz, /mcp behind the door (Host/Origin, then API
 * keys) and the admin API behind its own credentials (admin-guard.ts) plus the Host check.
 */
import { Hono } from 'hono';
import type { PortcullisConfig } from '../config/index.ts';
import type { Logger } from '../telemetry/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { createAdminAccess } from './admin-access.ts';
import { createAdminApi, type AdminDeps } from './admin-api.ts';
import { adminRequestFacts } from './admin-guard.ts';
import { createConsole } from '../console/index.ts';
import { installErrorHandlers } from './error-handler.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import type { McpEndpoint } from './mcp-endpoint.ts';
import { allowedHostnames, checkHost, checkHostAndOrigin, createApiKeyVerifier } from './security.ts';

/** What the routes serve. */
export interface GatewayRoutesDeps {
  config: PortcullisConfig;
  endpoint: Pick<McpEndpoint, 'handle'>;
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
  app.all('/mcp', async (c) => {
    const refused = checkHostAndOrigin(c.req.raw, hosts, origins);
    if (refused) return forbidden(refused);
    const principal = keys.verify(c.req.header('authorization') ?? null);
    if (!principal) {
      return jsonRpcError(
        401,
        JSON_RPC.INVALID_REQUEST,
        'UNAUTHORIZED',
        'Unauthorized: send Authorization: Bearer <api key>',
        { 'www-authenticate': 'Bearer realm="portcullis"' },
      );
    }
    return deps.endpoint.handle(c.req.raw, principal);
  });

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
