/** The sign-in page (an admin key) and the page shown when a request is refused. */
import { Layout, Notice } from './layout.tsx';

/** The sign-in form; `error` says why the last try failed. */
export function SignInPage(props: { error?: string; loopback: boolean }) {
  return (
    <Layout title="Sign in">
      {props.error === undefined ? null : <Notice kind="error">{props.error}</Notice>}
      {props.loopback ? (
        <p>
          This gateway has no admin keys: the console opens without a key from this machine only. Configure{' '}
          <code>admin.keys</code> to sign in with a role from elsewhere.
        </p>
      ) : (
        <p>
          Sign in with an admin key (from the gateway's <code>admin.keys</code>). Viewers read; operators act.
        </p>
      )}
      <form method="post" action="/console/login" class="card narrow">
        {props.loopback ? null : (
          <label>
            Admin key
            <input type="password" name="key" autocomplete="current-password" required autofocus />
          </label>
        )}
        <button type="submit">Sign in</button>
      </form>
    </Layout>
  );
}

/** A refusal or failure as a page of its own. */
export function ErrorPage(props: { status: number; message: string; signedIn: boolean }) {
  return (
    <Layout
      title={props.status === 403 ? 'Not allowed' : props.status === 404 ? 'Not found' : 'Something failed'}
    >
      <Notice kind="error">{props.message}</Notice>
      <p>
        <a href={props.signedIn ? '/console' : '/console/login'}>
          {props.signedIn ? 'Back to the overview' : 'Sign in'}
        </a>
      </p>
    </Layout>
  );
}
