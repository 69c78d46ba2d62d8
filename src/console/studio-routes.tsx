/**
 * The console's tool studio routes: the form (blank, or `?from=<toolId>` to edit a spec of tools.dir), and its
 * actions passed to the admin API's spec endpoints (docs/operations.md, "Tool studio"). Writes reach here only
 * after console-app.tsx checked the session, origin and CSRF token; the admin API checks the role (operator for
 * the Local Pass and publishing) and audits.
 */
import type { Hono } from 'hono';
import { KNOWN_SPEC_FIELDS, PROFILE_FIELD } from '../tool-specs/index.ts';
import type { ReviewKit } from './review-routes.tsx';
import type { ConsoleUser } from './door.ts';
import {
  BLANK_DRAFT,
  StudioPage,
  type StudioAnswer,
  type StudioDraft,
  type StudioProblem,
} from './pages/studio.tsx';

type Env = { Variables: { user: ConsoleUser } };

const OPS = { validate: 'Validate', test: 'Local Pass', publish: 'Publish', draft: 'Save draft' } as const;
type Op = keyof typeof OPS;
const isOp = (value: string): value is Op => Object.hasOwn(OPS, value);

/** Fields the form has inputs for; every other top-level field of a document is an extension field. */
const FORM_FIELDS = new Set<string>([...KNOWN_SPEC_FIELDS, PROFILE_FIELD]);

const text = (form: Record<string, unknown>, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value.replace(/\r\n/g, '\n') : '';
};
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

/** The form filled from a spec document as the admin API read it. */
function draftOf(doc: Record<string, unknown>, from: string): StudioDraft {
  const hitl = doc['humanInTheLoop'];
  const approval =
    hitl !== null && typeof hitl === 'object'
      ? (hitl as Record<string, unknown>)
      : ({} as Record<string, unknown>);
  const extensions = Object.entries(doc).filter(([key]) => !FORM_FIELDS.has(key));
  const created = doc['createTimestamp'];
  return {
    name: str(doc['name']),
    toolId: str(doc['toolId']),
    description: str(doc['description']),
    category: str(doc['category']),
    tags: Array.isArray(doc['tags']) ? doc['tags'].map(str).join(', ') : '',
    params: pretty(doc['params'] ?? []),
    staticVariables: pretty(doc['staticVariables'] ?? []),
    code: str(doc['code']),
    sandboxProfile: str(doc[PROFILE_FIELD]),
    sandboxOverrides: pretty(doc['sandboxOverrides'] ?? {}),
    hitlMode: str(approval['mode']),
    hitlPrompt: str(approval['promptTemplate']),
    extensions: extensions.length === 0 ? '' : pretty(Object.fromEntries(extensions)),
    createTimestamp: typeof created === 'number' ? String(created) : '',
    from,
  };
}

/** The form as typed, from a post. */
function draftFromForm(form: Record<string, unknown>): StudioDraft {
  const draft = { ...BLANK_DRAFT };
  for (const key of Object.keys(BLANK_DRAFT) as Array<keyof StudioDraft>) draft[key] = text(form, key);
  return draft;
}

/** The spec document the form describes, or the problems of its JSON fields (each at its field). */
function specOf(draft: StudioDraft): { spec: Record<string, unknown> } | { errors: StudioProblem[] } {
  const errors: StudioProblem[] = [];
  const json = (field: keyof StudioDraft, what: string, blank: string): unknown => {
    try {
      return JSON.parse(draft[field].trim() === '' ? blank : draft[field]);
    } catch {
      errors.push({ code: 'SPEC_PARSE', pointer: `/${field}`, message: `the ${what} are not valid JSON` });
      return undefined;
    }
  };
  const params = json('params', 'params', '[]');
  const staticVariables = json('staticVariables', 'static variables', '[]');
  const sandboxOverrides = json('sandboxOverrides', 'sandbox overrides', '{}');
  const extensions = json('extensions', 'other fields', '{}');
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (extensions !== undefined && !isObject(extensions))
    errors.push({
      code: 'SPEC_PARSE',
      pointer: '/extensions',
      message: 'the other fields must be a JSON object',
    });
  const repeated = isObject(extensions) ? Object.keys(extensions).filter((key) => FORM_FIELDS.has(key)) : [];
  if (repeated.length > 0)
    errors.push({
      code: 'SPEC_PARSE',
      pointer: '/extensions',
      message: `set ${repeated.join(', ')} in its own field, not among the other fields`,
    });
  const mode = draft.hitlMode.trim();
  const prompt = draft.hitlPrompt;
  if (mode === '' && prompt.trim() !== '')
    errors.push({
      code: 'SPEC_INVARIANT',
      pointer: '/humanInTheLoop/promptTemplate',
      message: 'a prompt template needs an approval mode',
    });
  if (errors.length > 0) return { errors };

  const name = draft.name.trim();
  const toolId = draft.toolId.trim();
  const category = draft.category.trim();
  const profile = draft.sandboxProfile.trim();
  const created = draft.createTimestamp.trim();
  const spec: Record<string, unknown> = {
    // A blank id is left for the spec model to derive from the name.
    ...(toolId === '' ? {} : { toolId }),
    name,
    description: draft.description,
    category: category === '' ? null : category,
    tags: draft.tags
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
    params,
    staticVariables,
    code: draft.code,
    codeType: 'Javascript',
    sandboxOverrides,
    ...(mode === ''
      ? {}
      : { humanInTheLoop: { mode, ...(prompt === '' ? {} : { promptTemplate: prompt }) } }),
    draft: true,
    ...(/^\d{1,15}$/.test(created) ? { createTimestamp: Number(created) } : {}),
    ...(profile === '' ? {} : { [PROFILE_FIELD]: profile }),
  };
  // Own-property writes: an extension key such as "__proto__" stays data.
  for (const [key, value] of Object.entries(extensions as Record<string, unknown>))
    Object.defineProperty(spec, key, { value, enumerable: true, writable: true, configurable: true });
  return { spec };
}

/** Adds `/studio` (GET: the form, `?from=<toolId>` filled from tools.dir; POST: validate, pass, publish, draft). */
export function addStudioRoutes(app: Hono<Env>, kit: ReviewKit): void {
  app.get('/studio', async (c) => {
    const viewer = kit.viewerOf(c.get('user'));
    const from = c.req.query('from');
    if (from === undefined) return kit.page(c, <StudioPage viewer={viewer} draft={BLANK_DRAFT} />);
    const read = await kit
      .client(c)
      .get<{ toolId: string; spec: Record<string, unknown> }>(`/specs/${encodeURIComponent(from)}`);
    if (!read.ok) {
      const status = read.status === 400 || read.status === 403 || read.status === 404 ? read.status : 500;
      const why = read.error === undefined ? `the admin API answered ${read.status}` : read.error.message;
      return kit.refused(c, status, `${read.error?.code ?? 'INTERNAL'}: ${why}`, true);
    }
    return kit.page(c, <StudioPage viewer={viewer} draft={draftOf(read.body.spec, read.body.toolId)} />);
  });

  app.post('/studio', async (c) => {
    const form = await c.req.parseBody();
    const op = text(form, 'op');
    if (!isOp(op)) return kit.refused(c, 400, `no studio action "${op}"`, true);
    const draft = draftFromForm(form);
    const viewer = kit.viewerOf(c.get('user'));
    const built = specOf(draft);
    if ('errors' in built) {
      const answer: StudioAnswer = { action: OPS[op], ok: false, errors: built.errors };
      return kit.page(c, <StudioPage viewer={viewer} draft={draft} answer={answer} />, 400);
    }
    const route = op === 'validate' ? '/specs/validate' : op === 'test' ? '/specs/test' : '/specs/publish';
    const reply = await kit.client(c).post<Omit<StudioAnswer, 'action'>>(route, {
      spec: built.spec,
      ...(op === 'draft' ? { draft: true } : {}),
    });
    if (!reply.ok) {
      const status =
        reply.status === 403 || reply.status === 404 ? reply.status : reply.status === 400 ? 400 : 500;
      return kit.refused(c, status, reply.error?.message ?? `the admin API answered ${reply.status}`, true);
    }
    const answer: StudioAnswer = { ...reply.body, action: OPS[op] };
    return kit.page(c, <StudioPage viewer={viewer} draft={draft} answer={answer} />, answer.ok ? 200 : 400);
  });
}
