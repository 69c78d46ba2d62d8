/**
 * The admin API's ledger review (docs/operations.md, "Ledger review"): one record with its current and approved
 * definitions and the findings on the tool, the structured diff between the two, and approve / revoke / restore
 * of the record by key with a reason (operator role, audited with the actor).
 */
import type { Hono } from 'hono';
import { auditedAction, type AdminContext, type AdminVariables } from './admin-guard.ts';
import type { AuditLog } from '../audit/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { ToolRegistry } from '../exposure/index.ts';
import {
  applyLedgerAction,
  parseLedgerKey,
  reviewDiff,
  reviewLedgerRecord,
  type Ledger,
  type LedgerAction,
  type LedgerReview,
} from '../ledger/index.ts';
import type { Masker } from '../secrets/index.ts';

/** What the ledger review routes read and act on. */
export interface LedgerReviewDeps {
  ledger: Ledger;
  registry: ToolRegistry;
  audit: AuditLog;
  masker: Masker;
  now(): number;
  /** Rebuilds the registry and advertises a change (after an action). */
  refresh(): void;
}

function keyOf(c: AdminContext): { upstream: string; tool: string } {
  const key = parseLedgerKey(c.req.param('key') ?? '');
  if (!key) throw new PortcullisError('INVALID_INPUT', 'a ledger key is "<upstream>::<tool>", URL-encoded');
  return key;
}

function reviewOf(deps: LedgerReviewDeps, c: AdminContext): LedgerReview {
  const { upstream, tool } = keyOf(c);
  const record = deps.ledger.get(upstream, tool);
  if (!record) throw new PortcullisError('NOT_FOUND', `no fingerprint is recorded for ${upstream}::${tool}`);
  // Definitions are what the upstream sent: a secret an upstream echoes is masked like at every other egress.
  return deps.masker.maskDeep(reviewLedgerRecord(record));
}

/** Adds the ledger review routes to the admin API (behind its guard). */
export function addLedgerReviewRoutes(
  api: Hono<{ Variables: AdminVariables }>,
  deps: LedgerReviewDeps,
): void {
  api.get('/ledger/:key', (c) => {
    const record = reviewOf(deps, c);
    const tools = deps.registry
      .all()
      .filter((tool) => tool.upstream === record.upstream && tool.upstreamTool === record.tool);
    return c.json({
      record,
      tools: tools.map((tool) => ({
        alias: tool.alias,
        exposed: tool.exposed,
        withheldReason: tool.withheldReason ?? null,
        poisoning: tool.governance?.poisoning ?? null,
        findings: tool.governance?.findings ?? [],
      })),
    });
  });

  api.get('/ledger/:key/diff', (c) => {
    const record = reviewOf(deps, c);
    const diff = reviewDiff(record);
    return c.json({
      key: record.key,
      status: record.status,
      changed: record.changed,
      approved: record.approved,
      current: record.current,
      diff: diff ?? null,
    });
  });

  const action = (name: LedgerAction) =>
    auditedAction(deps, {
      action: `ledger.${name}`,
      role: 'operator',
      targetOf: (_input, c) => c.req.param('key') ?? null,
      run: (input, c) => {
        if (typeof input.reason !== 'string' || input.reason.trim() === '') {
          throw new PortcullisError('INVALID_INPUT', '"reason" must say why (a non-empty string)');
        }
        const { upstream, tool } = keyOf(c);
        const result = applyLedgerAction(deps.ledger, name, { ...input, upstream, tool });
        deps.refresh();
        return { outcome: result.outcome, record: deps.masker.maskDeep(reviewLedgerRecord(result.record)) };
      },
    });
  api.post('/ledger/:key/approve', action('approve'));
  api.post('/ledger/:key/revoke', action('revoke'));
  api.post('/ledger/:key/restore', action('restore'));
}
