/**
 * The admin API's approval inbox (docs/operations.md, "Approval inbox"): the calls waiting for an operator
 * (masked arguments, tool, risk, principal), a server-sent event stream of its changes, and approve / decline
 * with a reason (operator role, audited with the actor). The waiting call then runs or is denied with the reason.
 */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { auditedAction, type AdminVariables } from './admin-guard.ts';
import type { ApprovalInbox, InboxEntry, InboxEvent } from '../approval/index.ts';
import type { AuditLog } from '../audit/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { Masker } from '../secrets/index.ts';

/** What the approval routes read and act on. */
export interface ApprovalInboxDeps {
  inbox: ApprovalInbox;
  audit: AuditLog;
  masker: Masker;
  now(): number;
}

/** How often the stream sends a comment line, so proxies and browsers keep an idle connection open. */
const KEEPALIVE_MS = 15_000;

/**
 * The most inbox changes one stream holds for a reader that does not keep up; beyond it the stream ends, and the
 * browser's EventSource reconnects to a fresh snapshot.
 */
export const MAX_QUEUED_STREAM_EVENTS = 256;

/** Adds the approval inbox routes to the admin API (behind its guard). */
export function addApprovalRoutes(api: Hono<{ Variables: AdminVariables }>, deps: ApprovalInboxDeps): void {
  // The arguments were masked when the call entered the inbox; the prompt quotes them, so it is masked here too.
  const shown = (entry: InboxEntry): InboxEntry => deps.masker.maskDeep(entry);

  api.get('/approvals', (c) => c.json({ approvals: deps.inbox.list().map(shown) }));

  api.get('/approvals/stream', (c) =>
    streamSSE(c, async (stream) => {
      const queue: InboxEvent[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const unsubscribe = deps.inbox.subscribe((event) => {
        if (queue.length >= MAX_QUEUED_STREAM_EVENTS) open = false;
        else queue.push(event);
        wake?.();
      });
      stream.onAbort(() => {
        open = false;
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'snapshot', data: JSON.stringify(deps.inbox.list().map(shown)) });
        while (open) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE({
              event: event.type,
              id: event.entry.id,
              data: JSON.stringify(shown(event.entry)),
            });
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            const timer = setTimeout(resolve, KEEPALIVE_MS);
            timer.unref();
          });
          wake = undefined;
          if (open && queue.length === 0) await stream.write(': keepalive\n\n');
        }
      } finally {
        unsubscribe();
      }
    }),
  );

  api.get('/approvals/:id', (c) => {
    const entry = deps.inbox.get(c.req.param('id'));
    if (!entry) throw new PortcullisError('NOT_FOUND', 'no call with this id waits in the approval inbox');
    return c.json({ approval: shown(entry) });
  });

  const decide = (verdict: 'approve' | 'decline') =>
    auditedAction(deps, {
      action: `approval.${verdict}`,
      role: 'operator',
      targetOf: (_input, c) => c.req.param('id') ?? null,
      run: (input, c) => {
        if (typeof input.reason !== 'string' || input.reason.trim() === '') {
          throw new PortcullisError('INVALID_INPUT', '"reason" must say why (a non-empty string)');
        }
        const result = deps.inbox.decide(c.req.param('id') ?? '', verdict, {
          actor: c.get('admin').actor,
          reason: input.reason,
        });
        if (!result.ok) {
          throw result.reason === 'not-found'
            ? new PortcullisError(
                'NOT_FOUND',
                'no call with this id waits in the approval inbox (expired or withdrawn?)',
              )
            : new PortcullisError('INVALID_INPUT', 'this call was already answered');
        }
        return { approval: shown(result.entry) };
      },
    });
  api.post('/approvals/:id/approve', decide('approve'));
  api.post('/approvals/:id/decline', decide('decline'));
}
