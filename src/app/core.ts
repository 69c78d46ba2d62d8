/**
 * buildCore(config, deps) wires every domain behind the MCP surface — store, upstream supervisor, guards, tool
 * registry, call pipeline, downstream core — without any transport. It only wires: each domain's behaviour lives
 * in its own room (docs/architecture.md). Nothing runs until `start()`.
 */
import { randomBytes } from 'node:crypto';
import {
  compileApprovalRules,
  createApprovalInbox,
  createApprovalSealer,
  type ApprovalInbox,
} from '../approval/index.ts';
import { createAuditLog, createAuditWriter, type AuditLog } from '../audit/index.ts';
import {
  createApprovalStage,
  createArgumentValidator,
  createCallPipeline,
  createRecordStage,
  createSamplingReviewer,
  createResponseStage,
} from '../calls/index.ts';
import { loadServerCatalog, type PortcullisConfig } from '../config/index.ts';
import {
  buildUpstreamSurface,
  createLegacyServer,
  createModernServer,
  withoutUris,
  createParkedCalls,
  createResourceSubscriptions,
  type DownstreamIdentity,
  type GatewayCore,
  type LegacyServer,
  type ModernServer,
} from '../downstream/index.ts';
import {
  compileProfiles,
  createToolRegistry,
  type GovernFunction,
  type Profiles,
  type LocalToolProvider,
  type ToolRegistry,
} from '../exposure/index.ts';
import { createGovernance, type Governance } from '../guards/index.ts';
import { createLedger, type Ledger } from '../ledger/index.ts';
import { createPoisoningScanner } from '../poisoning/index.ts';
import type { CatalogEntry } from '../risk/index.ts';
import type { ToolRunner } from '../sandbox/index.ts';
import { createMasker, type EnvLookup, type Masker } from '../secrets/index.ts';
import { openStore, type Store } from '../store/index.ts';
import {
  createLogger,
  createTelemetry,
  reportGovernanceEvent,
  type Logger,
  type Telemetry,
  type TelemetryOptions,
} from '../telemetry/index.ts';
import { createSupervisor, type Supervisor } from '../upstream/index.ts';
import { createFirstConnects, FIRST_CONNECTS_WAIT_MS } from './first-connects.ts';
import { createListChanges, type ListKind } from './list-changes.ts';
import { buildLocalTools, type LocalToolsWiring } from './local-tools-wiring.ts';
import { watchStore } from './store-watch.ts';

/** Things the app takes from its host process (so tests can swap them). */
export interface AppDeps {
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
  /** How long background rebuilds wait for the upstreams' first attempts at most (default 5 s). */
  firstConnectsWaitMs?: number;
}

/** The wired app without a transport: what `portcullis stdio` serves and the HTTP gateway builds on. */
export interface AppCore {
  config: PortcullisConfig;
  store: Store;
  supervisor: Supervisor;
  registry: ToolRegistry;
  /** The configured profiles, compiled once. */
  profiles: Profiles;
  governance: Governance;
  ledger: Ledger;
  logger: Logger;
  telemetry: Telemetry;
  masker: Masker;
  auditLog: AuditLog;
  catalog: readonly CatalogEntry[];
  sandbox: LocalToolsWiring['sandbox'];
  /** How local tools resolve `${NAME}` of static variables (no lookup: every name is unset). */
  lookup: EnvLookup;
  /** A fresh runner as the gateway's own, for the studio's Local Pass. */
  passRunner: LocalToolsWiring['passRunner'];
  /** The approval inbox of the `console` channel. */
  inbox: ApprovalInbox;
  now: () => number;
  /**
   * Rebuilds the tool list and tells listeners when it changed: once on the next turn of the event loop for a
   * burst of calls (a read before then rebuilds first).
   */
  refresh(): void;
  /** Calls `listener` whenever the tools, prompts or resources clients see change; returns the unsubscribe. */
  onListChanged(listener: (kind: ListKind) => void): () => void;
  /** The gateway's own 2026-era server over the core; it serves every 2026-era request of both doors. */
  modern: ModernServer;
  /** The gateway's own server of one 2025-era session (or stdio connection) over the core. */
  legacyServerFor(identity: DownstreamIdentity): LegacyServer;
  /** Resolves when every upstream has connected or failed once and the local tools are loaded. */
  ready(timeoutMs?: number): Promise<void>;
  /** Moves the audit records of answered calls from this process's journal into the database. */
  flushAudit(): Promise<void>;
  /** Publishes the first tool list, connects the upstreams and watches the store. */
  start(): void;
  close(): Promise<void>;
}

/** Wires the app; call `start()` to connect upstreams and `close()` to stop everything it opened. */
export function buildCore(config: PortcullisConfig, deps: AppDeps): AppCore {
  const now = deps.now ?? Date.now;
  const masker = createMasker(config.secrets);
  const logger = createLogger({
    level: config.telemetry.logLevel,
    masker,
    ...(deps.writeLog ? { write: deps.writeLog } : {}),
  });
  const store = deps.store ?? openStore({ path: config.store.path });
  const telemetry = createTelemetry({ ...config.telemetry, masker, logger, ...deps.telemetry });
  const lists = createListChanges();

  // Supervisor and subscriptions call each other, and the supervisor's changes rebuild the registry built
  // below; the closures run only once `start()` has connected an upstream, when every one of them exists.
  const subscriptions = createResourceSubscriptions(
    {
      subscribe: (upstream, uri) => supervisor.subscribeResource(upstream, uri),
      unsubscribe: (upstream, uri) => supervisor.unsubscribeResource(upstream, uri),
    },
    (upstream, uri, error) =>
      logger.log('upstream.resubscribe_failed', { upstream, uri, error: messageOf(error) }),
  );
  const supervisor = createSupervisor({
    upstreams: config.upstreams,
    transport: { inheritedEnv: deps.inheritedEnv },
    onChange: (id, change) => {
      if (change === 'state') firstConnects.settle(id);
      if (change === 'state' || change === 'tools') refreshAfterFirstConnects();
      if (change === 'state' || change === 'prompts') lists.emit('prompts');
      if (change === 'state' || change === 'resources') lists.emit('resources');
      // Fingerprints the new surface now rather than when a client first lists it.
      if (change === 'prompts' || change === 'resources') withheldSurface();
    },
    onConnected: (id, at) => {
      store.upstreams.recordConnected(id, at);
      void subscriptions.renew(id);
    },
    onResourceUpdated: (id, uri) => subscriptions.updated(id, uri),
    onClientRequestDeclined: (id, reason, request) =>
      logger.log(`upstream.${request}_declined`, { upstream: id, reason }),
    log: (event, fields, level) => logger.log(event, fields, level),
    now,
    ...(deps.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: deps.connectTimeoutMs }),
  });

  const localTools = buildLocalTools(config, deps, logger);
  const ledger = createLedger(store.ledger, now);
  const catalog = deps.catalog ?? loadServerCatalog();
  // One compiled scanner for relayed sampling requests and call-time answers alike.
  const scanner = createPoisoningScanner();
  const governance = createGovernance({
    config,
    catalog,
    ledger,
    createScanner: (otherNames) => createPoisoningScanner({ otherNames }),
    snapshots: () => (config.exposure === 'builtin' ? [] : supervisor.snapshots()),
    lastUsedAt: (id) => store.upstreams.get(id)?.lastUsedAt ?? null,
    recordEvent: (event) => {
      store.events.append(event);
      reportGovernanceEvent(telemetry, event);
    },
    now,
    log: (event, fields, level) => logger.log(event, fields, level),
  });
  const validator = createArgumentValidator();
  const registry = createToolRegistry({
    config,
    snapshots: () => supervisor.snapshots(),
    ...(localTools.provider ? { local: localTools.provider } : {}),
    // First sight of 5,000 tools writes 5,000 ledger records and their events: one commit, not 5,000.
    govern: deps.govern ?? ((tools) => store.batch(() => governance.govern(tools))),
    inputSchemaProblem: (schema) => validator.schemaProblem(schema),
    log: (event, fields, level) => logger.log(event, fields, level),
  });
  // The withheld prompts, resources and instructions, as one string: an operator's approve or revoke changes it
  // without any upstream change, and clients must hear that their lists changed.
  let lastWithheld: string | undefined;
  function withheldSurface(): boolean {
    const withheld = governance
      .surfaces()
      .findings.filter((f) => f.withheld)
      .map((f) => `${f.kind}\u0000${f.upstream}\u0000${f.uri ?? f.name}`)
      .join('\n');
    const changed = lastWithheld !== undefined && withheld !== lastWithheld;
    lastWithheld = withheld;
    return changed;
  }
  registry.onChange(() => lists.emit('tools'));
  // Coalesced: a burst of changes rebuilds (and re-governs) the list once per turn of the event loop; a read in
  // between rebuilds first (the registry's invalidate()), so no reader ever sees a stale list.
  let refreshQueued = false;
  let closed = false;
  function rebuildSoon(): void {
    if (refreshQueued) return;
    refreshQueued = true;
    setImmediate(() => {
      refreshQueued = false;
      if (closed) return;
      registry.settle();
      if (withheldSurface()) {
        lists.emit('prompts');
        lists.emit('resources');
      }
    });
  }
  function refresh(): void {
    registry.invalidate();
    rebuildSoon();
  }
  // At start, fifty upstreams connect over a few seconds, each a turn of its own: every rebuild would govern the
  // growing list again (and scan it all again, since each new server changes the names the cross-server check
  // looks for), on the thread the other handshakes wait for. Until every upstream's first attempt has ended
  // (bounded), their changes only invalidate the list; the background rebuild and its list_changed follow once.
  const firstConnects = createFirstConnects({
    ids: config.upstreams.filter((u) => u.enabled).map((u) => u.id),
    waitMs: deps.firstConnectsWaitMs ?? FIRST_CONNECTS_WAIT_MS,
    stateOf: (id) => supervisor.snapshot(id)?.state,
    onSettled: rebuildSoon,
  });
  function refreshAfterFirstConnects(): void {
    registry.invalidate();
    if (firstConnects.settled()) rebuildSoon();
  }
  localTools.provider?.onChange(refresh);

  const rules = compileApprovalRules(config.approval.rules);
  const inbox = createApprovalInbox({
    ttlMs: config.approval.elicitationTimeoutMs,
    maxPending: config.approval.inbox.maxPending,
    maxPerPrincipal: config.approval.inbox.maxPerPrincipal,
    now,
  });
  const profiles = compileProfiles(config.profiles);
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
        { error: messageOf(error), action: 'the records stay in the journal; retrying' },
        'error',
      ),
  });
  // Results, prompt messages and resource texts are scanned with the same scanner (and its result cache).
  const response = createResponseStage({
    scan: (text) => scanner.scanText(text),
    policies: config.guards,
    log: (event, fields, level) => logger.log(event, fields, level),
    telemetry,
  });
  const pipeline = createCallPipeline({
    registry,
    supervisor,
    ...(localTools.provider ? { local: localTools.provider } : {}),
    validator,
    masker: () => masker,
    now,
    approval: createApprovalStage({
      rules,
      threshold: config.approval.autoApproveThreshold,
      now,
      promptTemplateOf: (tool) => tool.governance?.promptTemplate,
      channel: config.approval.channel,
      console: {
        inbox,
        modernHoldMs: config.approval.inbox.modernHoldMs,
        maskArgs: (args) => masker.maskDeep(args),
      },
    }),
    telemetry,
    response,
    transportOf: (id) => config.upstreams.find((u) => u.id === id)?.transport,
    record: createRecordStage({
      audit,
      events: store.events,
      upstreams: store.upstreams,
      telemetry,
      withheldUpstream: (alias) => registry.find(alias)?.upstream,
      now,
      logger,
    }),
  });

  const core: GatewayCore = {
    registry,
    subscriptions,
    pipeline,
    supervisor,
    surface: () => {
      // Prompts, resources and instructions the poisoning guard withheld are neither listed nor routed.
      const review = governance.surfaces();
      return withoutUris(
        buildUpstreamSurface(
          review.snapshots,
          (id) => config.upstreams.find((u) => u.id === id)?.promptOverrides,
        ),
        review.withheldUris,
      );
    },
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
    response,
    reviewSampling: createSamplingReviewer({
      scan: (text) => scanner.scanText(text),
      poisoning: config.poisoning,
      maskDeep: (value) => masker.maskDeep(value),
      logger,
    }),
    telemetry,
    recordSurface: async (input) => {
      try {
        await audit.write(input);
      } catch (error) {
        logger.log('audit.write_failed', { alias: input.alias, error: messageOf(error) }, 'error');
      }
    },
  };

  let stopWatching: (() => void) | undefined;
  return {
    config,
    store,
    supervisor,
    registry,
    profiles,
    governance,
    ledger,
    logger,
    telemetry,
    masker,
    auditLog,
    catalog,
    sandbox: localTools.sandbox,
    lookup: deps.lookup ?? (() => undefined),
    passRunner: localTools.passRunner,
    inbox,
    now,
    refresh,
    onListChanged: (listener) => lists.subscribe(listener),
    modern: createModernServer(core),
    legacyServerFor: (identity) => createLegacyServer(core, identity),
    ready: async (timeoutMs) => {
      await Promise.all([supervisor.settled(timeoutMs), localTools.ready]);
    },
    flushAudit: () => audit.flush(),
    start() {
      registry.rebuild();
      firstConnects.start();
      supervisor.start();
      // Operator changes made by another process (the ledger CLI) land in the database; pick them up.
      stopWatching = watchStore(store, refresh);
    },
    async close() {
      closed = true;
      firstConnects.close();
      stopWatching?.();
      core.parked.close();
      inbox.close();
      await supervisor.close();
      await localTools.close();
      await telemetry.shutdown();
      await audit.close();
      if (!deps.store) store.close();
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
