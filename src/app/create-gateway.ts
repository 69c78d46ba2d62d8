/**
 * createGateway(config, deps) builds a whole gateway (store, upstream supervisor, registry, pipeline, /mcp
 * endpoint, health and admin routes) without listening; only main.ts and tests decide where it listens.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Server } from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { compileApprovalRules, createApprovalSealer } from '../approval/index.ts';
import { createAuditLog, createAuditWriter } from '../audit/index.ts';
import { createLedger, type Ledger } from '../ledger/index.ts';
import { createPoisoningScanner } from '../poisoning/index.ts';
import { loadServerCatalog, type CatalogEntry } from '../risk/index.ts';
import type { EnvLookup } from '../secrets/index.ts';
import type { PortcullisConfig } from '../config/index.ts';
import {
  buildUpstreamSurface,
  createDownstreamServer,
  createParkedCalls,
  createResourceSubscriptions,
  type DownstreamIdentity,
  type GatewayCore,
} from '../downstream/index.ts';
import {
  createApprovalStage,
  createArgumentValidator,
  createCallPipeline,
  toAuditInput,
} from '../calls/index.ts';
import { createGovernance, type Governance, reviewSampling } from '../guards/index.ts';
import { createLocalTools } from '../tool-specs/index.ts';
import {
  type LocalToolProvider,
  createToolRegistry,
  type GovernFunction,
  type ToolRegistry,
} from '../exposure/index.ts';
import { createMasker, type Masker } from '../secrets/index.ts';
import { createToolRunner, type SandboxRunner, type ToolRunner } from '../sandbox/index.ts';
import { openStore, type Store } from '../store/index.ts';
import {
  createLogger,
  createTelemetry,
  type Logger,
  type Telemetry,
  type TelemetryOptions,
} from '../telemetry/index.ts';
import { createSupervisor, type Supervisor } from '../upstream/index.ts';
import { jsonRpcError, JSON_RPC } from '../http/json-rpc-response.ts';
import { createAdminAccess } from '../http/admin-access.ts';
import { createAdminApi } from '../http/admin-api.ts';
import { installErrorHandlers } from '../http/error-handler.ts';
import { createMcpEndpoint, type McpEndpoint } from '../http/mcp-endpoint.ts';
import { allowedHostnames, checkHost, checkHostAndOrigin, createApiKeyVerifier } from '../http/security.ts';

/** Things a gateway takes from its host process (so tests can swap them). */
export interface GatewayDeps {
  /** PATH and HOME for stdio children (main passes the process values). */
  inheritedEnv: Record<string, string | undefined>;
  /** An already open store (tests); otherwise config.store.path is opened. */
  store?: Store;
  /** Log line sink (default stderr). */
  writeLog?: (line: string) => void;
  local?: LocalToolProvider;
  /** Replaces the risk engine's governance (tests of the bare proxy only). */
  govern?: GovernFunction;
  /** The server catalog (default: the bundled catalog/servers). */
  catalog?: CatalogEntry[];
  /** Looks up `${NAME}` of Safe Tool Spec static variables at call time (main passes the process env). */
  lookup?: EnvLookup;
  /** The sandbox runner (default: isolated-vm with the configured workspace). */
  runner?: ToolRunner;
  /** Test hooks for telemetry (an in-memory span exporter, a metric reader). */
  telemetry?: Pick<TelemetryOptions, 'spanExporter' | 'metricReader'>;
  now?: () => number;
  /** How long an upstream may take to connect (default 30 s; tests shorten it). */
  connectTimeoutMs?: number;
}

/** A list clients can be told has changed. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** A built gateway. */
export interface Gateway {
  app: Hono;
  store: Store;
  supervisor: Supervisor;
  registry: ToolRegistry;
  governance: Governance;
  ledger: Ledger;
  endpoint: McpEndpoint;
  logger: Logger;
  telemetry: Telemetry;
  masker: Masker;
  /** Calls `listener` whenever the tools, prompts or resources clients see change; returns the unsubscribe. */
  onListChanged(listener: (kind: ListKind) => void): () => void;
  /** A downstream MCP server over the same core (used by `portcullis stdio`). */
  serverFor(identity: DownstreamIdentity): Server;
  /** Resolves when every upstream has connected or failed once. */
  ready(timeoutMs?: number): Promise<void>;
  /** Moves the audit records of answered calls from this process's journal into the database. */
  flushAudit(): Promise<void>;
  close(): Promise<void>;
}

/** Builds the gateway; call `close()` to stop upstreams and close the store. */
export function createGateway(config: PortcullisConfig, deps: GatewayDeps): Gateway {
  const masker = createMasker(config.secrets);
  const logger = createLogger({
    level: config.telemetry.logLevel,
    masker,
    ...(deps.writeLog ? { write: deps.writeLog } : {}),
  });
  const log = (event: string, fields: Record<string, unknown>) => logger.log(event, fields);
  const store = deps.store ?? openStore({ path: config.store.path });
  const telemetry = createTelemetry({ ...config.telemetry, masker, logger, ...deps.telemetry });
  const now = deps.now ?? Date.now;

  // The supervisor reports changes from its first connection on; registry and endpoint exist by then.
  const late: { endpoint?: McpEndpoint; registry?: ToolRegistry } = {};
  const listListeners = new Set<(kind: ListKind) => void>();
  const listChanged = (kind: ListKind) => {
    late.endpoint?.notify(kind);
    for (const listener of listListeners) listener(kind);
  };
  const subscriptions = createResourceSubscriptions(
    {
      subscribe: (upstream, uri) => supervisor.subscribeResource(upstream, uri),
      unsubscribe: (upstream, uri) => supervisor.unsubscribeResource(upstream, uri),
    },
    (upstream, uri, error) =>
      log('upstream.resubscribe_failed', { upstream, uri, error: (error as Error).message }),
  );
  const supervisor = createSupervisor({
    upstreams: config.upstreams,
    transport: { inheritedEnv: deps.inheritedEnv },
    onChange: (_id, change) => {
      if (change === 'state' || change === 'tools') {
        if (late.registry?.rebuild()) listChanged('tools');
      }
      if (change === 'state' || change === 'prompts') listChanged('prompts');
      if (change === 'state' || change === 'resources') listChanged('resources');
    },
    onConnected: (id, at) => {
      store.upstreams.recordConnected(id, at);
      void subscriptions.renew(id);
    },
    onResourceUpdated: (id, uri) => subscriptions.updated(id, uri),
    onClientRequestDeclined: (id, reason, request) =>
      log(`upstream.${request}_declined`, { upstream: id, reason }),
    log: (event, fields, level) => logger.log(event, fields, level),
    now,
    ...(deps.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: deps.connectTimeoutMs }),
  });

  const runner =
    deps.runner ??
    createToolRunner({
      workspaceDir: ensureDir(config.tools.workspace),
      onCatastrophicError: ({ toolId, message, failures, quarantined }) =>
        logger.log(
          'sandbox.catastrophic',
          {
            toolId,
            message,
            failures,
            quarantined,
            action: quarantined
              ? `tool quarantined; lift with POST /admin/api/tools/${toolId}/unquarantine`
              : 'isolate discarded; the next call gets a fresh one',
          },
          'error',
        ),
    });
  const sandboxControl =
    'quarantined' in runner && 'unquarantine' in runner ? (runner as SandboxRunner) : undefined;
  const localTools =
    deps.local === undefined && (config.tools.bundled || config.tools.dir !== undefined)
      ? createLocalTools({
          bundled: config.tools.bundled,
          ...(config.tools.dir === undefined ? {} : { dir: config.tools.dir }),
          ...(config.tools.profile === undefined ? {} : { profile: config.tools.profile }),
          lookup: deps.lookup ?? (() => undefined),
          runner,
          log: (event, fields, level) => logger.log(event, fields, level),
        })
      : undefined;
  const local: LocalToolProvider | undefined = deps.local ?? localTools;
  const ledger = createLedger(store.ledger, now);
  const catalog = deps.catalog ?? loadServerCatalog();
  // One compiled scanner for tool definitions and relayed sampling requests alike.
  const poisoningScanner = createPoisoningScanner();
  const governance = createGovernance({
    config,
    catalog,
    ledger,
    scanner: poisoningScanner,
    lastUsedAt: (id) => store.upstreams.get(id)?.lastUsedAt ?? null,
    recordEvent: (event) => {
      store.events.append(event);
      const payload = event.payload as Record<string, unknown>;
      if (event.type === 'PoisoningHit') {
        const matches = (payload.matches ?? []) as { patternId: string; fieldPath: string }[];
        telemetry.poisoningHit({
          alias: event.subject,
          upstream: payload.upstream as string | undefined,
          tool: String(payload.tool ?? event.subject ?? ''),
          patterns: [...new Set(matches.map((m) => m.patternId))],
          fields: [...new Set(matches.map((m) => m.fieldPath))],
        });
      } else if (event.type === 'HashLedgerMismatch') {
        telemetry.hashLedgerMismatch({
          upstream: String(payload.upstream),
          tool: String(payload.tool),
          previousHash: payload.previousHash as string | undefined,
          hash: String(payload.currentHash),
          status: 'AWAITING_REREVIEW',
        });
      }
    },
    now,
    log: (event, fields, level) => logger.log(event, fields, level),
  });
  const validator = createArgumentValidator();
  const toolRegistry = createToolRegistry({
    config,
    snapshots: () => supervisor.snapshots(),
    ...(local ? { local } : {}),
    govern: deps.govern ?? governance.govern,
    inputSchemaProblem: (schema) => validator.schemaProblem(schema),
    log: (event, fields, level) => logger.log(event, fields, level),
  });
  late.registry = toolRegistry;
  local?.onChange(() => {
    if (toolRegistry.rebuild()) listChanged('tools');
  });

  // "Last used" feeds a 90-day recency window: one write per upstream per minute is precise enough and keeps
  // a database write off the hot path of every call.
  const lastUsedWrite = new Map<string, number>();
  const markUsed = (upstream: string) => {
    const at = now();
    if (at - (lastUsedWrite.get(upstream) ?? 0) < 60_000) return;
    lastUsedWrite.set(upstream, at);
    store.upstreams.recordUsed(upstream, at);
  };
  const rules = compileApprovalRules(config.approval.rules);
  const auditLog = createAuditLog(store, { clock: now, masker });
  const recovered = auditLog.recoverJournals();
  if (recovered.journals > 0) {
    logger.log('audit.journal_recovered', { ...recovered }, recovered.unreadableLines > 0 ? 'warn' : 'info');
  }
  const audit = createAuditWriter(auditLog, {
    ...(store.auditJournals ? { journal: store.auditJournals.own() } : {}),
    onStoreError: (error) =>
      logger.log(
        'audit.store_failed',
        { error: (error as Error).message, action: 'the records stay in the journal; retrying' },
        'error',
      ),
  });
  const pipeline = createCallPipeline({
    registry: toolRegistry,
    supervisor,
    ...(local ? { local } : {}),
    validator,
    masker: () => masker,
    now,
    approval: createApprovalStage({
      rules,
      threshold: config.approval.autoApproveThreshold,
      now,
      promptTemplateOf: (tool) => tool.governance?.promptTemplate,
    }),
    telemetry,
    transportOf: (id) => config.upstreams.find((u) => u.id === id)?.transport,
    record: async (record) => {
      const entry = toAuditInput(
        record,
        telemetry.currentTraceId(),
        (alias) => toolRegistry.find(alias)?.upstream,
      );
      // The record stage must not throw: a store failure is logged (audit.write_failed), the call's answer stands.
      try {
        await audit.write(entry);
        if (record.approval?.decision === 'ask') {
          store.events.append({
            type: 'ApprovalDecided',
            at: now(),
            subject: record.alias,
            payload: { principal: record.caller.principal, outcome: record.outcome, ...record.approval },
          });
        }
        if (record.tool?.upstream && record.outcome === 'OK') markUsed(record.tool.upstream);
      } catch (error) {
        logger.log('audit.write_failed', { alias: record.alias, error: (error as Error).message }, 'error');
      }
      telemetry.toolFinished(record);
    },
  });

  const core: GatewayCore = {
    registry: toolRegistry,
    subscriptions,
    pipeline,
    supervisor,
    surface: () =>
      buildUpstreamSurface(
        config.exposure === 'builtin' ? [] : supervisor.snapshots(),
        (id) => config.upstreams.find((u) => u.id === id)?.promptOverrides,
      ),
    parked: createParkedCalls({ ttlMs: config.approval.elicitationTimeoutMs, maxParked: 256 }),
    sealer: createApprovalSealer({
      key: randomBytes(32),
      clock: now,
      ttlMs: config.approval.elicitationTimeoutMs,
    }),
    elicitationTimeoutMs: config.approval.elicitationTimeoutMs,
    policyVersion: () => rules.version,
    mask: (text) => masker.mask(text),
    maskDeep: (value) => masker.maskDeep(value),
    reviewSampling: (alias, params) => {
      const review = reviewSampling(params, {
        scan: (text) => poisoningScanner.scanText(text),
        poisoning: config.poisoning,
        maskDeep: (value) => masker.maskDeep(value),
      });
      const hits = review.hits.map((hit) => `${hit.patternId} in ${hit.field}`);
      if (!review.relay) logger.log('sampling.refused', { alias, reason: review.reason }, 'warn');
      else if (hits.length > 0) logger.log('sampling.relayed', { alias, poisoningHits: hits }, 'warn');
      else log('sampling.relayed', { alias });
      return review;
    },
    telemetry,
  };
  const mcp = createMcpEndpoint({
    createServer: (identity) => createDownstreamServer(core, identity),
    maxBodyBytes: config.http.maxBodyBytes,
    sessionIdleTimeoutMs: config.http.sessionIdleTimeoutMs,
    maxSessions: config.http.maxSessions,
    maxSessionsPerPrincipal: config.http.maxSessionsPerPrincipal,
    log,
  });
  late.endpoint = mcp;

  const hosts = allowedHostnames(config.listen.host, config.http.allowedHosts);
  const origins = [...hosts, ...config.http.allowedOrigins];
  const keys = createApiKeyVerifier(config.auth.apiKeys);
  const app = new Hono();
  installErrorHandlers(app, (event, fields, level) => logger.log(event, fields, level));

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', (c) => {
    const upstreams = supervisor.snapshots().map((s) => ({ id: s.id, state: s.state }));
    let storeOpen = true;
    try {
      store.upstreams.get('__readyz__');
    } catch {
      storeOpen = false;
    }
    return c.json(
      { status: storeOpen ? 'ready' : 'unavailable', store: storeOpen ? 'open' : 'closed', upstreams },
      storeOpen ? 200 : 503,
    );
  });
  // One door for /mcp and /admin/api: Host/Origin validation, then API keys.
  const door = (request: Request): Response | { principal: string } => {
    const refused = checkHostAndOrigin(request, hosts, origins);
    if (refused)
      return jsonRpcError(403, JSON_RPC.INVALID_REQUEST, 'FORBIDDEN_ORIGIN', `Forbidden: ${refused}`);
    const principal = keys.verify(request.headers.get('authorization'));
    if (!principal) {
      return jsonRpcError(
        401,
        JSON_RPC.INVALID_REQUEST,
        'UNAUTHORIZED',
        'Unauthorized: send Authorization: Bearer <api key>',
        {
          'www-authenticate': 'Bearer realm="portcullis"',
        },
      );
    }
    return { principal };
  };
  app.all('/mcp', async (c) => {
    const checked = door(c.req.raw);
    return checked instanceof Response ? checked : mcp.handle(c.req.raw, checked.principal);
  });
  const adminAccess = createAdminAccess({
    adminKeys: config.admin.keys,
    apiKeys: config.auth.apiKeys,
    allowedOrigins: config.admin.allowedOrigins,
    apiKeyPrincipal: (authorization) => keys.verify(authorization),
  });
  log('admin.access', { mode: adminAccess.mode });
  const admin = createAdminApi({
    config,
    store,
    supervisor,
    registry: toolRegistry,
    governance,
    ledger,
    audit: auditLog,
    flushAudit: () => audit.flush(),
    catalog,
    masker,
    now,
    refresh: () => {
      if (toolRegistry.rebuild()) listChanged('tools');
    },
    access: adminAccess,
    log: (event, fields, level) => logger.log(event, fields, level),
    ...(sandboxControl === undefined ? {} : { sandbox: sandboxControl }),
  });
  // The admin API has its own credentials (admin-guard.ts); here only the Host check against DNS rebinding.
  app.use('/admin/api/*', async (c, next) => {
    const refused = checkHost(c.req.raw, hosts);
    if (refused)
      return jsonRpcError(403, JSON_RPC.INVALID_REQUEST, 'FORBIDDEN_ORIGIN', `Forbidden: ${refused}`);
    await next();
  });
  app.route('/admin/api', admin);

  // Operator changes made by another process (the ledger CLI) land in the database; pick them up.
  let seenVersion = store.dataVersion();
  const watcher = setInterval(() => {
    const version = store.dataVersion();
    if (version === seenVersion) return;
    seenVersion = version;
    if (toolRegistry.rebuild()) listChanged('tools');
  }, 1_000);
  watcher.unref();

  toolRegistry.rebuild();
  supervisor.start();

  return {
    app,
    store,
    supervisor,
    registry: toolRegistry,
    governance,
    ledger,
    endpoint: mcp,
    logger,
    telemetry,
    masker,
    onListChanged(listener) {
      listListeners.add(listener);
      return () => listListeners.delete(listener);
    },
    serverFor: (identity) => createDownstreamServer(core, identity),
    ready: async (timeoutMs) => {
      await Promise.all([supervisor.settled(timeoutMs), localTools?.ready]);
    },
    flushAudit: () => audit.flush(),
    async close() {
      clearInterval(watcher);
      core.parked.close();
      await mcp.close();
      await supervisor.close();
      await localTools?.close();
      if (!deps.runner) await runner.close();
      await telemetry.shutdown();
      await audit.close();
      if (!deps.store) store.close();
    },
  };
}

function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
