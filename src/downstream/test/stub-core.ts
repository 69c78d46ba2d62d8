/**
 * The downstream unit tests' gateway core: the pipeline is the test's peer, everything else answers as an empty
 * gateway does; and the gateway's own 2025-era server connected to one end of the SDK's in-memory pair.
 */
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import type { CallPipeline } from '../../calls/pipeline.ts';
import { compileProfiles } from '../../exposure/index.ts';
import type { DownstreamIdentity, GatewayCore } from '../gateway-core.ts';
import { createLegacyServer } from '../legacy-server.ts';
import { buildUpstreamSurface } from '../prompts-resources.ts';

/** A core whose pipeline is `call`; `over` replaces any other part. */
export function stubCore(call: CallPipeline['call'], over: Partial<Record<keyof GatewayCore, unknown>> = {}) {
  return {
    registry: { resolve: () => undefined, all: () => [] },
    pipeline: { call },
    subscriptions: { drop: () => {} },
    surface: () => buildUpstreamSurface([]),
    telemetry: { traceRequest: <T>(_info: unknown, handler: () => Promise<T>) => handler() },
    mask: (text: string) => text,
    maskDeep: <T>(value: T) => value,
    elicitationTimeoutMs: 5_000,
    recordSurface: () => Promise.resolve(),
    ...over,
  } as unknown as GatewayCore;
}

/** Connects a 2025-era server over `core` for principal `alice`; returns the client's end of the pair. */
export async function legacyServerEnd(
  core: GatewayCore,
  identity: Partial<DownstreamIdentity> = {},
): Promise<{ clientEnd: InMemoryTransport; close(): Promise<void> }> {
  const server = createLegacyServer(core, {
    principal: { id: 'alice', source: 'api-key', groups: [], scopes: [] },
    profile: compileProfiles({}).default,
    sessionId: 's-1',
    era: 'legacy',
    ...identity,
  });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  return { clientEnd, close: () => server.close() };
}

type RawMessage = Record<string, unknown>;

/** The client's end of a pair as a test reads it: what it sent, everything received, and a wait for one message. */
export interface RecordingEnd {
  send(message: RawMessage): Promise<void>;
  /** Resolves with the first message received (so far or later) that matches `pick`. */
  next(pick: (message: RawMessage) => boolean): Promise<RawMessage>;
  received: RawMessage[];
}

/** Starts `clientEnd` recording every message it receives. */
export async function recordingEnd(clientEnd: InMemoryTransport): Promise<RecordingEnd> {
  const received: RawMessage[] = [];
  const waiters: { pick: (m: RawMessage) => boolean; resolve: (m: RawMessage) => void }[] = [];
  clientEnd.onmessage = (message) => {
    const m = message as unknown as RawMessage;
    received.push(m);
    const at = waiters.findIndex((w) => w.pick(m));
    if (at >= 0) waiters.splice(at, 1)[0]?.resolve(m);
  };
  await clientEnd.start();
  return {
    send: (message) => clientEnd.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage),
    next: (pick) =>
      new Promise((resolve) => {
        const seen = received.find(pick);
        if (seen) resolve(seen);
        else waiters.push({ pick, resolve });
      }),
    received,
  };
}
