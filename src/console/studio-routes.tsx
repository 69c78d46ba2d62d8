/**
 * The console's tool studio routes: the form, and its actions passed to the admin API's spec endpoints
 * (docs/operations.md, "Tool studio"). Writes reach here only after console-app.tsx checked the session, origin and
 * CSRF token; the admin API checks the role (operator for the Local Pass and publishing) and audits.
 */
import type { Hono } from 'hono';
import type { ReviewKit } from './review-routes.tsx';
import type { ConsoleUser } from './door.ts';
import { BLANK_DRAFT, StudioPage, type StudioAnswer, type StudioDraft } from './pages/studio.tsx';

type Env = { Variables: { user: ConsoleUser } };

const OPS = { validate: 'Validate', test: 'Local Pass', publish: 'Publish', draft: 'Save draft' } as const;
type Op = keyof typeof OPS;
const isOp = (value: string): value is Op => Object.hasOwn(OPS, value);

const text = (form: Record<string, unknown>, name: string): string => {
  const value = form[name];
  return typeof value === 'string' ? value.replace(/\r\n/g, '\n') : '';
};

/** The spec document the form describes, or the problem with its params text. */
function specOf(draft: StudioDraft): { spec: object } | { error: StudioAnswer['errors'] } {
  let params: unknown;
  try {
    params = JSON.parse(draft.params === '' ? '[]' : draft.params);
  } catch {
    return { error: [{ code: 'SPEC_PARSE', pointer: '/params', message: 'the params are not valid JSON' }] };
  }
  const name = draft.name.trim();
  return {
    spec: {
      // A blank id is left for the spec model to derive from the name.
      ...(draft.toolId.trim() === '' ? {} : { toolId: draft.toolId.trim() }),
      name,
      description: draft.description,
      category: 'OTHER',
      tags: [],
      params,
      staticVariables: [],
      code: draft.code,
      codeType: 'Javascript',
      sandboxOverrides: {},
      draft: true,
    },
  };
}

/** Adds `/studio` (GET: the form; POST: validate, Local Pass, publish or save a draft). */
export function addStudioRoutes(app: Hono<Env>, kit: ReviewKit): void {
  app.get('/studio', (c) =>
    kit.page(c, <StudioPage viewer={kit.viewerOf(c.get('user'))} draft={BLANK_DRAFT} />),
  );

  app.post('/studio', async (c) => {
    const form = await c.req.parseBody();
    const op = text(form, 'op');
    if (!isOp(op)) return kit.refused(c, 400, `no studio action "${op}"`, true);
    const draft: StudioDraft = {
      name: text(form, 'name'),
      toolId: text(form, 'toolId'),
      description: text(form, 'description'),
      params: text(form, 'params'),
      code: text(form, 'code'),
    };
    const viewer = kit.viewerOf(c.get('user'));
    const built = specOf(draft);
    if ('error' in built) {
      const answer: StudioAnswer = { action: OPS[op], ok: false, errors: built.error ?? [] };
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
