/** The overview page: every upstream with its state, era, tool counts and last error, and recent activity. */
import type { OverviewView, ServerView } from '../admin-types.ts';
import { Layout, Level, type Viewer } from './layout.tsx';

function Stat(props: { label: string; value: string; warn?: boolean }) {
  return (
    <div class={props.warn === true ? 'stat warn' : 'stat'}>
      <span class="stat-value">{props.value}</span>
      <span class="stat-label">{props.label}</span>
    </div>
  );
}

function ServerCard(props: { server: ServerView }) {
  const s = props.server;
  return (
    <article class="card server" id={`server-${s.id}`}>
      <h3>
        <a href={`/console/tools?upstream=${encodeURIComponent(s.id)}`}>{s.id}</a>{' '}
        <span class={`state state-${s.state}`}>{s.state}</span>
      </h3>
      <dl class="facts">
        <dt>Transport</dt>
        <dd>{s.transport}</dd>
        <dt>Era</dt>
        <dd>
          {s.era === null ? '–' : `${s.era}${s.protocolVersion === null ? '' : ` (${s.protocolVersion})`}`}
        </dd>
        <dt>Tools</dt>
        <dd>
          {s.exposedToolCount} exposed of {s.toolCount}
          {s.rejectedTools.length > 0 ? `, ${s.rejectedTools.length} rejected` : ''}
        </dd>
        <dt>Server risk</dt>
        <dd>
          <Level level={s.risk?.level ?? null} />
          {s.risk?.floorTrigger ? <span class="muted"> floor: {s.risk.floorTrigger}</span> : null}
        </dd>
      </dl>
      {s.lastError === null ? null : (
        <div class="last-error">
          <p>
            <strong>Last error:</strong> {s.lastError}
          </p>
          {s.lastStderr.length > 0 ? (
            <details open={s.state === 'down'}>
              <summary>The child's last stderr lines ({s.lastStderr.length})</summary>
              <pre>{s.lastStderr.join('\n')}</pre>
            </details>
          ) : null}
        </div>
      )}
    </article>
  );
}

/** The overview. */
export function OverviewPage(props: {
  viewer: Viewer;
  servers: ServerView[];
  overview: OverviewView;
  /** Calls waiting in the approval inbox; null when no approval channel sends calls to the console. */
  waitingApprovals: number | null;
}) {
  const waiting = props.waitingApprovals;
  const o = props.overview;
  return (
    <Layout title="Overview" current="overview" viewer={props.viewer}>
      <section aria-labelledby="activity">
        <h2 id="activity">Last {o.windowMinutes} minutes</h2>
        <div class="stats">
          <Stat label="calls / s" value={o.callsPerSecond.toFixed(2)} />
          <Stat label="calls" value={`${o.calls}${o.capped ? '+' : ''}`} />
          <Stat label="denied" value={String(o.denials)} warn={o.denials > 0} />
          <Stat label="errors" value={String(o.errors)} warn={o.errors > 0} />
          <Stat label="awaiting review" value={String(o.pendingReviews)} warn={o.pendingReviews > 0} />
          {waiting === null ? null : (
            <Stat label="calls awaiting approval" value={String(waiting)} warn={waiting > 0} />
          )}
        </div>
        {o.pendingReviews > 0 ? (
          <p>
            <a href="/console/ledger">
              {o.pendingReviews === 1
                ? '1 tool changed and waits'
                : `${o.pendingReviews} tools changed and wait`}{' '}
              for review
            </a>
          </p>
        ) : null}
        {waiting !== null && waiting > 0 ? (
          <p>
            <a href="/console/approvals">
              {waiting} call{waiting === 1 ? '' : 's'} wait{waiting === 1 ? 's' : ''} for an operator's
              approval
            </a>
          </p>
        ) : null}
      </section>
      <section aria-labelledby="upstreams">
        <h2 id="upstreams">Upstreams</h2>
        {props.servers.length === 0 ? (
          <p class="empty">
            No upstream servers are configured. Add one under <code>upstreams</code> in the configuration file
            and restart the gateway.
          </p>
        ) : (
          <div class="grid">
            {props.servers.map((server) => (
              <ServerCard server={server} />
            ))}
          </div>
        )}
      </section>
    </Layout>
  );
}
