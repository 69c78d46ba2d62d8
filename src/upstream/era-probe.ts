/**
 * Decides the era of a `protocol: auto` upstream before the link opens: the SDK client's own `server/discover`
 * probe (its classifier, in `auto` mode) runs on a connection of its own, which is closed once the era is
 * known. The probe connection refuses to send `initialize`: where the SDK would go on with the 2025-era handshake,
 * the verdict is legacy and the handshake is left to the gateway's own client (legacy-connection.ts) on a fresh
 * connection. A modern verdict hands back the `DiscoverResult`, which the SDK client adopts with
 * `connect({ prior })` without asking again. On stdio the probe runs in place on a process of its own (the SDK
 * probes a plain stdio transport on a sibling process; this one is a wrapper, so it probes where it is); a process
 * that exits on the probe is a legacy server, as on the SDK's sibling. A 2025-era peer that answered the probe (an
 * error, as such servers answer an unknown method) and is still there keeps its connection: the link's handshake
 * runs on it, so such an upstream costs one process, not two. One that stayed silent or exited gets a new one (a
 * late answer to the probe could otherwise meet the link's first request). A 2026-era peer keeps its connection
 * too: the era holds no session, so the link's SDK client adopts the discovery and goes on on it.
 */
import {
  Client,
  SdkError,
  SdkErrorCode,
  type DiscoverResult,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { GATEWAY_CLIENT_INFO, gatewayCapabilities } from './link-support.ts';
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

/** Thrown by the probe connection instead of sending `initialize`: the SDK chose the 2025-era handshake. */
class LegacyVerdict extends Error {}

/**
 * A transport that passes everything through but `initialize`. It exposes `stderr` and `pid` when the transport
 * it wraps is a stdio one, which is how the SDK tells stdio (silence means legacy) from HTTP (silence is an outage).
 */
class ProbeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  /** An answer (result or error) to the probe came back: the peer reads and writes JSON-RPC on this connection. */
  answered = false;
  /** The inner connection closed (a process that exited on the probe). */
  innerClosed = false;
  /** The SDK chose the 2025-era handshake: `initialize` was refused here. */
  legacyChosen = false;
  #kept = false;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      if ('id' in message && ('result' in message || 'error' in message)) this.answered = true;
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      this.innerClosed = true;
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
    if ('stderr' in inner && 'pid' in inner) {
      Object.defineProperty(this, 'stderr', { get: () => inner.stderr });
      Object.defineProperty(this, 'pid', { get: () => inner.pid });
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && message.method === 'initialize') {
      this.legacyChosen = true;
      // A peer that answered the probe and is still there takes the handshake on this connection: from now on
      // the probe client's close leaves it open for handOver().
      if (this.answered && !this.innerClosed) this.#kept = true;
      return Promise.reject(new LegacyVerdict());
    }
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#kept ? Promise.resolve() : this.inner.close();
  }

  /** Keeps a modern peer's connection (it answered the probe) for handOver(); false when it is gone. */
  keep(): boolean {
    if (this.answered && !this.innerClosed) this.#kept = true;
    return this.kept;
  }

  /** Whether handOver() may be called: the connection was kept and is still open. */
  get kept(): boolean {
    return this.#kept && !this.innerClosed;
  }

  /** Closes the inner connection whatever was kept (a probe whose connection is not handed over). */
  discard(): Promise<void> {
    this.#kept = false;
    return this.inner.close();
  }

  /** Gives the started inner connection to a new owner: its start() does nothing, everything else passes. */
  handOver(): Transport {
    const inner = this.inner;
    const adopted: Transport = {
      start: () => Promise.resolve(),
      send: (message, options) => inner.send(message, options),
      close: () => inner.close(),
    };
    inner.onmessage = (message, extra) => adopted.onmessage?.(message, extra);
    inner.onclose = () => adopted.onclose?.();
    inner.onerror = (error) => adopted.onerror?.(error);
    return adopted;
  }
}

/** Whether a probe failure is the SDK's in-place verdict on a stdio process that exited on the probe. */
function exitedOnProbe(config: UpstreamConfig, error: unknown): boolean {
  return (
    config.transport === 'stdio' &&
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    /closed during the server\/discover probe/.test(error.message)
  );
}

/**
 * Probes the upstream's era within `probeTimeoutMs` (per probe exchange) and `deadline` (in all); rejects with the
 * SDK's connect errors (an HTTP outage, a pinned-version mismatch) or the deadline's reason.
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
  const transport = new ProbeTransport(
    createTransport(config, { ...context, onStderr: (line) => stderrSink(line) }),
  );
  const client = new Client(GATEWAY_CLIENT_INFO, {
    capabilities: gatewayCapabilities(config),
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeoutMs } },
  });
  // The SDK probes before its client is connected: only closing the transport ends a probe in flight.
  const onDeadline = () => void transport.close().catch(() => {});
  deadline.addEventListener('abort', onDeadline, { once: true });
  let handedOver: Transport | undefined;
  /** The probe's connection for the link, with the probe process's stderr so far passed to the link's. */
  const adopt = (): Transport => {
    const open = transport.handOver();
    const onStderr = context.onStderr ?? (() => {});
    for (const line of held.splice(0)) onStderr(line);
    stderrSink = onStderr;
    return open;
  };
  try {
    await client.connect(transport);
    const discover = client.getDiscoverResult();
    if (client.getProtocolEra() === 'modern' && discover !== undefined) {
      // A 2026-era connection holds no session: the link's own client goes on where the probe's stops.
      if (!transport.keep() || deadline.aborted) return { era: 'modern', discover };
      await client.close().catch(() => {});
      handedOver = adopt();
      return { era: 'modern', discover, open: handedOver };
    }
    return { era: 'legacy' };
  } catch (error) {
    if (deadline.aborted) throw deadline.reason;
    if (error instanceof LegacyVerdict || exitedOnProbe(config, error)) {
      await client.close().catch(() => {});
      if (transport.kept && !deadline.aborted) {
        handedOver = adopt();
        return { era: 'legacy', open: handedOver };
      }
      return { era: 'legacy' };
    }
    throw error;
  } finally {
    deadline.removeEventListener('abort', onDeadline);
    if (handedOver === undefined) {
      // The probe connection has served its purpose whatever the verdict; a failed close changes nothing.
      await client.close().catch(() => {});
      await transport.discard().catch(() => {});
    }
  }
}
