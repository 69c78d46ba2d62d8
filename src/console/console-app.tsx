/**
 * The operator's console at /console (docs/console.md): server-rendered pages over the admin API, behind the admin
 * roles. Every response carries the strict headers of policy.ts; every route but the sign-in page and the two
 * static assets needs a user (door.ts); every write needs a session, a same-origin page and the session's CSRF
 * token, and then goes to the admin API, which checks the role and audits the action.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { adminClient, type AdminApp, type AdminClient } from './admin-client.ts';
import type {
  ApprovalView,
  AuditPageView,
  ChainVerdictView,
  OverviewView,
  ServerView,
  ToolView,
} from './admin-types.ts';
import { CONSOLE_CSS, CONSOLE_JS } from './assets.ts';
import { clearSessionCookie, decideAsRead, resolveUser, sessionIdOf, setSessionCookie } from './door.ts';
import type { ConsoleUser, DoorDeps } from './door.ts';
import { AuditPage, type AuditFilters, auditQueryOf } from './pages/audit.tsx';
import { html, type Viewer } from './pages/layout.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { ErrorPage, SignInPage } from './pages/sign-in.tsx';
import { filterTools, ToolsPage, type ToolFilters } from './pages/tools.tsx';
import { CONSOLE_HEADERS, crossOriginWrite } from './policy.ts';
import { addReviewRoutes } from './review-routes.tsx';
import { addStudioRoutes } from './studio-routes.tsx';
import { createSessions, SESSION_DEFAULTS, type SessionOptions } from './sessions.ts';
import {
  clientKeyOf,
  createSignInLimiter,
  SIGN_IN_LIMIT_DEFAULTS,
  type SignInLimitOptions,
} from './sign-in-limit.ts';

/** What the console is built from. */
export interface ConsoleDeps extends Omit<DoorDeps, 'sessions'> {
  /** The admin API app, called in-process (admin-client.ts says why). */
  adminApi: AdminApp;
  /** The gateway's Host check (DNS rebinding); a reason when the Host is not allowed. */
  checkHost(request: Request): string | undefined;
  /** A trace UI link with `{traceId}`, from `console.traceUrl`. */
  traceUrl: string | undefined;
  now(): number;
  /** Session lifetimes (defaults: sessions.ts). */
  sessions?: Partial<Omit<SessionOptions, 'now'>>;
  /** The peer's socket address (the sign-in limit's key); undefined when unknown. */
  peerOf(c: Context): string | undefined;
  /** The sign-in attempt limit (defaults: sign-in-limit.ts). */
  signInLimit?: Partial<Omit<SignInLimitOptions, 'now'>>;
  /** Structured log sink (the gateway's masked logger). */
  log?(event: string, fields: Record<string, unknown>, level: 'warn'): void;
}

type Env = { Variables: { user: ConsoleUser } };

const LEDGER_ACTIONS = new Set(['approve', 'revoke', 'restore']);
const FORM_MAX_BYTES = 16 * 1024;
const formLimit = bodyLimit({ maxSize: FORM_MAX_BYTES, onError: (c) => c.text('Payload Too Large', 413) });
// A studio form carries a whole spec (the admin API takes 64 KiB of JSON); URL-encoding can double its size.
const studioLimit = bodyLimit({ maxSize: 128 * 1024, onError: (c) => c.text('Payload Too Large', 413) });
const field = (form: Record<string, unknown>, name: string) =>
  typeof form[name] === 'string' ? (form[name] as string) : '';

/** Builds the console's routes (mounted at /console). */
export function createConsole(deps: ConsoleDeps): Hono<Env> {
  const options = { ...SESSION_DEFAULTS, ...deps.sessions, now: deps.now };
  const sessions = createSessions(options);
  const door: DoorDeps = { access: deps.access, factsOf: deps.factsOf, sessions };
  const maxAge = Math.floor(options.absoluteMs / 1000);
  const limit = { ...SIGN_IN_LIMIT_DEFAULTS, ...deps.signInLimit, now: deps.now };
  const signIns = createSignInLimiter(limit);
  const app = new Hono<Env>();

  const page = (c: Context, body: unknown, status: 200 | 400 | 401 | 403 | 404 | 429 | 500 = 200) =>
    c.html(html(body), status);
  const viewerOf = (user: ConsoleUser): Viewer => ({
    actor: user.actor,
    role: user.role,
    canAct: user.role !== 'viewer',
    csrf: user.session?.csrf ?? null,
  });
  const client = (c: Context<Env>): AdminClient =>
    adminClient(deps.adminApi, c.get('user').authorization, c.env);
  const refused = (
    c: Context,
    status: 400 | 401 | 403 | 404 | 415 | 500,
    message: string,
    signedIn: boolean,
  ) =>
    page(
      c,
      <ErrorPage status={status} message={message} signedIn={signedIn} />,
      status === 415 ? 400 : status,
    );

  app.use('*', async (c, next) => {
    const host = deps.checkHost(c.req.raw);
    if (host !== undefined) {
      c.res = new Response(`Forbidden: ${host}`, { status: 403 });
    } else {
      await next();
    }
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) c.res.headers.set(name, value);
  });
  app.onError((_error, c) =>
    refused(c, 500, 'The console failed to render this page; see the gateway log.', false),
  );

  app.get('/assets/console.css', (c) =>
    c.body(CONSOLE_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }),
  );
  app.get('/assets/console.js', (c) =>
    c.body(CONSOLE_JS, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );

  app.get('/login', (c) => {
    const who = resolveUser(door, c, maxAge);
    if (who.ok) return c.redirect('/console', 303);
    return page(c, <SignInPage loopback={deps.access.mode === 'loopback'} />);
  });

  /** The limit's refusal, or undefined when the client may try; read before any key is. */
  const limited = (c: Context, client: string): Response | Promise<Response> | undefined => {
    const wait = signIns.retryAfter(client);
    if (wait === 0) return undefined;
    // Refused before the key is read: a limited client learns nothing more about any key.
    const error =
      `SIGN_IN_RATE_LIMITED: too many failed sign-ins from your address. Wait ${Math.ceil(wait / 60)} ` +
      `minute(s), then sign in again with a key from admin.keys; sign-ins from other addresses are not affected.`;
    c.header('Retry-After', String(wait));
    return page(c, <SignInPage loopback={deps.access.mode === 'loopback'} error={error} />, 429);
  };
  const failedSignIn = (client: string): void => {
    if (!signIns.failed(client)) return;
    deps.log?.(
      'console.sign_in_limited',
      {
        client,
        failures: limit.maxFailures,
        windowSeconds: Math.round(limit.windowMs / 1000),
        action: 'sign-ins from this client are refused until the window ends',
      },
      'warn',
    );
  };

  app.post('/login', formLimit, async (c) => {
    const crossOrigin = crossOriginWrite(c.req.raw);
    if (crossOrigin !== undefined) return refused(c, 403, `Forbidden: ${crossOrigin}.`, false);
    const loopback = deps.access.mode === 'loopback';
    const client = clientKeyOf(deps.peerOf(c));
    const refusal = limited(c, client);
    if (refusal !== undefined) return refusal;
    const form = await c.req.parseBody();
    const key = field(form, 'key').trim();
    const authorization = key === '' ? null : `Bearer ${key}`;
    const decision = decideAsRead(door, c, loopback ? null : authorization);
    if (!decision.ok) {
      failedSignIn(client);
      const error = decision.status === 401 ? 'That key was not accepted.' : decision.message;
      return page(c, <SignInPage loopback={loopback} error={error} />, 401);
    }
    sessions.close(sessionIdOf(c));
    const opened = sessions.open({
      actor: decision.actor,
      role: decision.role,
      authorization: loopback ? null : authorization,
    });
    setSessionCookie(c, opened.id, maxAge);
    return c.redirect('/console', 303);
  });

  app.use('*', async (c, next) => {
    const who = resolveUser(door, c, maxAge);
    if (!who.ok) {
      if (who.status === 401 && c.req.method === 'GET' && c.req.header('authorization') === undefined)
        return c.redirect('/console/login', 303);
      return refused(c, who.status, who.message, false);
    }
    c.set('user', who.user);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const crossOrigin = crossOriginWrite(c.req.raw);
      if (crossOrigin !== undefined) return refused(c, 403, `Forbidden: ${crossOrigin}.`, true);
      const session = who.user.session;
      if (session === null)
        return refused(c, 403, 'Forbidden: console actions need a signed-in session.', true);
      const cap = c.req.path.endsWith('/studio') ? studioLimit : formLimit;
      const tooLarge = await cap(c, async () => undefined);
      if (tooLarge instanceof Response) return tooLarge;
      const form = await c.req.parseBody();
      if (!sessions.csrfMatches(session, form.csrf))
        return refused(
          c,
          403,
          'Forbidden: the form is stale or was not sent by the console; reload it.',
          true,
        );
    }
    await next();
  });

  /** A page's admin reads; a 401 from the admin API ends the session (its key no longer admits it). */
  const read = async <T,>(c: Context<Env>, path: string): Promise<T | Response> => {
    const answer = await client(c).get<T>(path);
    if (answer.ok) return answer.body;
    if (answer.status === 401) {
      sessions.close(sessionIdOf(c));
      clearSessionCookie(c);
      return c.redirect('/console/login', 303);
    }
    const status = answer.status === 403 || answer.status === 404 ? answer.status : 500;
    return refused(c, status, answer.error?.message ?? `the admin API answered ${answer.status}`, true);
  };

  app.post('/logout', (c) => {
    sessions.close(sessionIdOf(c));
    clearSessionCookie(c);
    return c.redirect('/console/login', 303);
  });

  app.get('/', async (c) => {
    const [servers, overview, inbox] = await Promise.all([
      read<{ servers: ServerView[] }>(c, '/servers'),
      read<OverviewView>(c, '/overview'),
      client(c).get<{ approvals: ApprovalView[] }>('/approvals'),
    ]);
    if (servers instanceof Response) return servers;
    if (overview instanceof Response) return overview;
    // No inbox route (404) means no approval channel sends calls to the console.
    const waiting = inbox.ok ? inbox.body.approvals.filter((a) => a.status === 'pending').length : null;
    return page(
      c,
      <OverviewPage
        viewer={viewerOf(c.get('user'))}
        servers={servers.servers}
        overview={overview}
        waitingApprovals={waiting}
      />,
    );
  });

  app.get('/tools', async (c) => {
    const [tools, servers] = await Promise.all([
      read<{ tools: ToolView[] }>(c, '/tools'),
      read<{ servers: ServerView[] }>(c, '/servers'),
    ]);
    if (tools instanceof Response) return tools;
    if (servers instanceof Response) return servers;
    const q = c.req.query();
    const filters: ToolFilters = {
      q: q.q ?? '',
      upstream: q.upstream ?? '',
      level: q.level ?? '',
      status: q.status ?? '',
    };
    const done = q.done !== undefined && LEDGER_ACTIONS.has(q.done) ? q.done : undefined;
    const kept = new URLSearchParams(new URL(c.req.url).search);
    kept.delete('done');
    kept.delete('target');
    const back = `/console/tools${kept.size === 0 ? '' : `?${kept}`}`;
    return page(
      c,
      <ToolsPage
        viewer={viewerOf(c.get('user'))}
        tools={filterTools(tools.tools, filters)}
        total={tools.tools.length}
        servers={servers.servers}
        filters={filters}
        back={back}
        {...(done === undefined ? {} : { notice: `Done: ${done} ${q.target ?? ''}` })}
      />,
    );
  });

  app.post('/tools/ledger', async (c) => {
    const form = await c.req.parseBody();
    const action = field(form, 'action');
    if (!LEDGER_ACTIONS.has(action)) return refused(c, 404, `no ledger action "${action}"`, true);
    const upstream = field(form, 'upstream');
    const tool = field(form, 'tool');
    const reason = field(form, 'reason').trim();
    const answer = await client(c).post(`/ledger/${action}`, {
      upstream,
      tool,
      ...(reason === '' ? {} : { reason }),
    });
    if (!answer.ok) {
      const status = answer.status === 403 || answer.status === 404 ? answer.status : 500;
      return refused(c, status, answer.error?.message ?? `the admin API answered ${answer.status}`, true);
    }
    const back = field(form, 'back');
    const to = new URL(
      /^\/console\/tools(\?|$)/.test(back) ? back : '/console/tools',
      'http://console.local',
    );
    to.searchParams.set('done', action);
    to.searchParams.set('target', `${upstream}::${tool}`);
    return c.redirect(`${to.pathname}${to.search}`, 303);
  });

  addReviewRoutes(app, { page, refused, read, client, viewerOf, now: deps.now });
  addStudioRoutes(app, { page, refused, read, client, viewerOf, now: deps.now });

  const auditFilters = (c: Context): AuditFilters => {
    const q = c.req.query();
    return {
      since: q.since ?? '',
      until: q.until ?? '',
      principal: q.principal ?? '',
      profile: q.profile ?? '',
      tool: q.tool ?? '',
      decision: q.decision ?? '',
      outcome: q.outcome ?? '',
    };
  };

  app.get('/audit', async (c) => {
    const filters = auditFilters(c);
    const query = auditQueryOf(filters);
    const cursor = c.req.query('cursor');
    if (cursor !== undefined) query.set('cursor', cursor);
    query.set('limit', '50');
    const [rows, verdict] = await Promise.all([
      client(c).get<AuditPageView>(`/audit?${query}`),
      read<ChainVerdictView>(c, '/audit/verify'),
    ]);
    if (verdict instanceof Response) return verdict;
    const viewer = viewerOf(c.get('user'));
    const props = { viewer, verdict, filters, traceUrl: deps.traceUrl };
    if (!rows.ok) {
      if (rows.status !== 400)
        return refused(c, rows.status === 403 ? 403 : 500, rows.error?.message ?? '', true);
      const page0 = { entries: [], nextCursor: null };
      return page(c, <AuditPage {...props} page={page0} error={rows.error?.message ?? 'bad filter'} />, 400);
    }
    return page(c, <AuditPage {...props} page={rows.body} />);
  });

  app.get('/audit/export', async (c) => {
    const response = await client(c).raw(`/audit/export?${auditQueryOf(auditFilters(c))}`);
    if (!response.ok) return refused(c, response.status === 403 ? 403 : 500, 'the export was refused', true);
    return c.body(await response.text(), 200, {
      'content-type': response.headers.get('content-type') ?? 'application/x-ndjson',
      'content-disposition': response.headers.get('content-disposition') ?? 'attachment',
    });
  });

  app.all('*', (c) => refused(c, 404, 'There is no such console page.', true));
  return app;
}
