/**
 * The admin API (JSON under /admin/api, behind its own keys and roles: admin-guard.ts): servers and tools with their
 * risk, poisoning and fingerprint facts; flagged prompts, resources and server instructions; ledger approve/revoke/restore; sandbox quarantine; events; live risk
 * previews; the scanner; audit.
 */
import { Hono, type Context } from 'hono';
import type { AdminAccess } from './admin-access.ts';
import { adminGuard, auditedAction, type AdminVariables } from './admin-guard.ts';
import { addConsoleReads, auditFilterOf, consoleToolFields } from './admin-console-reads.ts';
import { createSignInLimiter, SIGN_IN_LIMIT_DEFAULTS } from '../console/index.ts';
import { addLedgerReviewRoutes } from './admin-ledger-review.ts';
import { addApprovalRoutes } from './admin-approvals.ts';
import { addSpecRoutes } from './admin-specs.ts';
import type { ApprovalInbox } from '../approval/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { PortcullisConfig, UpstreamConfig } from '../config/index.ts';
import { isPortcullisError, PortcullisError } from '../errors/index.ts';
import { serverContextOf, type Governance } from '../guards/index.ts';
import { type ToolRegistry } from '../exposure/index.ts';
import { applyLedgerAction, type Ledger } from '../ledger/index.ts';
import {
  assessServer,
  evaluateToolRisk,
  findToolDescriptor,
  matchCatalogEntry,
  type CatalogEntry,
  type McpToolDefinition,
} from '../risk/index.ts';
import { createPoisoningScanner } from '../poisoning/index.ts';
import type { EnvLookup, Masker } from '../secrets/index.ts';
import type { QuarantineEntry, ToolRunner } from '../sandbox/index.ts';
import { EVENT_TYPES, type EventType, type Store } from '../store/index.ts';
import type { Supervisor } from '../upstream/index.ts';

/** What the admin API reads and acts on. */
export interface AdminDeps {
  config: PortcullisConfig;
  store: Store;
  supervisor: Supervisor;
  registry: ToolRegistry;
  governance: Governance;
  ledger: Ledger;
  audit: AuditLog;
  /** Moves records still in this process's journal into the database, so that reads see every answered call. */
  flushAudit(): Promise<void>;
  catalog: readonly CatalogEntry[];
  masker: Masker;
  now(): number;
  /** Rebuilds the registry and advertises a change (after approve/revoke). */
  refresh(): void;
  /** Who may use the admin API. */
  access: AdminAccess;
  /** Structured log sink (masked by the logger). */
  log?(event: string, fields: Record<string, unknown>, level: 'warn'): void;
  /** The sandbox's quarantine of local tools (absent when the runner has none). */
  sandbox?: { quarantined(): QuarantineEntry[]; unquarantine(toolId: string): boolean };
  /** The approval inbox of the `console` channel. */
  inbox?: ApprovalInbox;
  /** The env lookup the live local tools resolve static variables with (the studio's Local Pass uses it). */
  lookup: EnvLookup;
  /** A fresh sandbox runner built as the live one (same workspace), for one Local Pass; closed after it. */
  passRunner(): ToolRunner;
}

const bad = (message: string) => new PortcullisError('INVALID_INPUT', message);

async function body(c: Context): Promise<Record<string, unknown>> {
  try {
    const value: unknown = await c.req.json();
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw bad('the body must be a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    if (isPortcullisError(error)) throw error;
    throw new PortcullisError('PARSE_ERROR', 'the body is not valid JSON');
  }
}

const str = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.trim() === '') throw bad(`"${name}" must be a non-empty string`);
  return value;
};

/** A list of strings from client JSON; anything else is refused (never stringified: nesting is unbounded). */
function stringList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw bad(`"${name}" must be a list of strings`);
  return value;
}

/** A string-to-string map from client JSON; anything else is refused. */
function stringMap(value: unknown, name: string): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw bad(`"${name}" must be an object of strings`);
  const entries = Object.entries(value);
  if (!entries.every(([, item]) => typeof item === 'string'))
    throw bad(`"${name}" must be an object of strings`);
  return Object.fromEntries(entries) as Record<string, string>;
}

/** The registration a risk preview scores, as an upstream config (validated loosely: it is never saved). */
function previewUpstream(input: Record<string, unknown>): UpstreamConfig {
  const transport = input.transport;
  if (transport !== 'stdio' && transport !== 'http' && transport !== 'sse') {
    throw bad('"transport" must be one of stdio, http, sse');
  }
  const common = {
    id: typeof input.id === 'string' ? input.id : 'preview',
    enabled: true,
    protocol: 'auto' as const,
    callTimeoutMs: 60_000,
    sampling: false,
    ...(typeof input.catalog === 'string' ? { catalog: input.catalog } : {}),
  };
  if (transport === 'stdio') {
    return {
      ...common,
      transport,
      command: str(input.command, 'command'),
      args: stringList(input.args, 'args'),
      env: {},
    };
  }
  return { ...common, transport, url: str(input.url, 'url'), headers: stringMap(input.headers, 'headers') };
}

const TOOL_TEXT_FIELDS = ['name', 'title', 'description'] as const;

/** The tool definition a risk preview scores: text fields must be strings, schemas objects (never trusted as typed). */
function previewTool(value: unknown): McpToolDefinition {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw bad('"tool" must be a tool definition object');
  const tool = value as Record<string, unknown>;
  if (typeof tool.name !== 'string' || tool.name === '') throw bad('"tool.name" must be a non-empty string');
  for (const field of TOOL_TEXT_FIELDS) {
    if (tool[field] !== undefined && typeof tool[field] !== 'string')
      throw bad(`"tool.${field}" must be a string`);
  }
  for (const field of ['inputSchema', 'outputSchema', 'annotations'] as const) {
    const part = tool[field];
    if (part !== undefined && (part === null || typeof part !== 'object' || Array.isArray(part)))
      throw bad(`"tool.${field}" must be an object`);
  }
  return tool as unknown as McpToolDefinition;
}

/** Builds the admin routes (mounted under /admin/api by the app). */
export function createAdminApi(deps: AdminDeps): Hono<{ Variables: AdminVariables }> {
  const api = new Hono<{ Variables: AdminVariables }>();
  const limit = { ...SIGN_IN_LIMIT_DEFAULTS, now: deps.now };
  api.use(
    '*',
    adminGuard(deps.access, {
      limiter: createSignInLimiter(limit),
      onLimited: (client) =>
        deps.log?.(
          'admin.credentials_limited',
          {
            client,
            failures: limit.maxFailures,
            windowSeconds: Math.round(limit.windowMs / 1000),
            action: 'admin requests with credentials from this client are refused until the window ends',
          },
          'warn',
        ),
    }),
  );
  const catalogEntry = (upstream: UpstreamConfig): CatalogEntry | null => {
    const match = matchCatalogEntry(deps.catalog, {
      catalogId: upstream.catalog,
      transport:
        upstream.transport === 'stdio' ? 'stdio' : upstream.transport === 'sse' ? 'sse' : 'streamable-http',
      ...(upstream.transport === 'stdio'
        ? { command: upstream.command, args: upstream.args }
        : { url: upstream.url }),
    });
    return match.matched ? match.entry : null;
  };

  api.onError((error, c) => {
    if (isPortcullisError(error)) {
      const status = error.code === 'NOT_FOUND' ? 404 : error.code === 'FORBIDDEN' ? 403 : 400;
      return c.json({ error: { code: error.code, message: deps.masker.mask(error.message) } }, status);
    }
    deps.log?.(
      'http.internal_error',
      {
        method: c.req.method,
        path: c.req.path.slice(0, 200),
        message: (error as Error).message?.split('\n', 1)[0],
      },
      'warn',
    );
    return c.json({ error: { code: 'INTERNAL', message: 'unexpected error; see the gateway log' } }, 500);
  });

  api.get('/servers', (c) => {
    const assessments = deps.governance.servers();
    const tools = deps.registry.all();
    return c.json({
      servers: deps.supervisor.snapshots().map((snapshot) => {
        const assessment = assessments.get(snapshot.id);
        return {
          id: snapshot.id,
          transport: snapshot.transport,
          state: snapshot.state,
          era: snapshot.era ?? null,
          protocolVersion: snapshot.protocolVersion ?? null,
          lastError: snapshot.lastError === undefined ? null : deps.masker.mask(snapshot.lastError),
          lastStderr: (snapshot.lastStderr ?? []).map((line) => deps.masker.mask(line)),
          rejectedTools: (snapshot.rejectedTools ?? []).map((r) => ({
            name: deps.masker.mask(r.name),
            reason: deps.masker.mask(r.reason),
          })),
          hostClass: assessment?.risk.hostClass ?? null,
          catalog: assessment?.catalogId ?? null,
          toolCount: snapshot.tools.length,
          exposedToolCount: tools.filter((t) => t.upstream === snapshot.id && t.exposed).length,
          risk: assessment
            ? {
                level: assessment.risk.level,
                totalScore: assessment.risk.totalScore,
                axisScores: assessment.risk.axisScores,
                floorTrigger: assessment.risk.floorTrigger,
              }
            : null,
        };
      }),
    });
  });

  api.get('/tools', (c) =>
    c.json({
      tools: deps.registry.all().map((tool) => {
        const risk = tool.governance?.risk;
        return {
          alias: tool.alias,
          origin: tool.origin,
          upstream: tool.upstream ?? null,
          upstreamTool: tool.upstreamTool ?? null,
          localToolId: tool.localToolId ?? null,
          localSource: tool.localSource ?? null,
          composition: tool.composition ?? null,
          exposed: tool.exposed,
          withheldReason: tool.withheldReason ?? null,
          withheldDetail: tool.withheldDetail ?? null,
          risk: {
            server: risk?.server?.level ?? null,
            publish: risk?.publish?.level ?? null,
            final: risk?.final ?? null,
            effective: risk?.effective ?? null,
            floorTrigger: risk?.floorTrigger ?? null,
            hitlMitigated: risk?.hitlMitigated ?? false,
          },
          fingerprint: tool.governance?.fingerprint ?? null,
          compositionRefusal: tool.governance?.compositionRefusal ?? null,
          findings: tool.governance?.findings ?? [],
          hitl: tool.hitl,
          ...consoleToolFields(tool, deps.masker),
        };
      }),
    }),
  );

  /** Flagged prompts, resources, resource templates and server instructions, withheld or not. */
  // Flagged upstream text leaves through here like any other egress: configured secrets masked.
  api.get('/surfaces', (c) =>
    c.json({ surfaces: deps.masker.maskDeep(deps.governance.surfaces().findings) }),
  );

  /** Approve, revoke or restore one ledger record (operator role, audited). */
  const ledgerAction = (action: 'approve' | 'revoke' | 'restore') =>
    auditedAction(deps, {
      action: `ledger.${action}`,
      role: 'operator',
      targetOf: (input) =>
        typeof input.upstream === 'string' && typeof input.tool === 'string'
          ? typeof input.kind === 'string' && input.kind !== 'tool'
            ? `${input.kind}:${input.upstream}::${input.tool}`
            : `${input.upstream}::${input.tool}`
          : null,
      run: (input) => {
        const result = applyLedgerAction(deps.ledger, action, input);
        deps.refresh();
        return result;
      },
    });
  api.post('/ledger/approve', ledgerAction('approve'));
  api.post('/ledger/revoke', ledgerAction('revoke'));
  api.post('/ledger/restore', ledgerAction('restore'));
  // The list carries digests only; a record's definitions are read one at a time (admin-ledger-review.ts).
  api.get('/ledger', (c) =>
    c.json({
      records: deps.ledger.list().map(({ definition: _d, approvedDefinition: _a, ...record }) => record),
    }),
  );
  addLedgerReviewRoutes(api, deps);
  if (deps.inbox) addApprovalRoutes(api, { ...deps, inbox: deps.inbox });

  api.get('/sandbox/quarantine', (c) => c.json({ tools: deps.sandbox?.quarantined() ?? [] }));
  api.post(
    '/tools/:toolId/unquarantine',
    auditedAction(deps, {
      action: 'sandbox.unquarantine',
      role: 'operator',
      targetOf: (_input, c) => c.req.param('toolId') ?? null,
      run: (_input, c) => {
        const toolId = c.req.param('toolId') ?? '';
        if (deps.sandbox?.unquarantine(toolId) !== true) {
          throw new PortcullisError('NOT_FOUND', `no local tool with id ${toolId} is quarantined`);
        }
        return { toolId, quarantined: false };
      },
    }),
  );

  api.get('/events', (c) => {
    const type = c.req.query('type');
    if (type !== undefined && !(EVENT_TYPES as readonly string[]).includes(type)) {
      throw bad(`unknown event type "${type}"; one of ${EVENT_TYPES.join(', ')}`);
    }
    const limit = Number(c.req.query('limit') ?? 100);
    const subject = c.req.query('subject');
    return c.json({
      events: deps.store.events.query({
        ...(type === undefined ? {} : { type: type as EventType }),
        ...(subject === undefined ? {} : { subject }),
        limit: Number.isFinite(limit) ? Math.min(1000, Math.max(1, limit)) : 100,
      }),
    });
  });

  api.post('/risk/server', async (c) => {
    const upstream = previewUpstream(await body(c));
    const entry = catalogEntry(upstream);
    const assessment = assessServer(serverContextOf(upstream, null), entry, deps.now());
    return c.json({
      catalog: assessment.catalogId,
      trustedServer: assessment.trustedServer,
      risk: assessment.risk,
    });
  });

  api.post('/risk/tool', async (c) => {
    const input = await body(c);
    const tool = previewTool(input.tool);
    const serverInput = (input.server ?? { transport: 'stdio', command: 'unknown' }) as Record<
      string,
      unknown
    >;
    const upstream = previewUpstream(serverInput);
    const entry = catalogEntry(upstream);
    const server = assessServer(serverContextOf(upstream, null), entry, deps.now());
    const scan = createPoisoningScanner().scanTool(tool);
    const hitl = input.hitl === true || input.hitl === 'REQUIRED' || input.hitl === 'AUTO_APPROVE';
    const risk = evaluateToolRisk({
      server,
      tool,
      descriptor: findToolDescriptor(entry, tool.name),
      hitl,
      scan,
    });
    return c.json({ risk, poisoning: scan });
  });

  api.post('/scan', async (c) => {
    const input = await body(c);
    if (typeof input.text !== 'string') throw bad('"text" must be a string');
    const otherNames = input.otherNames ?? [];
    if (!Array.isArray(otherNames) || !otherNames.every((name) => typeof name === 'string'))
      throw bad('"otherNames" must be an array of strings');
    return c.json(createPoisoningScanner({ otherNames }).scanText(input.text));
  });

  api.get('/audit', async (c) => {
    const filter = auditFilterOf(c.req.query());
    await deps.flushAudit();
    return c.json(deps.audit.query(filter));
  });
  addConsoleReads(api, deps);
  addSpecRoutes(api, deps);

  api.all('*', () => {
    throw new PortcullisError('NOT_FOUND', 'no such admin endpoint; see docs/operations.md');
  });
  return api;
}
