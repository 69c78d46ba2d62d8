/**
 * The HTTP gateway: the app core (core.ts) plus the /mcp endpoint and the routes of http/, without listening;
 * only the CLI and tests decide where it listens. `buildGateway` wires, `start()` connects; `createGateway`
 * does both.
 */
import type { Hono } from 'hono';
import type { PortcullisConfig } from '../config/index.ts';
import type { ToolRegistry } from '../exposure/index.ts';
import type { Governance } from '../guards/index.ts';
import { createGatewayRoutes, createMcpEndpoint } from '../http/index.ts';
import type { Masker } from '../secrets/index.ts';
import type { Store } from '../store/index.ts';
import type { Logger, Telemetry } from '../telemetry/index.ts';
import type { Supervisor } from '../upstream/index.ts';
import { buildCore, type AppCore, type AppDeps } from './core.ts';
import type { ListKind } from './list-changes.ts';

/** Things a gateway takes from its host process (so tests can swap them). */
export type GatewayDeps = AppDeps;

/** A built gateway. */
export interface Gateway {
  app: Hono;
  store: Store;
  supervisor: Supervisor;
  registry: ToolRegistry;
  governance: Governance;
  logger: Logger;
  telemetry: Telemetry;
  masker: Masker;
  /** Calls `listener` whenever the tools, prompts or resources clients see change; returns the unsubscribe. */
  onListChanged(listener: (kind: ListKind) => void): () => void;
  /** The gateway's own server of one 2025-era session over the same core. */
  legacyServerFor: AppCore['legacyServerFor'];
  /** Resolves when every upstream has connected or failed once. */
  ready(timeoutMs?: number): Promise<void>;
  /** Moves the audit records of answered calls from this process's journal into the database. */
  flushAudit(): Promise<void>;
  /** Publishes the first tool list and connects the upstreams. */
  start(): void;
  close(): Promise<void>;
}

/** Wires the gateway without starting it. */
export function buildGateway(config: PortcullisConfig, deps: GatewayDeps): Gateway {
  const core = buildCore(config, deps);
  const endpoint = createMcpEndpoint({
    modern: core.modern,
    createLegacyServer: (identity) => core.legacyServerFor(identity),
    maxBodyBytes: config.http.maxBodyBytes,
    sessionIdleTimeoutMs: config.http.sessionIdleTimeoutMs,
    maxSessions: config.http.maxSessions,
    maxSessionsPerPrincipal: config.http.maxSessionsPerPrincipal,
    maxRequestsPerPrincipal: config.http.maxRequestsPerPrincipal,
    toolInputSchema: (alias, profile) => {
      const tool = core.registry.resolve(alias);
      return tool && profile.hasTool(tool) ? tool.definition.inputSchema : undefined;
    },
    log: (event, fields) => core.logger.log(event, fields),
  });
  core.onListChanged((kind) => endpoint.notify(kind));
  const app = createGatewayRoutes({
    config,
    endpoint,
    profiles: core.profiles,
    snapshots: () => core.supervisor.snapshots(),
    storeOpen: () => storeAnswers(core.store),
    logger: core.logger,
    admin: {
      store: core.store,
      supervisor: core.supervisor,
      registry: core.registry,
      governance: core.governance,
      ledger: core.ledger,
      audit: core.auditLog,
      flushAudit: () => core.flushAudit(),
      catalog: core.catalog,
      masker: core.masker,
      now: core.now,
      refresh: () => core.refresh(),
      inbox: core.inbox,
      lookup: core.lookup,
      passRunner: core.passRunner,
      ...(core.sandbox === undefined ? {} : { sandbox: core.sandbox }),
    },
  });
  return {
    app,
    store: core.store,
    supervisor: core.supervisor,
    registry: core.registry,
    governance: core.governance,
    logger: core.logger,
    telemetry: core.telemetry,
    masker: core.masker,
    onListChanged: (listener) => core.onListChanged(listener),
    legacyServerFor: (identity) => core.legacyServerFor(identity),
    ready: (timeoutMs) => core.ready(timeoutMs),
    flushAudit: () => core.flushAudit(),
    start: () => core.start(),
    async close() {
      await endpoint.close();
      await core.close();
    },
  };
}

/** Builds and starts the gateway; call `close()` to stop upstreams and close the store. */
export function createGateway(config: PortcullisConfig, deps: GatewayDeps): Gateway {
  const gateway = buildGateway(config, deps);
  gateway.start();
  return gateway;
}

/** True while the store answers a query; a closed store throws, and that is the answer. */
function storeAnswers(store: Store): boolean {
  try {
    store.upstreams.get('__readyz__');
    return true;
  } catch {
    return false;
  }
}
