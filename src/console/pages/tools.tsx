/**
 * The servers-and-tools page: every tool the gateway knows, exposed or withheld, with its risk, the axes behind
 * it, poisoning findings with the span each points at highlighted, annotations, and (for operators) the ledger
 * actions. Filters are a plain GET form, so they work without script.
 */
import type { FindingView, ServerView, ToolView } from '../admin-types.ts';
import { Layout, Level, Notice, type Viewer } from './layout.tsx';
import { reviewHref } from './ledger.tsx';

/** The filters of the tools page, from its query string. */
export interface ToolFilters {
  q: string;
  upstream: string;
  level: string;
  status: string;
}

const LEVELS = ['L0', 'L1', 'L2', 'L3', 'L4', 'L5'];
const STATUSES = [
  ['exposed', 'Exposed'],
  ['withheld', 'Withheld'],
  ['AWAITING_REREVIEW', 'Awaiting review'],
  ['REVOKED', 'Revoked'],
] as const;

/** The tools that pass the filters. */
export function filterTools(tools: readonly ToolView[], f: ToolFilters): ToolView[] {
  const q = f.q.trim().toLowerCase();
  return tools.filter((t) => {
    if (f.upstream !== '' && (t.upstream ?? 'local') !== f.upstream) return false;
    if (f.level !== '' && t.risk.final !== f.level) return false;
    if (f.status === 'exposed' && !t.exposed) return false;
    if (f.status === 'withheld' && t.exposed) return false;
    if ((f.status === 'AWAITING_REREVIEW' || f.status === 'REVOKED') && t.fingerprint?.status !== f.status)
      return false;
    if (q === '') return true;
    return [t.alias, t.upstreamTool ?? '', t.localToolId ?? '', t.title ?? '', t.description ?? ''].some(
      (s) => s.toLowerCase().includes(q),
    );
  });
}

const CONTEXT = 80;

/** The finding's field text around its span, the span in <mark>. */
function Span(props: { finding: FindingView }) {
  const { fieldText, offset } = props.finding;
  if (fieldText === null) return <code>{props.finding.matchedText}</code>;
  const end = Math.min(fieldText.length, offset + (props.finding.length ?? props.finding.matchedText.length));
  const from = Math.max(0, offset - CONTEXT);
  const to = Math.min(fieldText.length, end + CONTEXT);
  return (
    <blockquote class="span">
      {from > 0 ? '…' : ''}
      {fieldText.slice(from, offset)}
      <mark>{fieldText.slice(offset, end)}</mark>
      {fieldText.slice(end, to)}
      {to < fieldText.length ? '…' : ''}
    </blockquote>
  );
}

function Axes(props: { axes: Record<string, number> | null; label: string }) {
  if (props.axes === null) return null;
  return (
    <>
      <dt>{props.label}</dt>
      <dd>
        {Object.entries(props.axes)
          .map(([axis, points]) => `${axis} ${points}`)
          .join(' · ')}
      </dd>
    </>
  );
}

function LedgerActions(props: { tool: ToolView; csrf: string; back: string }) {
  const { tool } = props;
  if (tool.origin !== 'upstream' || tool.fingerprint === null) return null;
  const status = tool.fingerprint.status;
  const actions =
    status === 'AWAITING_REREVIEW' ? ['approve', 'revoke'] : status === 'REVOKED' ? ['restore'] : ['revoke'];
  return (
    <form method="post" action="/console/tools/ledger" class="actions">
      <input type="hidden" name="csrf" value={props.csrf} />
      <input type="hidden" name="upstream" value={tool.upstream ?? ''} />
      <input type="hidden" name="tool" value={tool.upstreamTool ?? ''} />
      <input type="hidden" name="back" value={props.back} />
      <label>
        Reason <input type="text" name="reason" maxlength={500} placeholder="why (audited)" />
      </label>
      {actions.map((action) => (
        <button type="submit" name="action" value={action} class={action === 'revoke' ? 'danger' : ''}>
          {action[0]?.toUpperCase()}
          {action.slice(1)}
        </button>
      ))}
    </form>
  );
}

function ToolCard(props: { tool: ToolView; viewer: Viewer; back: string }) {
  const t = props.tool;
  const matches = t.poisoning?.matches ?? [];
  return (
    <article class={t.exposed ? 'card tool' : 'card tool withheld'} id={`tool-${t.alias}`}>
      <header class="tool-head">
        <h3>
          <code>{t.alias}</code>
        </h3>
        <Level level={t.risk.final} />
        {t.exposed ? (
          <span class="badge ok">exposed</span>
        ) : (
          <span class="badge warn">withheld: {t.withheldReason}</span>
        )}
        {matches.length > 0 ? <span class="badge warn">{matches.length} finding(s)</span> : null}
      </header>
      <p class="muted">
        {t.origin === 'upstream' ? `${t.upstream} · ${t.upstreamTool}` : `local · ${t.localToolId}`} · HITL{' '}
        {t.hitl}
        {t.fingerprint === null ? '' : ` · ledger ${t.fingerprint.status}`}
        {t.fingerprint !== null && t.upstream !== null && t.upstreamTool !== null ? (
          <>
            {' · '}
            <a href={reviewHref(t.upstream, t.upstreamTool)}>
              {t.fingerprint.status === 'ACTIVE' ? 'definition' : 'review the change'}
            </a>
          </>
        ) : null}
        {t.origin === 'local' && t.localToolId !== null && t.localSource === 'user' && props.viewer.canAct ? (
          <>
            {' · '}
            <a class="studio-edit" href={`/console/studio?from=${encodeURIComponent(t.localToolId)}`}>
              Edit in studio
            </a>
          </>
        ) : null}
      </p>
      {t.description === null ? null : <p class="description">{t.description}</p>}
      {t.withheldDetail === null ? null : <Notice kind="error">{t.withheldDetail}</Notice>}
      {matches.length === 0 ? null : (
        <section class="findings" aria-label="Poisoning findings">
          {matches.map((m) => (
            <div class="finding">
              <p>
                <strong>{m.patternId}</strong> in <code>{m.fieldPath}</code>
                {m.detail === undefined ? '' : ` — ${m.detail}`}
              </p>
              <Span finding={m} />
            </div>
          ))}
        </section>
      )}
      <details>
        <summary>Risk, annotations and guard notes</summary>
        <dl class="facts">
          <dt>Final / effective</dt>
          <dd>
            <Level level={t.risk.final} /> / <Level level={t.risk.effective} />
            {t.risk.hitlMitigated ? ' (lowered for HITL)' : ''}
          </dd>
          <dt>Server / publish</dt>
          <dd>
            <Level level={t.risk.server} /> / <Level level={t.risk.publish} />
          </dd>
          <dt>Floor trigger</dt>
          <dd>{t.risk.floorTrigger ?? 'none'}</dd>
          <Axes axes={t.axes.server} label="Server axes" />
          <Axes axes={t.axes.publish} label="Tool axes" />
          <dt>Annotations</dt>
          <dd>{t.annotations === null ? 'none' : <code>{JSON.stringify(t.annotations)}</code>}</dd>
          {t.findings.map((f) => (
            <>
              <dt>{f.guard}</dt>
              <dd>
                <code>{f.code}</code> {f.message}
              </dd>
            </>
          ))}
        </dl>
      </details>
      {props.viewer.canAct && props.viewer.csrf !== null ? (
        <LedgerActions tool={t} csrf={props.viewer.csrf} back={props.back} />
      ) : null}
    </article>
  );
}

/** The page. */
export function ToolsPage(props: {
  viewer: Viewer;
  tools: ToolView[];
  total: number;
  servers: ServerView[];
  filters: ToolFilters;
  back: string;
  notice?: string;
}) {
  const f = props.filters;
  return (
    <Layout title="Servers and tools" current="tools" viewer={props.viewer}>
      {props.notice === undefined ? null : <Notice kind="ok">{props.notice}</Notice>}
      <form method="get" action="/console/tools" class="filters" role="search">
        <label>
          Search <input type="search" name="q" value={f.q} placeholder="name or description" />
        </label>
        <label>
          Server
          <select name="upstream">
            <option value="">all</option>
            {props.servers.map((s) => (
              <option value={s.id} selected={f.upstream === s.id}>
                {s.id}
              </option>
            ))}
            <option value="local" selected={f.upstream === 'local'}>
              local tools
            </option>
          </select>
        </label>
        <label>
          Risk
          <select name="level">
            <option value="">any</option>
            {LEVELS.map((l) => (
              <option value={l} selected={f.level === l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">any</option>
            {STATUSES.map(([value, label]) => (
              <option value={value} selected={f.status === value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
        <a href="/console/tools">Clear</a>
      </form>
      <p class="muted" aria-live="polite">
        {props.tools.length} of {props.total} tools
      </p>
      {props.total === 0 ? (
        <p class="empty">
          The gateway knows no tools yet. Check the upstreams on the <a href="/console">overview</a>: a server
          that is down or still connecting lists none.
        </p>
      ) : props.tools.length === 0 ? (
        <p class="empty">
          No tool matches these filters. <a href="/console/tools">Show every tool</a>.
        </p>
      ) : (
        props.tools.map((tool) => <ToolCard tool={tool} viewer={props.viewer} back={props.back} />)
      )}
    </Layout>
  );
}
