/**
 * Decides the era of a `protocol: auto` upstream before the link opens: the SDK client's own `server/discover`
 * probe (its classifier, in `auto` mode) runs on a connection of its own, which is closed once the era is
 * known. The probe connection refuses to send `initialize`: where the SDK would go on with the 2025-era handshake,
 * the verdict is legacy and the handshake is left to the gateway's own client (legacy-connection.ts) on a fresh
 * connection. A modern verdict hands back the `DiscoverResult`, which the SDK client adopts with
 * `connect({ prior })` without asking again. On stdio the probe runs in place on a process of its own (the SDK
 * probes a plain stdio transport on a sibling process; this one is a wrapper, so it probes where it is) whose
 * stderr is read and dropped; a process that exits on the probe is a legacy server, as on the SDK's sibling.
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

/** The era of an upstream, with the discovery a modern one answered. */
export type EraVerdict = { era: 'legacy' } | { era: 'modern'; discover: DiscoverResult };

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

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    inner.onclose = () => this.onclose?.();
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
    if ('method' in message && message.method === 'initialize') return Promise.reject(new LegacyVerdict());
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
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
  // The probe's stderr is read (the orphan watchdog follows the process until it ends) and dropped.
  const transport = new ProbeTransport(createTransport(config, { ...context, onStderr: () => {} }));
  const client = new Client(GATEWAY_CLIENT_INFO, {
    capabilities: gatewayCapabilities(config),
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeoutMs } },
  });
  // The SDK probes before its client is connected: only closing the transport ends a probe in flight.
  const onDeadline = () => void transport.close().catch(() => {});
  deadline.addEventListener('abort', onDeadline, { once: true });
  try {
    await client.connect(transport);
    const discover = client.getDiscoverResult();
    if (client.getProtocolEra() === 'modern' && discover !== undefined) return { era: 'modern', discover };
    return { era: 'legacy' };
  } catch (error) {
    if (deadline.aborted) throw deadline.reason;
    if (error instanceof LegacyVerdict || exitedOnProbe(config, error)) return { era: 'legacy' };
    throw error;
  } finally {
    deadline.removeEventListener('abort', onDeadline);
    // The probe connection has served its purpose whatever the verdict; a failed close changes nothing.
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
  }
}
