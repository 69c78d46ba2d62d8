/**
 * The audit page: the hash-chained log with filters (time, principal, profile, tool, decision, outcome) as a plain GET
 * form, each row's detail (masked arguments, risk, approval, upstream requests, trace link), the chain's
 * verification status, paging by cursor and the JSONL export of the same filter.
 */
import type { AuditEntry } from '../../audit/index.ts';
import type { AuditPageView, ChainVerdictView } from '../admin-types.ts';
import { Layout, Level, Notice, Time, type Viewer } from './layout.tsx';

/** The filters of the audit page as the form holds them. */
export interface AuditFilters {
  since: string;
  until: string;
  principal: string;
  profile: string;
  tool: string;
  decision: string;
  outcome: string;
}

/** `datetime-local` values (no zone) are read as UTC; full ISO times pass as they are. */
export function isoOf(value: string): string | undefined {
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(v)) return `${v}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v)) return `${v}Z`;
  return v;
}

/** The admin API query of the filters (without cursor). */
export function auditQueryOf(f: AuditFilters): URLSearchParams {
  const q = new URLSearchParams();
  const since = isoOf(f.since);
  const until = isoOf(f.until);
  if (since !== undefined) q.set('since', since);
  if (until !== undefined) q.set('until', until);
  if (f.principal.trim() !== '') q.set('principal', f.principal.trim());
  if (f.profile.trim() !== '') q.set('profile', f.profile.trim());
  if (f.tool.trim() !== '') q.set('alias', f.tool.trim());
  if (f.decision !== '') q.set('decision', f.decision);
  if (f.outcome !== '') q.set('outcome', f.outcome);
  return q;
}

/** The console query string of the filters (for links that keep them). */
export function filterQueryOf(f: AuditFilters): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(f)) if (value !== '') q.set(key, value);
  return q;
}

function Chain(props: { verdict: ChainVerdictView | null }) {
  const v = props.verdict;
  if (v === null) return <Notice kind="error">The chain could not be verified.</Notice>;
  return v.ok ? (
    <p class="chain chain-ok" role="status">
      Chain verified: {v.rows} rows, intact up to #{v.headSeq}.
    </p>
  ) : (
    <Notice kind="error">
      Chain broken at #{v.seq} ({v.problem}): {v.detail}
    </Notice>
  );
}

function targetOf(entry: AuditEntry): string {
  const r = entry.record;
  if (r.origin === 'upstream') return `${r.upstreamId} · ${r.upstreamTool}`;
  if (r.origin === 'local') return `local · ${r.toolId}`;
  if (r.origin === 'admin') return `admin${r.target === null ? '' : ` · ${r.target}`}`;
  if (r.origin === 'prompt' || r.origin === 'resource')
    return r.upstreamId === null ? `${r.origin} · unknown` : `${r.origin} · ${r.upstreamId}`;
  return r.upstreamId === null ? 'unresolved' : `withheld · ${r.upstreamId}`;
}

function Row(props: { entry: AuditEntry; traceUrl: string | undefined }) {
  const r = props.entry.record;
  const trace = r.traceId;
  return (
    <details class={`row outcome-${r.outcome.toLowerCase()}`} id={`audit-${props.entry.seq}`}>
      <summary>
        <span class="seq">#{props.entry.seq}</span>
        <Time iso={r.time} />
        <code class="alias">{r.alias}</code>
        <span class="principal">{r.principal ?? 'anonymous'}</span>
        <span class={`badge decision-${r.approval.decision}`}>{r.approval.decision}</span>
        <span class={r.outcome === 'OK' ? 'badge ok' : 'badge warn'}>
          {r.outcome}
          {r.errorCode === undefined ? '' : ` ${r.errorCode}`}
        </span>
      </summary>
      <dl class="facts">
        <dt>Target</dt>
        <dd>{targetOf(props.entry)}</dd>
        <dt>Risk</dt>
        <dd>
          {r.risk === null ? (
            'none (no tool)'
          ) : (
            <>
              <Level level={r.risk.final} />
              {r.risk.floorTrigger === null ? '' : ` floor: ${r.risk.floorTrigger}`}
              {r.risk.hitlMitigated ? ' (lowered for HITL)' : ''}
            </>
          )}
        </dd>
        <dt>Approval</dt>
        <dd>
          {r.approval.mode ?? 'none'} → {r.approval.decision}
          {r.approval.ruleId === undefined ? '' : ` by rule ${r.approval.ruleId}`}
          {r.approval.elicitation === undefined ? '' : `, asked: ${r.approval.elicitation}`}
        </dd>
        {r.origin === 'admin' && r.reason !== null ? (
          <>
            <dt>Reason</dt>
            <dd>{r.reason}</dd>
          </>
        ) : null}
        <dt>Upstream requests</dt>
        <dd>
          {r.upstreamRequests === undefined || r.upstreamRequests.length === 0
            ? 'none'
            : r.upstreamRequests.map((u) => `${u.kind}: ${u.outcome}`).join(', ')}
        </dd>
        <dt>Duration</dt>
        <dd>{r.durationMs} ms</dd>
        <dt>Session</dt>
        <dd>{r.sessionId ?? '–'}</dd>
        <dt>Trace</dt>
        <dd>
          {trace === null ? (
            '–'
          ) : props.traceUrl === undefined ? (
            <code>{trace}</code>
          ) : (
            <a href={props.traceUrl.replace('{traceId}', encodeURIComponent(trace))} rel="noreferrer">
              {trace}
            </a>
          )}
        </dd>
        <dt>Digest</dt>
        <dd>
          <code class="digest">{props.entry.digest}</code>
        </dd>
      </dl>
      <h4>Arguments (masked)</h4>
      <pre>{JSON.stringify(r.arguments, null, 2)}</pre>
    </details>
  );
}

/** The page. */
export function AuditPage(props: {
  viewer: Viewer;
  page: AuditPageView;
  verdict: ChainVerdictView | null;
  filters: AuditFilters;
  traceUrl: string | undefined;
  error?: string;
}) {
  const f = props.filters;
  const keep = filterQueryOf(f);
  const older = new URLSearchParams(keep);
  if (props.page.nextCursor !== null) older.set('cursor', props.page.nextCursor);
  const filtered = keep.toString() !== '';
  return (
    <Layout title="Audit" current="audit" viewer={props.viewer}>
      <Chain verdict={props.verdict} />
      <form method="get" action="/console/audit" class="filters" role="search">
        <label>
          From (UTC) <input type="datetime-local" name="since" value={f.since} step={1} />
        </label>
        <label>
          To (UTC) <input type="datetime-local" name="until" value={f.until} step={1} />
        </label>
        <label>
          Principal <input type="text" name="principal" value={f.principal} />
        </label>
        <label>
          Profile <input type="text" name="profile" value={f.profile} placeholder="default" />
        </label>
        <label>
          Tool <input type="text" name="tool" value={f.tool} placeholder="exposed name" />
        </label>
        <label>
          Decision
          <select name="decision">
            <option value="">any</option>
            {['allow', 'deny', 'ask'].map((d) => (
              <option value={d} selected={f.decision === d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label>
          Outcome
          <select name="outcome">
            <option value="">any</option>
            {['OK', 'ERROR', 'INPUT_REQUIRED'].map((o) => (
              <option value={o} selected={f.outcome === o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
        <a href="/console/audit">Clear</a>
        <a href={`/console/audit/export${keep.toString() === '' ? '' : `?${keep}`}`} download>
          Export JSONL
        </a>
      </form>
      {props.error === undefined ? null : <Notice kind="error">{props.error}</Notice>}
      {props.page.entries.length === 0 ? (
        <p class="empty">
          {filtered ? (
            <>
              No record matches these filters. <a href="/console/audit">Show every record</a>.
            </>
          ) : (
            'No calls yet. Every tool call through /mcp and every admin action will be listed here.'
          )}
        </p>
      ) : (
        <div class="rows">
          {props.page.entries.map((entry) => (
            <Row entry={entry} traceUrl={props.traceUrl} />
          ))}
        </div>
      )}
      {props.page.nextCursor === null ? null : (
        <p>
          <a href={`/console/audit?${older}`} rel="next">
            Older records
          </a>
        </p>
      )}
    </Layout>
  );
}
