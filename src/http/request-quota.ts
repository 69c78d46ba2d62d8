/**
 * How many 2026-era requests one principal may have running at once. A 2026-era request has no session, so the
 * 2025-era limits (sessions per principal, requests per session) do not reach it; this one does. A request holds
 * its slot until its answer has been read to the end or abandoned, so a streamed answer still counts while the
 * upstream works.
 */

/** The per-principal count of running requests. */
export interface RequestQuota {
  /** Takes a slot for `principal`; returns its release (call once the request is over), or undefined when full. */
  admit(principal: string): (() => void) | undefined;
  /** Requests running for `principal`. */
  running(principal: string): number;
}

/** Creates a quota of `max` running requests per principal. */
export function createRequestQuota(max: number): RequestQuota {
  const counts = new Map<string, number>();
  return {
    admit(principal) {
      const count = counts.get(principal) ?? 0;
      if (count >= max) return undefined;
      counts.set(principal, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(principal) ?? 1) - 1;
        if (left === 0) counts.delete(principal);
        else counts.set(principal, left);
      };
    },
    running: (principal) => counts.get(principal) ?? 0,
  };
}

/**
 * Calls `release` once `response` is over: at once when it has no body, else when its body has been read to the
 * end, has failed, or was cancelled (the client went away).
 */
export function releaseWhenAnswered(response: Response, release: () => void): Response {
  const body = response.body;
  if (body === null) {
    release();
    return response;
  }
  const reader = body.getReader();
  const tracked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
  return new Response(tracked, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
