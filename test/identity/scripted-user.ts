/**
 * A person at the provider's login and consent pages, scripted: follows the authorization URL through
 * `oidc-provider`'s built-in interaction pages with a cookie jar, signs in as `login` and consents, and returns the
 * parameters the provider redirects back with (code, state, iss).
 */

/** Signs in and consents; resolves with the callback's query parameters. */
export async function signInAndConsent(
  authorizationUrl: URL,
  login: string,
  redirectUri: string,
): Promise<URLSearchParams> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  let url = authorizationUrl.href;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (url.startsWith(redirectUri)) return new URL(url).searchParams;
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body: body.toString() } : {}),
    });
    remember(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const page = await response.text();
    // The built-in pages: a login form, then a consent form, each posting `prompt` to the interaction URL.
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action || response.status !== 200) throw new Error(`unexpected page ${response.status} at ${url}`);
    url = new URL(action, url).href;
    body = page.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the provider did not redirect back');
}
