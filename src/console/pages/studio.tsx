/**
 * The tool studio page: a whole Safe Tool Spec as a form (name, id, description, category, tags, params with their
 * test values, static variables, the code, the sandbox profile and overrides, the approval block and any extension
 * fields), Validate / Run Local Pass / Publish / Save draft as plain form posts, and the admin API's answer on the
 * same page: each error beside its field, the Local Pass results, the resolved toolSafety and risk level.
 */
import type { Child } from 'hono/jsx';
import { KNOWN_SPEC_FIELDS, PROFILE_FIELD } from '../../tool-specs/index.ts';
import { Layout, type Viewer } from './layout.tsx';

/** The form's fields as typed (re-rendered after every post); the list-like ones are JSON text. */
export interface StudioDraft {
  name: string;
  toolId: string;
  description: string;
  category: string;
  /** Comma-separated. */
  tags: string;
  params: string;
  staticVariables: string;
  code: string;
  /** `x-portcullis-sandbox-profile`; blank for none. */
  sandboxProfile: string;
  sandboxOverrides: string;
  /** `humanInTheLoop.mode`; blank for no block. */
  hitlMode: string;
  hitlPrompt: string;
  /** Other top-level fields of the document, as a JSON object (blank for none). */
  extensions: string;
  /** Kept from the opened file so an edit does not reset it; blank for a new tool. */
  createTimestamp: string;
  /** The toolId the form was opened from (`?from=`), blank for a new tool. */
  from: string;
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
  category: 'OTHER',
  tags: '',
  staticVariables: '[]',
  code: 'return { shout: text.toUpperCase() };',
  sandboxProfile: '',
  sandboxOverrides: '{}',
  hitlMode: '',
  hitlPrompt: '',
  extensions: '',
  createTimestamp: '',
  from: '',
};

/** Fields no form field holds: a problem there is shown for the whole document. */
const WHOLE_DOCUMENT = new Set(['', 'codeType', 'draft', 'toolSafety', 'createTimestamp', 'updateTimestamp']);
const SPEC_FIELDS: ReadonlySet<string> = new Set(KNOWN_SPEC_FIELDS);

/**
 * The form field a spec pointer belongs to (`/params/0/testValue` → params, `/humanInTheLoop/mode` → hitlMode,
 * an unknown top-level field → extensions); null for the whole document.
 */
export function fieldOf(pointer: string): string | null {
  const [, top = '', next] = pointer.split('/');
  const head = top.replace(/~1/g, '/').replace(/~0/g, '~');
  if (WHOLE_DOCUMENT.has(head)) return null;
  if (head === PROFILE_FIELD) return 'sandboxProfile';
  if (head === 'humanInTheLoop') return next === 'promptTemplate' ? 'hitlPrompt' : 'hitlMode';
  return SPEC_FIELDS.has(head) ? head : 'extensions';
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

/** A labelled text area of the form, its problems beside it; code areas are monospace without spellcheck. */
function AreaField(props: {
  label: string;
  name: keyof StudioDraft;
  draft: StudioDraft;
  errors: StudioProblem[];
  rows: number;
  code?: boolean;
}) {
  return (
    <Field label={props.label} name={props.name} errors={props.errors}>
      <textarea
        id={`studio-${props.name}`}
        name={props.name}
        rows={props.rows}
        {...(props.code === false ? {} : { class: 'code', spellcheck: false })}
      >
        {props.draft[props.name]}
      </textarea>
    </Field>
  );
}

const HITL_MODES = ['', 'REQUIRED', 'AUTO_APPROVE', 'DISABLED'] as const;

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
      {draft.from === '' ? null : (
        <p class="notice notice-ok" id="studio-editing">
          Editing <code>{draft.from}</code> from <code>tools.dir</code>: publishing replaces its file once the
          new version passes its Local Pass.
        </p>
      )}
      {props.answer ? <Result answer={props.answer} /> : null}
      <form method="post" action="/console/studio" class="card studio">
        {viewer.csrf === null ? null : <input type="hidden" name="csrf" value={viewer.csrf} />}
        <input type="hidden" name="from" value={draft.from} />
        <input type="hidden" name="createTimestamp" value={draft.createTimestamp} />
        <Field label="Name" name="name" errors={errors}>
          <input id="studio-name" name="name" value={draft.name} required />
        </Field>
        <Field label="Tool id (blank: derived from the name)" name="toolId" errors={errors}>
          <input id="studio-toolId" name="toolId" value={draft.toolId} />
        </Field>
        <AreaField
          label="Description"
          name="description"
          draft={draft}
          errors={errors}
          rows={3}
          code={false}
        />
        <Field label="Category (blank: none)" name="category" errors={errors}>
          <input id="studio-category" name="category" value={draft.category} />
        </Field>
        <Field label="Tags (comma-separated, at most two)" name="tags" errors={errors}>
          <input id="studio-tags" name="tags" value={draft.tags} />
        </Field>
        <AreaField
          label="Params with their test values (JSON list: name, type, required, description, testValue)"
          name="params"
          draft={draft}
          errors={errors}
          rows={8}
        />
        <AreaField
          label={
            'Static variables (JSON list of one-key objects, e.g. [{"apiKey": "${API_KEY}"}]; ' +
            "${NAME} is read from the gateway's environment)"
          }
          name="staticVariables"
          draft={draft}
          errors={errors}
          rows={3}
        />
        <AreaField
          label="Code (JavaScript; params are in scope by name)"
          name="code"
          draft={draft}
          errors={errors}
          rows={10}
        />
        <fieldset class="studio-sandbox">
          <legend>Sandbox</legend>
          <Field
            label="Sandbox profile (blank: the gateway's tools.profile)"
            name="sandboxProfile"
            errors={errors}
          >
            <input id="studio-sandboxProfile" name="sandboxProfile" value={draft.sandboxProfile} />
          </Field>
          <AreaField
            label={
              'Sandbox overrides (JSON object: addAllowClasses, removeAllowClasses, addDenyClasses, ' +
              'removeDenyClasses, networkMode, hostsAllow, fileRead, fileWrite, fsBasePath, destructive, ' +
              'secretsInCode)'
            }
            name="sandboxOverrides"
            draft={draft}
            errors={errors}
            rows={4}
          />
        </fieldset>
        <fieldset class="studio-hitl">
          <legend>Human in the loop</legend>
          <Field label="Approval mode (blank: the gateway's rules decide)" name="hitlMode" errors={errors}>
            <select id="studio-hitlMode" name="hitlMode">
              {HITL_MODES.map((mode) => (
                <option value={mode} selected={draft.hitlMode === mode}>
                  {mode === '' ? '(none)' : mode}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Approval prompt template (blank: none)" name="hitlPrompt" errors={errors}>
            <input id="studio-hitlPrompt" name="hitlPrompt" value={draft.hitlPrompt} />
          </Field>
        </fieldset>
        <AreaField
          label="Other fields (JSON object of the document's extension fields, kept as they are; blank: none)"
          name="extensions"
          draft={draft}
          errors={errors}
          rows={3}
        />
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
