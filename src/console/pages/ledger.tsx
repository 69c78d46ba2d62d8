/**
 * The ledger review pages: the records that wait for a person (changed definitions, revoked items — tools,
 * prompts, resources, resource templates, server instructions), and one record's approved and current
 * definitions side by side with the changed lines marked, the current one's findings, and (for operators)
 * approve / revoke / restore with a required reason.
 */
import type { LedgerRecordView, LedgerReviewView, ReviewedDefinitionView } from '../admin-types.ts';
import { definitionRows, type DefinitionRow } from '../definition-rows.ts';
import { Layout, Notice, Time, type Viewer } from './layout.tsx';

/** A ledger record as the admin API lists it: `kind` is absent for a tool. */
type RecordView = LedgerRecordView & { kind?: string };

/** What the admin API says of a prompt, resource or instructions under review (absent for a tool). */
interface SurfaceView {
  kind: string;
  name: string;
  uri: string | null;
  withheld: boolean;
  score: number | null;
  matches: { patternId: string; fieldPath: string; matchedText: string }[];
  findings: { guard: string; code: string; message: string }[];
}

/** The admin API's key of a record: `<upstream>::<tool>`, or `<kind>:<upstream>::<name>` for other surfaces. */
const recordKey = (r: RecordView) =>
  r.kind === undefined || r.kind === 'tool'
    ? `${r.upstream}::${r.tool}`
    : `${r.kind}:${r.upstream}::${r.tool}`;

/** The console path of a record's review page, by its key. */
export const keyHref = (key: string) => `/console/ledger/${encodeURIComponent(key)}`;

/** The console path of a tool's review page. */
export const reviewHref = (upstream: string, tool: string) => keyHref(`${upstream}::${tool}`);

const KIND_LABEL: Record<string, string> = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  'resource-template': 'resource template',
  'server-instructions': 'server instructions',
};

const iso = (ms: number) => new Date(ms).toISOString();
const STATUS_LABEL: Record<string, string> = {
  AWAITING_REREVIEW: 'changed, awaiting review',
  REVOKED: 'revoked',
  ACTIVE: 'active',
};

/** The list of records that need a person, and a link to every other record. */
export function LedgerListPage(props: { viewer: Viewer; records: RecordView[]; all: boolean }) {
  const shown = props.all ? props.records : props.records.filter((r) => r.status !== 'ACTIVE');
  return (
    <Layout title="Ledger review" current="ledger" viewer={props.viewer}>
      <p class="muted">
        The ledger keeps the definition of every upstream tool, prompt, resource, resource template and set of
        server instructions; one whose definition changed is withheld until a person approves the change.{' '}
        {props.all ? (
          <a href="/console/ledger">Show only those needing review</a>
        ) : (
          <a href="/console/ledger?all=1">Show every record ({props.records.length})</a>
        )}
      </p>
      {shown.length === 0 ? (
        <p class="empty">
          Nothing waits for review: every recorded item is approved as it is. An item whose definition changes
          appears here.
        </p>
      ) : (
        <table class="records">
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Kind</th>
              <th scope="col">Status</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr>
                <td>
                  <a href={keyHref(recordKey(r))}>
                    <code>
                      {r.upstream}::{r.tool}
                    </code>
                  </a>
                </td>
                <td>{KIND_LABEL[r.kind ?? 'tool'] ?? r.kind}</td>
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
                    {r.field === 'description' || r.field === 'instructions'
                      ? `line ${r.path}`
                      : r.path === ''
                        ? '(value)'
                        : r.path}
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
    <form method="post" action={`${keyHref(r.key)}/act`} class="actions card">
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
  review: LedgerReviewView & { surfaces?: SurfaceView[] };
  descriptionDiff: string | null;
  notice?: string;
  error?: string;
}) {
  const r = props.review.record;
  const kind = (r as { kind?: string }).kind ?? 'tool';
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
      {kind === 'tool' || props.review.surfaces === undefined ? (
        <ToolFindings review={props.review} />
      ) : (
        <SurfaceFindings surfaces={props.review.surfaces} />
      )}
    </Layout>
  );
}

/** A subject's poisoning matches and guard findings as one list. */
function FindingList(props: {
  matches: readonly { patternId: string; fieldPath: string; matchedText: string }[];
  findings: readonly { code: string; message: string }[];
  children?: unknown;
}) {
  return (
    <ul>
      {props.matches.map((m) => (
        <li>
          <strong>{m.patternId}</strong> in <code>{m.fieldPath}</code>: <mark>{m.matchedText}</mark>
        </li>
      ))}
      {props.findings.map((f) => (
        <li>
          <code>{f.code}</code> {f.message}
        </li>
      ))}
      {props.children}
    </ul>
  );
}

/** What the guards say of a prompt, resource or instructions as it is now. */
function SurfaceFindings(props: { surfaces: SurfaceView[] }) {
  if (props.surfaces.length === 0) return <p class="muted">No findings.</p>;
  return (
    <>
      {props.surfaces.map((s) => (
        <article class="card">
          <h3>
            <code>{s.uri ?? s.name}</code>{' '}
            {s.withheld ? <span class="badge warn">withheld</span> : <span class="badge ok">listed</span>}
          </h3>
          <FindingList matches={s.matches} findings={s.findings}>
            {s.score === null ? null : <li class="muted">model p={s.score.toFixed(3)}</li>}
          </FindingList>
        </article>
      ))}
    </>
  );
}

/** The tools built from a tool's record, and what the guards say of each. */
function ToolFindings(props: { review: LedgerReviewView }) {
  return (
    <>
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
              <FindingList matches={t.poisoning?.matches ?? []} findings={t.findings} />
            )}
          </article>
        ))
      )}
    </>
  );
}
