/**
 * The approval inbox: calls waiting for an operator's yes on the console channel, each with its tool, risk,
 * principal, masked arguments, age and time left, and (for operators) approve / decline with a required reason.
 * A plain page that works with reload; the console script reloads the list when the inbox's stream says so.
 */
import type { ApprovalView } from '../admin-types.ts';
import { Layout, Level, Notice, Time, type Viewer } from './layout.tsx';

/** The console path of an entry's page. */
export const approvalHref = (id: string) => `/console/approvals/${encodeURIComponent(id)}`;

const iso = (ms: number) => new Date(ms).toISOString();

/** "3 min 5 s" for a duration in ms (never negative). */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(s / 60);
  return m === 0 ? `${s} s` : `${m} min ${s % 60} s`;
}

function Answer(props: { entry: ApprovalView; csrf: string }) {
  return (
    <form method="post" action={`${approvalHref(props.entry.id)}/answer`} class="actions">
      <input type="hidden" name="csrf" value={props.csrf} />
      <label>
        Reason (required, audited)
        <input type="text" name="reason" required maxlength={500} placeholder="why" size={32} />
      </label>
      <button type="submit" name="action" value="approve">
        Approve
      </button>
      <button type="submit" name="action" value="decline" class="danger">
        Decline
      </button>
    </form>
  );
}

function Entry(props: { entry: ApprovalView; viewer: Viewer; now: number; detail: boolean }) {
  const e = props.entry;
  return (
    <article class="card approval" id={`approval-${e.id}`} data-status={e.status}>
      <header class="tool-head">
        <h3>
          {props.detail ? (
            <code>{e.alias}</code>
          ) : (
            <a href={approvalHref(e.id)}>
              <code>{e.alias}</code>
            </a>
          )}
        </h3>
        <Level level={e.risk} />
        <span class={`badge ${e.status === 'pending' ? 'warn' : 'ok'}`}>{e.status}</span>
      </header>
      <dl class="facts">
        <dt>Principal</dt>
        <dd>{e.principal}</dd>
        <dt>Tool</dt>
        <dd>
          {e.upstream === null ? `local · ${e.tool}` : `${e.upstream} · ${e.tool}`} ({e.era} client)
        </dd>
        <dt>Asked</dt>
        <dd>
          <Time iso={iso(e.createdAt)} /> ({duration(props.now - e.createdAt)} ago)
        </dd>
        <dt>Time left</dt>
        <dd>
          {duration(e.expiresAt - props.now)} (until <Time iso={iso(e.expiresAt)} />)
        </dd>
        {e.ruleId === undefined ? null : (
          <>
            <dt>Rule</dt>
            <dd>
              <code>{e.ruleId}</code>
            </dd>
          </>
        )}
        {e.answer === undefined ? null : (
          <>
            <dt>Answer</dt>
            <dd>
              {e.status} by {e.answer.actor}: {e.answer.reason}
            </dd>
          </>
        )}
      </dl>
      <p class="muted">Arguments (masked):</p>
      <pre>{JSON.stringify(e.arguments, null, 2)}</pre>
      {props.detail ? <p class="description">{e.prompt}</p> : null}
      {e.status === 'pending' && props.viewer.canAct && props.viewer.csrf !== null ? (
        <Answer entry={e} csrf={props.viewer.csrf} />
      ) : null}
    </article>
  );
}

/** The inbox; `enabled` is false when no approval channel routes calls here. */
export function ApprovalsPage(props: {
  viewer: Viewer;
  entries: ApprovalView[];
  enabled: boolean;
  now: number;
  notice?: string;
}) {
  return (
    <Layout title="Approval inbox" current="approvals" viewer={props.viewer} live="approvals">
      {props.notice === undefined ? null : <Notice kind="ok">{props.notice}</Notice>}
      {!props.enabled ? (
        <p class="empty">
          The console approval channel is off. Set <code>approval.channel: console</code> (or{' '}
          <code>both</code>) in the configuration to send calls that need a person's yes here.
        </p>
      ) : props.entries.length === 0 ? (
        <p class="empty">
          No call waits for approval. A call that needs a person's yes appears here while its client waits;
          this page updates by itself (or reload it).
        </p>
      ) : (
        props.entries.map((entry) => (
          <Entry entry={entry} viewer={props.viewer} now={props.now} detail={false} />
        ))
      )}
    </Layout>
  );
}

/** One entry. */
export function ApprovalPage(props: { viewer: Viewer; entry: ApprovalView; now: number }) {
  return (
    <Layout title="Approval request" current="approvals" viewer={props.viewer}>
      <p>
        <a href="/console/approvals">Back to the inbox</a>
      </p>
      <Entry entry={props.entry} viewer={props.viewer} now={props.now} detail={true} />
    </Layout>
  );
}
