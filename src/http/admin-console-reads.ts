/**
 * Admin API reads the operator's console needs (docs/operations.md, "Admin API"): recent activity (`/overview`),
 * audit chain verification (`/audit/verify`), the audit as JSONL (`/audit/export`), and the extra tool facts the
 * tools page shows (description, annotations, risk axes, the text each poisoning finding points into).
 */
import type { Hono } from 'hono';
import type { AdminVariables } from './admin-guard.ts';
import { verifyAuditChain, type AuditLog, type AuditQuery } from '../audit/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { ExposedTool } from '../exposure/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { collectVisibleStrings } from '../poisoning/index.ts';
import type { McpToolDefinition } from '../risk/index.ts';
import type { Masker } from '../secrets/index.ts';
import type { Store } from '../store/index.ts';

/** The origins of tool-call rows (the overview's counts leave admin actions and prompt or resource reads out). */
const TOOL_CALL_ORIGINS: ReadonlySet<string> = new Set(['upstream', 'local', 'unresolved']);

/** The window the overview counts calls in. */
export const OVERVIEW_WINDOW_MINUTES = 5;
/** The overview stops counting after this many records and says so (`capped`). */
const OVERVIEW_MAX_RECORDS = 20_000;

const AUDIT_OUTCOMES = ['OK', 'ERROR', 'INPUT_REQUIRED'] as const;

/** The audit filter of a query string (shared by `/audit` and `/audit/export`); throws on a bad limit. */
export function auditFilterOf(q: Record<string, string>): AuditQuery {
  const filter: AuditQuery = {};
  for (const key of ['since', 'until', 'alias', 'principal', 'profile', 'cursor'] as const) {
    if (q[key] !== undefined) filter[key] = q[key];
  }
  // A value outside its list is refused: ignoring it would answer every row to a filter that asked for some.
  const oneOf = <T extends string>(key: string, allowed: readonly T[]): T | undefined => {
    const value = q[key];
    if (value === undefined) return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    throw new PortcullisError('INVALID_INPUT', `"${key}" must be one of ${allowed.join(', ')}`);
  };
  const outcome = oneOf('outcome', AUDIT_OUTCOMES);
  if (outcome) filter.outcome = outcome;
  const decision = oneOf('decision', ['allow', 'deny', 'ask'] as const);
  if (decision) filter.decision = decision;
  const order = oneOf('order', ['asc', 'desc'] as const);
  if (order) filter.order = order;
  if (q.limit !== undefined) {
    if (!/^[0-9]{1,6}$/.test(q.limit))
      throw new PortcullisError('INVALID_INPUT', '"limit" must be a whole number from 1 to 1000');
    filter.limit = Number(q.limit);
  }
  return filter;
}

/** Tool calls, denials and errors since `sinceMs`, read page by page (admin actions are not calls). */
function countActivity(audit: AuditLog, sinceMs: number) {
  let calls = 0;
  let denials = 0;
  let errors = 0;
  let cursor: string | undefined;
  let seen = 0;
  do {
    const page = audit.query({
      since: new Date(sinceMs).toISOString(),
      limit: 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const { record } of page.entries) {
      seen += 1;
      // A relayed upstream round is a row of a call still under way: the call counts once, when it ends. Admin
      // actions and prompt or resource reads are not tool calls.
      if (!TOOL_CALL_ORIGINS.has(record.origin) || record.outcome === 'INPUT_REQUIRED') continue;
      calls += 1;
      if (record.approval.decision === 'deny') denials += 1;
      if (record.outcome === 'ERROR') errors += 1;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && seen < OVERVIEW_MAX_RECORDS);
  return { calls, denials, errors, capped: cursor !== undefined };
}

/** Adds the console's reads to the admin routes (viewer role is enough for every one). */
export function addConsoleReads(
  api: Hono<{ Variables: AdminVariables }>,
  deps: { audit: AuditLog; store: Store; ledger: Ledger; now(): number; flushAudit(): Promise<void> },
): void {
  api.get('/overview', async (c) => {
    await deps.flushAudit();
    const windowMs = OVERVIEW_WINDOW_MINUTES * 60_000;
    const activity = countActivity(deps.audit, deps.now() - windowMs);
    const records = deps.ledger.list();
    return c.json({
      windowMinutes: OVERVIEW_WINDOW_MINUTES,
      ...activity,
      callsPerSecond: Math.round((activity.calls / (windowMs / 1000)) * 100) / 100,
      pendingReviews: records.filter((r) => r.status === 'AWAITING_REREVIEW').length,
      revokedTools: records.filter((r) => r.status === 'REVOKED').length,
    });
  });

  api.get('/audit/verify', async (c) => {
    await deps.flushAudit();
    return c.json(verifyAuditChain(deps.store));
  });

  api.get('/audit/export', async (c) => {
    const { order: _order, limit: _limit, cursor: _cursor, ...filter } = auditFilterOf(c.req.query());
    await deps.flushAudit();
    const lines: string[] = [];
    deps.audit.exportJsonl(filter, (line) => lines.push(line));
    return c.body(lines.join(''), 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': 'attachment; filename="portcullis-audit.jsonl"',
    });
  });
}

/** The tool facts the console shows beyond the list's: text, annotations, axes, and each finding's field text. */
export function consoleToolFields(tool: ExposedTool, masker: Masker) {
  const risk = tool.governance?.risk;
  const fields = new Map(
    collectVisibleStrings(tool.source as McpToolDefinition).map((s) => [s.fieldPath, s.text]),
  );
  const poisoning = tool.governance?.poisoning;
  return {
    title: tool.source.title ?? null,
    description: tool.definition.description === undefined ? null : masker.mask(tool.definition.description),
    annotations: tool.source.annotations ?? null,
    axes: {
      server: risk?.server?.axisScores ?? null,
      publish: risk?.publish?.axisScores ?? null,
    },
    poisoning:
      poisoning === undefined
        ? null
        : {
            clean: poisoning.clean,
            matches: poisoning.matches.map((m) => {
              const text = fields.get(m.fieldPath);
              // A field that holds a secret is not shown: masking would also move the finding's offsets.
              const fieldText = text !== undefined && masker.mask(text) === text ? text : null;
              return { ...m, matchedText: masker.mask(m.matchedText), fieldText };
            }),
          },
  };
}
