/**
 * The admin API's ledger review (docs/operations.md, "Ledger review"): one record — a tool, prompt, resource,
 * resource template or server instructions — with its current and approved definitions and the findings on it,
 * the structured diff between the two, and approve / revoke / restore of the record by key with a reason
 * (operator role, audited with the actor).
 */
import type { Hono } from 'hono';
import { auditedAction, type AdminContext, type AdminVariables } from './admin-guard.ts';
import type { AuditLog } from '../audit/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { ToolRegistry } from '../exposure/index.ts';
import type { Governance } from '../guards/index.ts';
import {
  applyLedgerAction,
  ledgerKey,
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
  governance: Pick<Governance, 'surfaces'>;
  audit: AuditLog;
  masker: Masker;
  now(): number;
  /** Rebuilds the registry and advertises a change (after an action). */
  refresh(): void;
}

function keyOf(c: AdminContext): NonNullable<ReturnType<typeof parseLedgerKey>> {
  const key = parseLedgerKey(c.req.param('key') ?? '');
  if (!key)
    throw new PortcullisError(
      'INVALID_INPUT',
      'a ledger key is "<upstream>::<tool>" or "<kind>:<upstream>::<name>" (kind prompt, resource, ' +
        'resource-template or server-instructions), URL-encoded',
    );
  return key;
}

function reviewOf(deps: LedgerReviewDeps, c: AdminContext): LedgerReview {
  const { upstream, tool, kind } = keyOf(c);
  const record = deps.ledger.get(upstream, tool, kind);
  if (!record)
    throw new PortcullisError(
      'NOT_FOUND',
      `no fingerprint is recorded for ${ledgerKey(upstream, tool, kind)}`,
    );
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
      .filter(
        (tool) =>
          record.kind === 'tool' && tool.upstream === record.upstream && tool.upstreamTool === record.tool,
      );
    // A flagged prompt, resource or instructions: what the guards said about the item as it is now.
    const surfaces = deps.governance
      .surfaces()
      .findings.filter(
        (f) =>
          f.kind === record.kind &&
          f.upstream === record.upstream &&
          (f.kind === 'server-instructions' || (f.uri ?? f.name) === record.tool),
      );
    return c.json({
      record,
      tools: tools.map((tool) => ({
        alias: tool.alias,
        exposed: tool.exposed,
        withheldReason: tool.withheldReason ?? null,
        poisoning: tool.governance?.poisoning ?? null,
        findings: tool.governance?.findings ?? [],
      })),
      surfaces: deps.masker.maskDeep(
        surfaces.map((f) => ({
          kind: f.kind,
          name: f.name,
          uri: f.uri ?? null,
          withheld: f.withheld,
          score: f.score ?? null,
          matches: f.matches,
          findings: f.findings,
        })),
      ),
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
        const { upstream, tool, kind } = keyOf(c);
        const result = applyLedgerAction(deps.ledger, name, { ...input, upstream, tool, kind });
        deps.refresh();
        return { outcome: result.outcome, record: deps.masker.maskDeep(reviewLedgerRecord(result.record)) };
      },
    });
  api.post('/ledger/:key/approve', action('approve'));
  api.post('/ledger/:key/revoke', action('revoke'));
  api.post('/ledger/:key/restore', action('restore'));
}
