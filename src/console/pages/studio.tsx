/**
 * The tool studio page: a Safe Tool Spec as a form (name, id, description, params with their test values as JSON,
 * the code), Validate / Run Local Pass / Publish / Save draft as plain form posts, and the admin API's answer on
 * the same page: each error beside its field, the Local Pass results, the resolved toolSafety and risk level.
 */
import type { Child } from 'hono/jsx';
import { Layout, type Viewer } from './layout.tsx';

/** The form's fields as typed (re-rendered after every post). */
export interface StudioDraft {
  name: string;
  toolId: string;
  description: string;
  params: string;
  code: string;
}

/** One problem at its field (a JSON pointer into the spec). */
export interface StudioProblem {
  code: string;
  pointer: string;
  message: string;
}

/** What the admin API answered to the last action. */
export interface StudioAnswer {
  action: string;
  ok: boolean;
  errors?: StudioProblem[];
  tests?: Array<{ ok: boolean; output?: unknown; console?: string[] }>;
  toolSafety?: unknown;
  risk?: { level: string; reasons?: string[] };
  file?: string;
  draft?: boolean;
}

/** The form a new tool starts from. */
export const BLANK_DRAFT: StudioDraft = {
  name: 'shout',
  toolId: '',
  description: 'Shouts the given text back in capitals (Returns { shout }).',
  params: JSON.stringify(
    [{ name: 'text', type: 'STRING', required: true, description: 'the text to shout', testValue: 'hello' }],
    null,
    2,
  ),
  code: 'return { shout: text.toUpperCase() };',
};

const FIELDS = ['name', 'toolId', 'description', 'params', 'code'] as const;

/** The form field a spec pointer belongs to (`/params/0/testValue` → params); null for the whole document. */
export function fieldOf(pointer: string): (typeof FIELDS)[number] | null {
  const head = pointer.split('/')[1] ?? '';
  return (FIELDS as readonly string[]).includes(head) ? (head as (typeof FIELDS)[number]) : null;
}

function Problems(props: { errors: StudioProblem[]; field: string }) {
  const mine = props.errors.filter((e) => (fieldOf(e.pointer) ?? '') === props.field);
  if (mine.length === 0) return null;
  return (
    <ul class="field-errors notice notice-error" id={`${props.field || 'spec'}-errors`}>
      {mine.map((e) => (
        <li>
          <code>{e.code}</code> <code>{e.pointer}</code>: {e.message}
        </li>
      ))}
    </ul>
  );
}

function Field(props: { label: string; name: string; errors: StudioProblem[]; children: Child }) {
  return (
    <div class="studio-field">
      <label for={`studio-${props.name}`}>{props.label}</label>
      {props.children}
      <Problems errors={props.errors} field={props.name} />
    </div>
  );
}

function Result(props: { answer: StudioAnswer }) {
  const a = props.answer;
  return (
    <section class="card" id="studio-result" aria-live="polite">
      <h2>
        {a.action}: {a.ok ? 'ok' : 'failed'}
        {a.risk ? <span class="level"> risk {a.risk.level}</span> : null}
      </h2>
      {a.file ? (
        <p class={`notice ${a.ok ? 'notice-ok' : 'notice-error'}`}>
          {a.draft ? 'Saved as a draft' : 'Published'} to <code>{a.file}</code>
        </p>
      ) : null}
      {(a.tests ?? []).map((t, i) => (
        <div class="studio-test">
          <h3>
            Local Pass test {i + 1}:{' '}
            <span class={`badge ${t.ok ? 'ok' : 'warn'}`}>{t.ok ? 'pass' : 'fail'}</span>
          </h3>
          {t.ok ? <pre class="studio-output">{JSON.stringify(t.output, null, 2)}</pre> : null}
          {(t.console ?? []).length > 0 ? <pre>{(t.console ?? []).join('\n')}</pre> : null}
        </div>
      ))}
      <Problems errors={a.errors ?? []} field="" />
      {a.risk && (a.risk.reasons ?? []).length > 0 ? (
        <ul>
          {(a.risk.reasons ?? []).map((r) => (
            <li>{r}</li>
          ))}
        </ul>
      ) : null}
      {a.toolSafety ? (
        <details open>
          <summary>toolSafety</summary>
          <pre id="studio-tool-safety">{JSON.stringify(a.toolSafety, null, 2)}</pre>
        </details>
      ) : null}
    </section>
  );
}

/** The studio page. */
export function StudioPage(props: { viewer: Viewer; draft: StudioDraft; answer?: StudioAnswer }) {
  const { viewer, draft } = props;
  const errors = props.answer?.errors ?? [];
  const readOnly = !viewer.canAct || viewer.csrf === null;
  return (
    <Layout title="Tool studio" current="studio" viewer={viewer}>
      <p class="muted">
        Write a Safe Tool Spec, validate it, run its Local Pass on the test values in the sandbox, then
        publish it to the tools directory (the gateway picks it up without restart) or keep it as a draft.
        {readOnly ? ' Your role can read only; an operator signed in with a session writes here.' : ''}
      </p>
      {props.answer ? <Result answer={props.answer} /> : null}
      <form method="post" action="/console/studio" class="card studio">
        {viewer.csrf === null ? null : <input type="hidden" name="csrf" value={viewer.csrf} />}
        <Field label="Name" name="name" errors={errors}>
          <input id="studio-name" name="name" value={draft.name} required />
        </Field>
        <Field label="Tool id (blank: derived from the name)" name="toolId" errors={errors}>
          <input id="studio-toolId" name="toolId" value={draft.toolId} />
        </Field>
        <Field label="Description" name="description" errors={errors}>
          <textarea id="studio-description" name="description" rows={3}>
            {draft.description}
          </textarea>
        </Field>
        <Field
          label="Params with their test values (JSON list: name, type, required, description, testValue)"
          name="params"
          errors={errors}
        >
          <textarea id="studio-params" name="params" rows={8} class="code" spellcheck={false}>
            {draft.params}
          </textarea>
        </Field>
        <Field label="Code (JavaScript; params are in scope by name)" name="code" errors={errors}>
          <textarea id="studio-code" name="code" rows={10} class="code" spellcheck={false}>
            {draft.code}
          </textarea>
        </Field>
        {readOnly ? null : (
          <div class="actions">
            <button type="submit" name="op" value="validate">
              Validate
            </button>
            <button type="submit" name="op" value="test">
              Run Local Pass
            </button>
            <button type="submit" name="op" value="publish">
              Publish
            </button>
            <button type="submit" name="op" value="draft">
              Save draft
            </button>
          </div>
        )}
      </form>
    </Layout>
  );
}
