/**
 * The `subscriptions/listen` subscriptions of 2026-era clients, for both doors: each subscription is the filter its
 * request asked for (the part the server's capabilities honour) and a sink the door writes to (an SSE stream, a
 * stdio connection). A list change goes to every subscription whose filter takes it, stamped with the
 * subscription's id; ending a subscription gracefully sends its complete result.
 */
import {
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { GATEWAY_SERVER_INFO, rpcError } from './call-context.ts';
import { readListenFilter, type ListenFilter } from './modern-shapes.ts';

type RequestId = string | number;

/** A list whose change a listener may follow. */
export type ListKind = 'tools' | 'prompts' | 'resources';

const FLAG_OF: Readonly<Record<ListKind, keyof ListenFilter>> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

/** Where a subscription's messages go. */
export interface ListenSink {
  /** Writes one message of the subscription (its acknowledgement, a change, its complete result). */
  send(message: JSONRPCMessage): void;
  /** The subscription has ended; the door closes what carries it. */
  ended(): void;
}

/** An open subscription. */
export interface Subscription {
  /** Whether the filter honours nothing (the door may end it at once). */
  readonly empty: boolean;
  /** Ends the subscription; `graceful` sends its complete result first. */
  end(graceful: boolean): void;
}

/** The listen subscriptions of one door (or one stdio connection). */
export interface ModernListeners {
  /**
   * Opens the subscription of request `id` (its acknowledgement is sent to `sink` at once), or answers why not: a
   * `-32602` for a filter that is not one, a `-32603` at the subscription limit.
   */
  open(id: RequestId, params: unknown, sink: ListenSink): Subscription | JSONRPCMessage;
  /** Ends the subscription of request `id` without a result (the client cancelled it); false when none is open. */
  cancel(id: RequestId): boolean;
  /** Tells every subscription that follows `kind` that the list changed. */
  notify(kind: ListKind): void;
  /** Ends every subscription gracefully. */
  closeAll(): void;
}

/** Subscriptions one door holds at most, as the SDK's listen router bounds them. */
export const MAX_SUBSCRIPTIONS = 1024;

/** The notification `method` with the subscription's id stamped into its `_meta`. */
const stamped = (method: string, id: RequestId, params: Record<string, unknown> = {}): JSONRPCMessage =>
  ({
    jsonrpc: '2.0',
    method,
    params: { ...params, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
  }) as JSONRPCMessage;

/** Creates the listen subscriptions of a door (the server advertises every list's `listChanged`). */
export function createModernListeners(max = MAX_SUBSCRIPTIONS): ModernListeners {
  // Keyed by sink, not by request id: on the HTTP door every client's ids share this table, and two clients may
  // both listen with id 1.
  const open = new Map<ListenSink, { id: RequestId; filter: ListenFilter; end(graceful: boolean): void }>();
  return {
    open(id, params, sink) {
      if (open.size >= max)
        return rpcError(id, ProtocolErrorCode.InternalError, 'Subscription limit reached');
      const filter = readListenFilter(params);
      if (filter === undefined)
        return rpcError(
          id,
          ProtocolErrorCode.InvalidParams,
          "Invalid params: 'notifications' is required and must be a valid SubscriptionFilter",
        );
      let live = true;
      const end = (graceful: boolean) => {
        if (!live) return;
        live = false;
        open.delete(sink);
        if (graceful)
          sink.send({
            jsonrpc: '2.0',
            id,
            result: {
              resultType: 'complete',
              _meta: { [SUBSCRIPTION_ID_META_KEY]: id, [SERVER_INFO_META_KEY]: GATEWAY_SERVER_INFO },
            },
          } as JSONRPCMessage);
        sink.ended();
      };
      sink.send(stamped('notifications/subscriptions/acknowledged', id, { notifications: filter }));
      const empty = Object.keys(filter).length === 0;
      if (!empty) open.set(sink, { id, filter, end });
      return { empty, end };
    },
    cancel(id) {
      // Only a stdio connection cancels by id, and its ids are its own; at most MAX_SUBSCRIPTIONS to look through.
      for (const subscription of open.values()) {
        if (subscription.id !== id) continue;
        subscription.end(false);
        return true;
      }
      return false;
    },
    notify(kind) {
      const flag = FLAG_OF[kind];
      for (const [sink, { id, filter }] of open) {
        if (filter[flag] === true) sink.send(stamped(`notifications/${kind}/list_changed`, id));
      }
    },
    closeAll() {
      for (const { end } of [...open.values()]) end(true);
    },
  };
}
