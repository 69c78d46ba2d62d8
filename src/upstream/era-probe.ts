/**
 * The 2026-era discovery of an upstream, on the gateway's own terms: one `server/discover` request (under a
 * string id, so it can never meet a link's numeric ones) carrying the 2026-era `_meta` envelope, sent on a raw
 * started transport before any link runs on it, and its answer read as the SDK client read it. In `auto` mode
 * (`protocol: auto`, probeEra) a 2025-era answer is a verdict, not a failure: an error answer, a result that is no
 * discovery of a version the gateway speaks, and on stdio a probe the process exits on or stays silent to. Over
 * HTTP an authorization refusal, a 5xx, a network failure or silence is an outage and fails the connect. In
 * `pin` mode (`protocol: modern`, negotiateModern) anything but a discovery offering 2026-07-28 fails the connect.
 *
 * probeEra runs on a connection of its own. A 2025-era peer that answered the probe (an error, as such servers
 * answer an unknown method) and is still there keeps its connection: the link's handshake runs on it, so such an
 * upstream costs one process, not two. One that stayed silent or exited gets a new one (a late answer to the probe
 * could otherwise meet the link's first request). A 2026-era peer keeps its connection too: the era holds no
 * session, so the link goes on on it with the discovery the probe read.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  type DiscoverResult,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { isRecord, MODERN_PROTOCOL_VERSION } from '../shared/index.ts';
import { RESULT_CHECKS } from './shapes.ts';
import { describeError, GATEWAY_CLIENT_INFO, gatewayCapabilities } from './link-support.ts';
import { createTransport, type TransportContext } from './transports.ts';

/**
 * The era of an upstream, with the discovery a modern one answered. A verdict may hand over the probe's own
 * connection, started and still open, for the link to run on (no second process or stream).
 */
export type EraVerdict =
  | { era: 'legacy'; open?: Transport | undefined }
  | { era: 'modern'; discover: DiscoverResult; open?: Transport | undefined };

/** Stderr lines of a probe process kept until its connection is handed over (the rest are dropped). */
const MAX_HELD_STDERR_LINES = 50;

/** The JSON-RPC code of a 2026-era server refusing the protocol version a request claimed. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** Versions of a `supported` list read at most (the list is the upstream's). */
const MAX_LISTED_VERSIONS = 32;

/** The `_meta` envelope every 2026-era request and notification of the gateway carries. */
export function modernEnvelope(config: Pick<UpstreamConfig, 'sampling'>): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: MODERN_PROTOCOL_VERSION,
    [CLIENT_INFO_META_KEY]: GATEWAY_CLIENT_INFO,
    [CLIENT_CAPABILITIES_META_KEY]: gatewayCapabilities(config),
  };
}

/** How the one probe exchange ended. */
type Reply =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'send-error'; error: unknown }
  | { kind: 'closed' }
  | { kind: 'timeout' };

/** A probe exchange on a started transport, and what it saw of the connection. */
interface Exchange {
  readonly reply: Promise<Reply>;
  /** An answer (result or error) came back: the peer reads and writes JSON-RPC on this connection. */
  answered(): boolean;
  /** The connection closed. */
  closed(): boolean;
}

let probeCounter = 0;

/**
 * Sends `server/discover` on `transport` (already started) and waits `timeoutMs` for its answer. The transport's
 * handlers are the exchange's until it ends; they are cleared then, for the link that takes the transport over.
 */
function exchange(transport: Transport, envelope: Record<string, unknown>, timeoutMs: number): Exchange {
  const id = `server-discover-probe-${++probeCounter}`;
  let answered = false;
  let closed = false;
  let settle: (reply: Reply) => void = () => {};
  const reply = new Promise<Reply>((resolve) => {
    const timer = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
    settle = (value) => {
      settle = () => {};
      clearTimeout(timer);
      resolve(value);
    };
  });
  transport.onmessage = (message) => {
    const raw = message as unknown;
    if (!isRecord(raw) || raw.id !== id) return;
    if ('result' in raw) {
      answered = true;
      settle({ kind: 'result', result: raw.result });
    } else if ('error' in raw) {
      answered = true;
      settle({ kind: 'error', error: raw.error });
    }
  };
  transport.onclose = () => {
    closed = true;
    settle({ kind: 'closed' });
  };
  transport.onerror = () => {};
  const request = { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: envelope } };
  transport.send(request as JSONRPCMessage).catch((error: unknown) => settle({ kind: 'send-error', error }));
  void reply.then(() => {
    // Whatever comes later is the next owner's; the close is still seen, for closed().
    transport.onmessage = undefined;
    transport.onerror = undefined;
    transport.onclose = () => (closed = true);
  });
  return { reply, answered: () => answered, closed: () => closed };
}

/** Whether a reply refuses the version asked for while listing 2026-07-28 among those supported. */
function refusedListed(reply: Reply): boolean {
  if (reply.kind !== 'error' || !isRecord(reply.error) || reply.error.code !== UNSUPPORTED_PROTOCOL_VERSION)
    return false;
  const data = reply.error.data;
  return (
    isRecord(data) &&
    Array.isArray(data.supported) &&
    data.supported.slice(0, MAX_LISTED_VERSIONS).includes(MODERN_PROTOCOL_VERSION)
  );
}

/**
 * The probe exchange, asked once more when the server refused the version while listing it as supported (the
 * SDK client's one corrective retry); a second such refusal is the verdict's to read.
 */
function discoverExchange(
  transport: Transport,
  envelope: Record<string, unknown>,
  timeoutMs: number,
): Exchange {
  const first = exchange(transport, envelope, timeoutMs);
  let current = first;
  const reply = first.reply.then((answer) => {
    if (!refusedListed(answer)) return answer;
    current = exchange(transport, envelope, timeoutMs);
    return current.reply;
  });
  return { reply, answered: () => first.answered(), closed: () => current.closed() };
}

const eraFailure = (why: string) =>
  new SdkError(SdkErrorCode.EraNegotiationFailed, `Version negotiation failed: ${why}`);

/** The HTTP status of a transport's send failure (the SDK transports' SdkHttpError carries it in `data`). */
function httpStatusOf(error: unknown): number | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  const status = isRecord(data) ? data.status : (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** The JSON-RPC error an HTTP error answer's body holds, if it holds one. */
function rpcErrorInBody(error: unknown): unknown {
  const data = (error as { data?: unknown } | null)?.data;
  const text = isRecord(data) ? data.text : undefined;
  if (typeof text !== 'string' || text.length > 65_536) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return isRecord(body) && isRecord(body.error) ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The verdict of a probe's reply: the discovery of a 2026-era server, 'legacy' (in auto mode only), or a thrown
 * connect error. `stdio`: silence and a close are a 2025-era server's, not an outage.
 */
function verdictOf(reply: Reply, auto: boolean, stdio: boolean): DiscoverResult | 'legacy' {
  const legacy = (why: string): 'legacy' => {
    if (auto) return 'legacy';
    throw eraFailure(
      `${why} before the server offered pinned protocol version ${MODERN_PROTOCOL_VERSION} (no fallback in pin mode)`,
    );
  };
  switch (reply.kind) {
    case 'result': {
      if (RESULT_CHECKS['server/discover']?.(reply.result) !== undefined)
        return legacy('the server answered server/discover with no discovery');
      const discover = reply.result as DiscoverResult;
      if (discover.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) return discover;
      return legacy(
        `the server's server/discover offers ${listed(discover.supportedVersions)} but not ${MODERN_PROTOCOL_VERSION}`,
      );
    }
    case 'error':
      return errorVerdict(reply.error, legacy);
    case 'send-error': {
      const { error } = reply;
      const status = httpStatusOf(error);
      if ((error as { name?: unknown } | null)?.name === 'UnauthorizedError') throw error;
      if (status === 401 || status === 403) {
        throw new SdkError(
          status === 401 ? SdkErrorCode.ClientHttpAuthentication : SdkErrorCode.ClientHttpForbidden,
          `Version negotiation failed: ${status === 401 ? 'the server requires authorization' : 'the server denied access'} (HTTP ${status})`,
          { status },
          { cause: error },
        );
      }
      if (status === undefined || status >= 500) {
        const why = status === undefined ? describeError(error) : `the server answered with HTTP ${status}`;
        throw new SdkError(
          SdkErrorCode.EraNegotiationFailed,
          `Version negotiation probe failed: ${why}`,
          undefined,
          {
            cause: error,
          },
        );
      }
      const rpcError = rpcErrorInBody(error);
      return rpcError === undefined
        ? legacy(`the server answered the probe with HTTP ${status}`)
        : errorVerdict(rpcError, legacy);
    }
    case 'closed':
      if (stdio) return legacy('the connection closed during the server/discover probe');
      throw eraFailure('the connection closed during the server/discover probe');
    case 'timeout':
      if (stdio) return legacy('the server did not answer server/discover');
      throw new SdkError(SdkErrorCode.RequestTimeout, 'Version negotiation probe timed out');
  }
}

/** The verdict of a JSON-RPC error answer to the probe. */
function errorVerdict(error: unknown, legacy: (why: string) => 'legacy'): 'legacy' {
  const code = isRecord(error) ? error.code : undefined;
  const data = isRecord(error) ? error.data : undefined;
  const supported = isRecord(data) && Array.isArray(data.supported) ? data.supported : undefined;
  if (code === UNSUPPORTED_PROTOCOL_VERSION && supported !== undefined) {
    const modern = supported
      .slice(0, MAX_LISTED_VERSIONS)
      .filter((v): v is string => typeof v === 'string' && v >= MODERN_PROTOCOL_VERSION);
    if (modern.includes(MODERN_PROTOCOL_VERSION)) {
      throw eraFailure(`the server refused ${MODERN_PROTOCOL_VERSION} twice while listing it as supported`);
    }
    // A server that speaks another 2026-era revision only is no 2025-era server to fall back to.
    if (modern.length > 0) {
      throw eraFailure(
        `the server supports ${listed(modern)}, not ${MODERN_PROTOCOL_VERSION}, the version the gateway speaks`,
      );
    }
  }
  return legacy(
    `the server answered server/discover with error ${typeof code === 'number' ? code : '(no code)'}`,
  );
}

/** A short list of versions for a message (the list is the upstream's). */
const listed = (versions: readonly unknown[]) =>
  versions
    .slice(0, 8)
    .map((v) => String(v).slice(0, 32))
    .join(', ') || '(none)';

/**
 * The discovery of a `protocol: modern` upstream on `transport` (started here): rejects unless it offers
 * 2026-07-28. The transport is left started and handler-free for the link.
 */
export async function negotiateModern(
  config: UpstreamConfig,
  transport: Transport,
  timeoutMs: number,
): Promise<DiscoverResult> {
  await transport.start();
  const { reply } = discoverExchange(transport, modernEnvelope(config), timeoutMs);
  return verdictOf(await reply, false, config.transport === 'stdio') as DiscoverResult;
}

/**
 * Probes the upstream's era within `probeTimeoutMs` and `deadline` (in all), on a connection of its own; rejects
 * with the transport's or a negotiation error (an HTTP outage, an authorization refusal) or the deadline's reason.
 */
export async function probeEra(
  config: UpstreamConfig,
  context: TransportContext,
  probeTimeoutMs: number,
  deadline: AbortSignal,
): Promise<EraVerdict> {
  // The probe's stderr is read (the orphan watchdog follows the process until it ends) and held: it reaches the
  // link's stderr tail if the process becomes the link, and is dropped otherwise.
  const held: string[] = [];
  let stderrSink = (line: string) => {
    if (held.length < MAX_HELD_STDERR_LINES) held.push(line);
  };
  const transport = createTransport(config, { ...context, onStderr: (line) => stderrSink(line) });
  // Only closing the transport ends a probe in flight.
  const onDeadline = () => void transport.close().catch(() => {});
  deadline.addEventListener('abort', onDeadline, { once: true });
  let handedOver = false;
  /** The probe's connection for the link, with the probe process's stderr so far passed to the link's. */
  const adopt = (): Transport => {
    handedOver = true;
    const onStderr = context.onStderr ?? (() => {});
    for (const line of held.splice(0)) onStderr(line);
    stderrSink = onStderr;
    return transport;
  };
  try {
    await transport.start();
    const probe = discoverExchange(transport, modernEnvelope(config), probeTimeoutMs);
    const reply = await probe.reply;
    if (deadline.aborted) throw deadline.reason;
    const verdict = verdictOf(reply, true, config.transport === 'stdio');
    const keep = probe.answered() && !probe.closed();
    if (verdict === 'legacy') return keep ? { era: 'legacy', open: adopt() } : { era: 'legacy' };
    return keep ? { era: 'modern', discover: verdict, open: adopt() } : { era: 'modern', discover: verdict };
  } catch (error) {
    if (deadline.aborted) throw deadline.reason;
    throw error;
  } finally {
    deadline.removeEventListener('abort', onDeadline);
    // The probe connection has served its purpose unless it became the link's; a failed close changes nothing.
    if (!handedOver) await transport.close().catch(() => {});
  }
}
