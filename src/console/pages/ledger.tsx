/**
 * The ledger review pages: the records that wait for a person (changed definitions, revoked tools), and one
 * record's approved and current definitions side by side with the changed lines marked, the current one's
 * findings, and (for operators) approve / revoke / restore with a required reason.
 */
import type { LedgerRecordView, LedgerReviewView, ReviewedDefinitionView } from '../admin-types.ts';
import { definitionRows, type DefinitionRow } from '../definition-rows.ts';
import { Layout, Notice, Time, type Viewer } from './layout.tsx';

/** The console path of a record's review page. */
export const reviewHref = (upstream: string, tool: string) =>
  `/console/ledger/${encodeURIComponent(`${upstream}::${tool}`)}`;

const iso = (ms: number) => new Date(ms).toISOString();
const STATUS_LABEL: Record<string, string> = {
  AWAITING_REREVIEW: 'changed, awaiting review',
  REVOKED: 'revoked',
  ACTIVE: 'active',
};

/** The list of records that need a person, and a link to every other record. */
export function LedgerListPage(props: { viewer: Viewer; records: LedgerRecordView[]; all: boolean }) {
  const shown = props.all ? props.records : props.records.filter((r) => r.status !== 'ACTIVE');
  return (
    <Layout title="Ledger review" current="ledger" viewer={props.viewer}>
      <p class="muted">
        The ledger keeps every upstream tool's definition; a tool whose definition changed is withheld until a
        person approves the change.{' '}
        {props.all ? (
          <a href="/console/ledger">Show only those needing review</a>
        ) : (
          <a href="/console/ledger?all=1">Show every record ({props.records.length})</a>
        )}
      </p>
      {shown.length === 0 ? (
        <p class="empty">
          Nothing waits for review: every recorded tool is approved as it is. A tool whose definition changes
          appears here.
        </p>
      ) : (
        <table class="records">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr>
                <td>
                  <a href={reviewHref(r.upstream, r.tool)}>
                    <code>
                      {r.upstream}::{r.tool}
                    </code>
                  </a>
                </td>
                <td>
                  <span class={`badge ${r.status === 'ACTIVE' ? 'ok' : 'warn'}`}>
                    {STATUS_LABEL[r.status] ?? r.status}
                  </span>
                </td>
                <td>
                  <Time iso={iso(r.curatedAt ?? r.firstSeenAt)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

function Side(props: { label: string; side: ReviewedDefinitionView }) {
  const s = props.side;
  return (
    <p class="muted digest">
      {props.label}: {s.hash === null ? 'none approved yet' : <code>{s.hash.slice(0, 16)}…</code>}
      {s.stored ? '' : ` (${s.note})`}
    </p>
  );
}

const MARK: Record<DefinitionRow['kind'], string> = { same: '', changed: '~', added: '+', removed: '−' };

function Rows(props: { rows: DefinitionRow[] }) {
  let field = '';
  return (
    <table class="diff">
      <caption class="muted">Approved (left) and current (right); changed rows are marked.</caption>
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col">Approved</th>
          <th scope="col">Current</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => {
          const head =
            r.field === field ? null : (
              <tr class="diff-field">
                <th colspan={3} scope="rowgroup">
                  {r.field}
                </th>
              </tr>
            );
          field = r.field;
          return (
            <>
              {head}
              <tr class={`diff-${r.kind}`} data-kind={r.kind}>
                <th scope="row">
                  <span class="diff-mark" aria-label={r.kind === 'same' ? undefined : r.kind}>
                    {MARK[r.kind]}
                  </span>{' '}
                  <code>
                    {r.field === 'description' ? `line ${r.path}` : r.path === '' ? '(value)' : r.path}
                  </code>
                </th>
                <td class="old">{r.old ?? ''}</td>
                <td class="new">{r.new ?? ''}</td>
              </tr>
            </>
          );
        })}
      </tbody>
    </table>
  );
}

function Actions(props: { review: LedgerReviewView['record']; csrf: string }) {
  const r = props.review;
  const actions =
    r.status === 'AWAITING_REREVIEW'
      ? ['approve', 'revoke']
      : r.status === 'REVOKED'
        ? ['restore']
        : ['revoke'];
  return (
    <form method="post" action={`${reviewHref(r.upstream, r.tool)}/act`} class="actions card">
      <input type="hidden" name="csrf" value={props.csrf} />
      {r.current.hash === null ? null : <input type="hidden" name="hash" value={r.current.hash} />}
      <label>
        Reason (required, audited)
        <input type="text" name="reason" required maxlength={500} placeholder="why" size={40} />
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

/** One record under review. */
export function LedgerReviewPage(props: {
  viewer: Viewer;
  review: LedgerReviewView;
  descriptionDiff: string | null;
  notice?: string;
  error?: string;
}) {
  const r = props.review.record;
  const approved = r.approved.stored ? r.approved.definition : null;
  const current = r.current.stored ? r.current.definition : null;
  const rows = definitionRows(approved, current);
  const changedRows = rows.filter((row) => row.kind !== 'same').length;
  return (
    <Layout title={`Review ${r.key}`} current="ledger" viewer={props.viewer}>
      {props.notice === undefined ? null : <Notice kind="ok">{props.notice}</Notice>}
      {props.error === undefined ? null : <Notice kind="error">{props.error}</Notice>}
      <p>
        <span class={`badge ${r.status === 'ACTIVE' ? 'ok' : 'warn'}`} id="ledger-status">
          {STATUS_LABEL[r.status] ?? r.status}
        </span>{' '}
        <span class="muted">
          first seen <Time iso={iso(r.firstSeenAt)} />
          {r.curatedAt === null ? '' : ' · last action '}
          {r.curatedAt === null ? null : <Time iso={iso(r.curatedAt)} />}
        </span>
      </p>
      <Side label="Approved digest" side={r.approved} />
      <Side label="Current digest" side={r.current} />
      {props.viewer.canAct && props.viewer.csrf !== null ? (
        <Actions review={r} csrf={props.viewer.csrf} />
      ) : null}
      <h2>Definition</h2>
      <p class="muted">
        {r.changed
          ? `${changedRows} ${changedRows === 1 ? 'row differs' : 'rows differ'} from the approved definition.`
          : 'The current definition is the approved one.'}
      </p>
      {rows.length === 0 ? (
        <p class="empty">Neither definition is stored: this record predates stored definitions.</p>
      ) : (
        <Rows rows={rows} />
      )}
      {props.descriptionDiff === null ? null : (
        <details>
          <summary>Description as a unified diff</summary>
          <pre>{props.descriptionDiff}</pre>
        </details>
      )}
      <h2>Findings of the current definition</h2>
      {props.review.tools.length === 0 ? (
        <p class="empty">No exposed tool is built from this record now (its upstream may be down).</p>
      ) : (
        props.review.tools.map((t) => (
          <article class="card">
            <h3>
              <a href={`/console/tools?q=${encodeURIComponent(t.alias)}`}>
                <code>{t.alias}</code>
              </a>{' '}
              {t.exposed ? (
                <span class="badge ok">exposed</span>
              ) : (
                <span class="badge warn">withheld: {t.withheldReason}</span>
              )}
            </h3>
            {(t.poisoning?.matches ?? []).length === 0 && t.findings.length === 0 ? (
              <p class="muted">No findings.</p>
            ) : (
              <ul>
                {(t.poisoning?.matches ?? []).map((m) => (
                  <li>
                    <strong>{m.patternId}</strong> in <code>{m.fieldPath}</code>: <mark>{m.matchedText}</mark>
                  </li>
                ))}
                {t.findings.map((f) => (
                  <li>
                    <code>{f.code}</code> {f.message}
                  </li>
                ))}
              </ul>
            )}
          </article>
        ))
      )}
    </Layout>
  );
}
