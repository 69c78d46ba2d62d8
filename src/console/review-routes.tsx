/**
 * The console's review routes: the ledger review pages and the approval inbox, with their forms, and the inbox's
 * event stream passed through from the admin API for the console script. Writes reach these handlers only after
 * console-app.tsx checked the session, the origin and the CSRF token; the admin API checks the role and audits.
 */
import type { Context, Hono } from 'hono';
import type { AdminAnswer, AdminClient } from './admin-client.ts';
import type { ApprovalView, LedgerDiffView, LedgerRecordView, LedgerReviewView } from './admin-types.ts';
import type { ConsoleUser } from './door.ts';
import { ApprovalPage, ApprovalsPage } from './pages/approvals.tsx';
import type { Viewer } from './pages/layout.tsx';
import { keyHref, LedgerListPage, LedgerReviewPage } from './pages/ledger.tsx';

type Env = { Variables: { user: ConsoleUser } };
type Status = 200 | 400 | 401 | 403 | 404 | 500;

/** What the review routes borrow from the console app. */
export interface ReviewKit {
  page(c: Context, body: unknown, status?: Status): Response | Promise<Response>;
  refused(
    c: Context,
    status: 400 | 403 | 404 | 500,
    message: string,
    signedIn: boolean,
  ): Response | Promise<Response>;
  /** An admin read, or the response to send when it was refused. */
  read<T>(c: Context<Env>, path: string): Promise<T | Response>;
  client(c: Context<Env>): AdminClient;
  viewerOf(user: ConsoleUser): Viewer;
  now(): number;
}

const LEDGER_ACTIONS = new Set(['approve', 'revoke', 'restore']);
const ANSWERS = new Set(['approve', 'decline']);
const field = (form: Record<string, unknown>, name: string) => {
  const value = form[name];
  return typeof value === 'string' ? value : '';
};

/** The admin API's refusal as a console status and message. */
function refusalOf(answer: AdminAnswer<unknown>): { status: 400 | 403 | 404 | 500; message: string } {
  const status =
    answer.status === 400 || answer.status === 403 || answer.status === 404 ? answer.status : 500;
  return { status, message: answer.error?.message ?? `the admin API answered ${answer.status}` };
}

/** Adds the ledger review and approval inbox routes. */
export function addReviewRoutes(app: Hono<Env>, kit: ReviewKit): void {
  app.get('/ledger', async (c) => {
    const list = await kit.read<{ records: LedgerRecordView[] }>(c, '/ledger');
    if (list instanceof Response) return list;
    const all = c.req.query('all') !== undefined;
    return kit.page(
      c,
      <LedgerListPage viewer={kit.viewerOf(c.get('user'))} records={list.records} all={all} />,
    );
  });

  const reviewPage = async (c: Context<Env>, key: string, extra: { notice?: string; error?: string }) => {
    const path = `/ledger/${encodeURIComponent(key)}`;
    const [review, diff] = await Promise.all([
      kit.read<LedgerReviewView>(c, path),
      kit.read<LedgerDiffView>(c, `${path}/diff`),
    ]);
    if (review instanceof Response) return review;
    if (diff instanceof Response) return diff;
    return kit.page(
      c,
      <LedgerReviewPage
        viewer={kit.viewerOf(c.get('user'))}
        review={review}
        descriptionDiff={diff.diff?.descriptionDiff ?? null}
        {...extra}
      />,
      extra.error === undefined ? 200 : 400,
    );
  };

  app.get('/ledger/:key', async (c) => {
    const done = c.req.query('done');
    const notice = done !== undefined && LEDGER_ACTIONS.has(done) ? `Done: ${done}` : undefined;
    return reviewPage(c, c.req.param('key'), notice === undefined ? {} : { notice });
  });

  app.post('/ledger/:key/act', async (c) => {
    const key = c.req.param('key');
    const form = await c.req.parseBody();
    const action = field(form, 'action');
    if (!LEDGER_ACTIONS.has(action)) return kit.refused(c, 404, `no ledger action "${action}"`, true);
    const hash = field(form, 'hash');
    const answer = await kit.client(c).post(`/ledger/${encodeURIComponent(key)}/${action}`, {
      reason: field(form, 'reason').trim(),
      ...(action === 'approve' && hash !== '' ? { hash } : {}),
    });
    if (!answer.ok) {
      const refusal = refusalOf(answer);
      if (refusal.status === 400) return reviewPage(c, key, { error: refusal.message });
      return kit.refused(c, refusal.status, refusal.message, true);
    }
    return c.redirect(`${keyHref(key)}?done=${action}`, 303);
  });

  app.get('/approvals', async (c) => {
    const answer = await kit.client(c).get<{ approvals: ApprovalView[] }>('/approvals');
    const viewer = kit.viewerOf(c.get('user'));
    const done = c.req.query('done');
    const notice = done === 'approve' || done === 'decline' ? { notice: `Done: ${done}d` } : {};
    // The admin API has no inbox route when no approval channel sends calls to the console.
    if (answer.status === 404)
      return kit.page(c, <ApprovalsPage viewer={viewer} entries={[]} enabled={false} now={kit.now()} />);
    if (!answer.ok) {
      const refusal = refusalOf(answer);
      return kit.refused(c, refusal.status, refusal.message, true);
    }
    return kit.page(
      c,
      <ApprovalsPage
        viewer={viewer}
        entries={answer.body.approvals}
        enabled={true}
        now={kit.now()}
        {...notice}
      />,
    );
  });

  app.get('/approvals/stream', async (c) => {
    const upstream = await kit.client(c).raw('/approvals/stream');
    if (!upstream.ok || upstream.body === null)
      return kit.refused(c, 404, 'the inbox stream is not open', true);
    return new Response(upstream.body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
    });
  });

  app.get('/approvals/:id', async (c) => {
    const answer = await kit.read<{ approval: ApprovalView }>(
      c,
      `/approvals/${encodeURIComponent(c.req.param('id'))}`,
    );
    if (answer instanceof Response) return answer;
    return kit.page(
      c,
      <ApprovalPage viewer={kit.viewerOf(c.get('user'))} entry={answer.approval} now={kit.now()} />,
    );
  });

  app.post('/approvals/:id/answer', async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const action = field(form, 'action');
    if (!ANSWERS.has(action)) return kit.refused(c, 404, `no approval answer "${action}"`, true);
    const answer = await kit
      .client(c)
      .post(`/approvals/${encodeURIComponent(id)}/${action}`, { reason: field(form, 'reason').trim() });
    if (!answer.ok) {
      const refusal = refusalOf(answer);
      const message =
        refusal.status === 404
          ? `This call no longer waits (it expired, its client went away, or it was answered): ${refusal.message}`
          : refusal.message;
      return kit.refused(c, refusal.status, message, true);
    }
    return c.redirect(`/console/approvals?done=${action}`, 303);
  });
}
