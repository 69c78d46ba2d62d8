/**
 * W3C trace context in MCP `_meta` (docs/architecture.md): the caller's `traceparent` and `tracestate` are read
 * from a request's `params._meta`, and Portcullis's own are written into the `_meta` it sends upstream.
 */

/** W3C trace context carried in `_meta`. */
export interface MetaTraceContext {
  traceparent?: string;
  tracestate?: string;
}

// The request `_meta` is attacker-controlled: only bounded strings are taken, and the W3C propagator still
// parses (and drops) anything malformed.
const MAX_HEADER_CHARS = 512;

const headerValue = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_HEADER_CHARS ? value : undefined;

/** The W3C trace context of an incoming request's `_meta` (absent keys, non-strings and oversize values are dropped). */
export function traceContextFromMeta(meta: unknown): MetaTraceContext {
  if (meta === null || typeof meta !== 'object') return {};
  const { traceparent, tracestate } = meta as { traceparent?: unknown; tracestate?: unknown };
  const parent = headerValue(traceparent);
  if (parent === undefined) return {};
  const state = headerValue(tracestate);
  return state === undefined ? { traceparent: parent } : { traceparent: parent, tracestate: state };
}
