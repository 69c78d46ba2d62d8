/**
 * The fetch the bench's SDK clients use over Streamable HTTP. That client hands its connection-lifetime AbortSignal
 * to every fetch; undici adds an abort listener per request and drops it only when the Request is
 * garbage-collected, so under load listeners pile up (MaxListenersExceededWarning) and skew the client's own cost.
 */
import { setMaxListeners } from 'node:events';

/** A fetch giving each request its own signal, linked to the lifetime signal while the request or its body is open. */
export const perRequestSignalFetch: typeof fetch = async (input, init) => {
  const outer = init?.signal;
  if (!outer) return fetch(input, init);
  // One listener per request in flight, each removed when its request ends: a count above Node's default of 10
  // is concurrency, not a leak, so the warning is turned off for the lifetime signal (0 = no limit).
  setMaxListeners(0, outer);
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  const release = () => outer.removeEventListener('abort', forward);
  if (outer.aborted) controller.abort(outer.reason);
  else outer.addEventListener('abort', forward, { once: true });
  try {
    const response = await fetch(input, { ...init, signal: controller.signal });
    if (!response.body) {
      release();
      return response;
    }
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        flush() {
          release();
        },
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    release();
    throw error;
  }
};
