/**
 * The console reads and acts only through the admin API, called in-process with the signed-in person's own
 * credential: the admin API's guard decides every call again (role, keys, loopback), audits every action with the
 * same actor as a scripted call would, and the console holds no second path to the gateway's state. The hono
 * environment of the browser's request is passed on, so the admin guard sees the real peer address.
 */

/** The admin API app as the console calls it (hono's `app.request`). */
export interface AdminApp {
  request(input: string, init: RequestInit, env?: unknown): Response | Promise<Response>;
}

/** An admin API answer: its status and parsed JSON (or text for non-JSON answers). */
export interface AdminAnswer<T> {
  status: number;
  ok: boolean;
  body: T;
  /** The admin API's error, when it refused. */
  error?: { code: string; message: string };
}

/** Calls the admin API as one signed-in person. */
export interface AdminClient {
  get<T>(path: string): Promise<AdminAnswer<T>>;
  /** The raw response (for exports streamed back as they are). */
  raw(path: string): Promise<Response>;
  post<T>(path: string, body: object): Promise<AdminAnswer<T>>;
}

/** A client over `app` presenting `authorization` (null in loopback mode) from the hono `env` of the request. */
export function adminClient(app: AdminApp, authorization: string | null, env: unknown): AdminClient {
  const headers = (json: boolean): Record<string, string> => ({
    ...(authorization === null ? {} : { authorization }),
    ...(json ? { 'content-type': 'application/json' } : {}),
  });
  const call = (path: string, init: RequestInit) =>
    Promise.resolve(app.request(`http://console.internal${path}`, init, env));
  const answer = async <T>(response: Response): Promise<AdminAnswer<T>> => {
    const parsed: unknown = await response.json().catch(() => null);
    const error =
      !response.ok && parsed !== null && typeof parsed === 'object' && 'error' in parsed
        ? (parsed.error as { code: string; message: string })
        : undefined;
    return {
      status: response.status,
      ok: response.ok,
      body: parsed as T,
      ...(error === undefined ? {} : { error }),
    };
  };
  return {
    get: async (path) => answer(await call(path, { method: 'GET', headers: headers(false) })),
    raw: (path) => call(path, { method: 'GET', headers: headers(false) }),
    post: async (path, body) =>
      answer(await call(path, { method: 'POST', headers: headers(true), body: JSON.stringify(body) })),
  };
}
