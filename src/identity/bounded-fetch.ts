/** HTTP to the authorization server with a deadline and a cap on the answer's size (metadata, keys, introspection). */

/** Most bytes read from one authorization-server answer. */
export const MAX_AUTH_RESPONSE_BYTES = 256 * 1024;

/** Deadline of one request to the authorization server. */
export const AUTH_FETCH_TIMEOUT_MS = 5_000;

/** What this domain sends: a method, plain headers and a text body. */
export interface AuthRequestInit {
  method?: string;
  headers?: { [name: string]: string };
  body?: string;
}

/** A fetch function (the global one by default; injected in tests only to observe requests). */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * Fetches and buffers at most `MAX_AUTH_RESPONSE_BYTES` of the body, aborting after the deadline; the answer is a
 * fresh Response over the buffered body, so a slow or endless body cannot hold the request open.
 */
export async function boundedFetch(
  fetchImpl: FetchLike,
  input: string | URL,
  init: AuthRequestInit = {},
): Promise<Response> {
  const signal = AbortSignal.timeout(AUTH_FETCH_TIMEOUT_MS);
  const response = await fetchImpl(input, { ...init, signal, redirect: 'error' });
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_AUTH_RESPONSE_BYTES) {
        await reader.cancel();
        throw new Error(`the answer of ${String(input)} exceeds ${MAX_AUTH_RESPONSE_BYTES} bytes`);
      }
      chunks.push(value);
    }
  }
  return new Response(Buffer.concat(chunks), { status: response.status, headers: response.headers });
}

/** GETs a JSON object; throws on a non-2xx status or a body that is not a JSON object. */
export async function fetchJsonObject(
  fetchImpl: FetchLike,
  url: string,
  init: AuthRequestInit = {},
): Promise<{ readonly [key: string]: unknown }> {
  const response = await boundedFetch(fetchImpl, url, {
    ...init,
    headers: { accept: 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const value: unknown = await response.json();
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${url} did not answer a JSON object`);
  return value as { readonly [key: string]: unknown };
}
