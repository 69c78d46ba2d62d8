/**
 * A 2026-era connection (`portcullis stdio` whose first message claims the 2026 envelope), served by the gateway's
 * own 2026-era server (modern-server.ts) message by message: the connection is pinned to the 2026 era by its first
 * request or notification whose envelope names a supported revision (until then a malformed envelope or an
 * unsupported revision is refused and the connection stays open), 2025-era traffic it still meets is refused with
 * the supported versions, `subscriptions/listen` subscriptions are held per connection (modern-listen.ts) and end
 * with their complete result when the connection closes, and `notifications/cancelled` ends a subscription or
 * aborts a running request, which is then not answered.
 */
import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  UnsupportedProtocolVersionError,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { isRecord, MODERN_PROTOCOL_VERSION } from '../shared/index.ts';
import { admissionRefusal, rpcError, takeOverWire } from './call-context.ts';
import type { DownstreamIdentity } from './gateway-core.ts';
import { createModernListeners, type ListKind } from './modern-listen.ts';
import type { ModernServer } from './modern-server.ts';
import { claimedVersion, envelopeIssue, type EnvelopeIssue } from './modern-shapes.ts';

type RequestId = string | number;

/** A served 2026-era connection. */
export interface ModernConnection {
  /** Tells the connection's listen subscriptions that a list changed. */
  listChanged(kind: ListKind): void;
  /** Ends every subscription with its result, aborts what runs and closes the wire. */
  close(): Promise<void>;
}

interface Incoming {
  id?: RequestId;
  method: string;
  params?: unknown;
}

/** What the envelope of a message says: none, a problem, or the revision it claims. */
type Claim =
  { kind: 'none' } | { kind: 'invalid'; issue: EnvelopeIssue } | { kind: 'claims'; version: string };

function claimOf(params: unknown): Claim {
  const meta = isRecord(params) ? params._meta : undefined;
  if (!isRecord(meta) || !(PROTOCOL_VERSION_META_KEY in meta)) return { kind: 'none' };
  const issue = envelopeIssue(meta);
  if (issue !== undefined) return { kind: 'invalid', issue };
  return { kind: 'claims', version: claimedVersion(params) as string };
}

const unsupported = (id: RequestId, requested: string): JSONRPCMessage => {
  const error = new UnsupportedProtocolVersionError({ supported: [MODERN_PROTOCOL_VERSION], requested });
  return rpcError(id, error.code, error.message, error.data);
};

/** The refusal of 2025-era traffic on a 2026-era connection: it names the versions served here. */
function legacyRefusal(message: Incoming & { id: RequestId }): JSONRPCMessage {
  const params = isRecord(message.params) ? message.params : {};
  if (message.method === 'initialize' && typeof params.protocolVersion === 'string')
    return unsupported(message.id, params.protocolVersion);
  return rpcError(
    message.id,
    ProtocolErrorCode.UnsupportedProtocolVersion,
    'Unsupported protocol version: the request did not name a protocol version',
    { supported: [MODERN_PROTOCOL_VERSION] },
  );
}

/** Serves `wire` as a 2026-era connection of `identity`; the caller starts the wire and hands it the first message. */
export function connectModern(
  wire: Transport,
  server: ModernServer,
  identity: DownstreamIdentity,
): ModernConnection {
  const listeners = createModernListeners();
  const running = new Map<RequestId, AbortController>();
  // Ids the connection's open subscriptions hold: a request or listen may not reuse one until it ends.
  const listening = new Set<RequestId>();
  let pinned = false;
  let closed = false;
  const send = (message: JSONRPCMessage) => {
    if (!closed) void wire.send(message).catch((error: unknown) => wire.onerror?.(toError(error)));
  };

  const serveRequest = (message: Incoming & { id: RequestId }) => {
    const { id } = message;
    const refusal = idRefusal(id);
    if (refusal !== undefined) return send(refusal);
    const controller = new AbortController();
    running.set(id, controller);
    server.serve(message, identity, controller.signal, {
      notify: (notification) => {
        send(notification);
        return Promise.resolve();
      },
      answer: (answer) => {
        if (running.get(id) === controller) running.delete(id);
        send(answer);
      },
    });
  };

  /** The refusal of a new request or listen whose id a running request or an open subscription holds. */
  const idRefusal = (id: RequestId) =>
    admissionRefusal(running, id, 'connection') ??
    (listening.has(id) ? admissionRefusal(listening, id, 'connection') : undefined);

  const listen = (message: Incoming & { id: RequestId }) => {
    const held = idRefusal(message.id);
    if (held !== undefined) return send(held);
    const claim = claimOf(message.params);
    if (claim.kind === 'none' || claim.kind === 'invalid') {
      const issue =
        claim.kind === 'invalid'
          ? claim.issue
          : { key: '_meta', problem: 'the per-request envelope is required on protocol revision 2026-07-28' };
      return send(
        rpcError(
          message.id,
          ProtocolErrorCode.InvalidParams,
          `Invalid _meta envelope: ${issue.key}: ${issue.problem}`,
        ),
      );
    }
    if (claim.version !== MODERN_PROTOCOL_VERSION) return send(unsupported(message.id, claim.version));
    const { id } = message;
    const opened = listeners.open(id, message.params, { send, ended: () => listening.delete(id) });
    if (!('end' in opened)) send(opened);
    // A filter that follows nothing is answered at once with its complete result.
    else if (opened.empty) opened.end(true);
    else listening.add(id);
  };

  const onNotification = (message: Incoming) => {
    if (message.method !== 'notifications/cancelled' || !isRecord(message.params)) return;
    const { requestId, reason } = message.params;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    if (listeners.cancel(requestId)) return;
    running.get(requestId)?.abort(reason);
    running.delete(requestId);
  };

  /** Whether `message` pins the connection, answering it when it refuses it instead. */
  const opens = (message: Incoming): boolean => {
    const claim = claimOf(message.params);
    const request = message.id === undefined ? undefined : (message as Incoming & { id: RequestId });
    const isInitialize = message.method === 'initialize';
    if (claim.kind === 'none' || (isInitialize && claim.kind !== 'claims')) {
      if (request) send(legacyRefusal(request));
      return false;
    }
    if (claim.kind === 'invalid') {
      const { issue } = claim;
      if (request)
        send(
          rpcError(
            request.id,
            ProtocolErrorCode.InvalidParams,
            `Invalid _meta envelope for protocol revision 2026-07-28: ${issue.key}: ${issue.problem}`,
            { envelope: issue },
          ),
        );
      return false;
    }
    if (claim.version !== MODERN_PROTOCOL_VERSION) {
      if (request) send(unsupported(request.id, claim.version));
      return false;
    }
    return true;
  };

  const receive = (message: JSONRPCMessage) => {
    if (closed) return;
    // The 2026 era sends the client no requests, so an answer from it answers nothing.
    if (!('method' in message)) {
      wire.onerror?.(new Error('Discarded a JSON-RPC response: this 2026-era connection sent no request'));
      return;
    }
    const incoming = message as Incoming;
    if (!pinned) {
      if (!opens(incoming)) return;
      pinned = true;
    }
    if (incoming.id === undefined) return onNotification(incoming);
    const request = incoming as Incoming & { id: RequestId };
    if (request.method === 'initialize' && claimOf(request.params).kind !== 'claims')
      return send(legacyRefusal(request));
    if (request.method === 'subscriptions/listen') return listen(request);
    serveRequest(request);
  };

  const ended = () => {
    if (closed) return;
    closed = true;
    for (const controller of running.values()) controller.abort(new Error('Connection closed'));
    running.clear();
  };

  takeOverWire(wire, receive, ended);

  return {
    listChanged: (kind) => listeners.notify(kind),
    async close() {
      if (!closed) listeners.closeAll();
      ended();
      await wire.close();
    },
  };
}

const toError = (value: unknown) => (value instanceof Error ? value : new Error(String(value)));
