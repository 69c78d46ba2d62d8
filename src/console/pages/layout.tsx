/** The page frame every console page shares: head, navigation, who is signed in, sign-out, and the main area. */
import type { Child } from 'hono/jsx';

/** Who the page is rendered for; absent on the sign-in page. */
export interface Viewer {
  actor: string;
  role: string;
  /** True when the role may act (operator or admin): action buttons are rendered only then. */
  canAct: boolean;
  /** The session's CSRF token; null for a Bearer request (no session, so no forms that write). */
  csrf: string | null;
}

const NAV = [
  { href: '/console', label: 'Overview', id: 'overview' },
  { href: '/console/tools', label: 'Servers and tools', id: 'tools' },
  { href: '/console/ledger', label: 'Ledger review', id: 'ledger' },
  { href: '/console/approvals', label: 'Approvals', id: 'approvals' },
  { href: '/console/studio', label: 'Tool studio', id: 'studio' },
  { href: '/console/audit', label: 'Audit', id: 'audit' },
] as const;

/** A whole HTML page. */
export function Layout(props: {
  title: string;
  current?: string;
  viewer?: Viewer;
  /** Names a live part the console script refreshes from its event stream. */
  live?: string;
  children?: Child;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Portcullis console`}</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <span class="brand">Portcullis</span>
          {props.viewer ? (
            <nav aria-label="Console">
              {NAV.map((item) => (
                <a href={item.href} aria-current={props.current === item.id ? 'page' : undefined}>
                  {item.label}
                </a>
              ))}
            </nav>
          ) : null}
          {props.viewer ? (
            <div class="who">
              <span>
                {props.viewer.actor} <span class="badge">{props.viewer.role}</span>
              </span>
              {props.viewer.csrf === null ? null : (
                <form method="post" action="/console/logout">
                  <input type="hidden" name="csrf" value={props.viewer.csrf} />
                  <button type="submit" class="link">
                    Sign out
                  </button>
                </form>
              )}
            </div>
          ) : null}
        </header>
        <main id="main" data-live={props.live}>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A time rendered in UTC; the console script rewrites it in the viewer's zone. */
export function Time(props: { iso: string }) {
  const utc = props.iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');
  return <time datetime={props.iso}>{utc}</time>;
}

/** A risk level as a coloured badge. */
export function Level(props: { level: string | null }) {
  return props.level === null ? (
    <span class="muted">–</span>
  ) : (
    <span class={`level level-${props.level.toLowerCase()}`}>{props.level}</span>
  );
}

/** A notice at the top of the page. */
export function Notice(props: { kind: 'ok' | 'error'; children?: Child }) {
  return (
    <p class={`notice notice-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}

/** Serializes a page with its doctype. */
export function html(page: unknown): string {
  return `<!doctype html>${String(page)}`;
}
