/**
 * The era dispatch of `portcullis stdio`: the connection's first request or notification decides, by the rule the
 * HTTP door applies per request. Without the 2026-era envelope claim in its `_meta` it is 2025-era traffic: the
 * gateway's own LegacyServer is attached straight to the wire and serves the connection from that message on.
 * With a claim, valid or not, the gateway's own 2026-era server serves it (downstream `connectModern`), which
 * refuses what it reads as 2025-era traffic (an `initialize` whose claim is malformed), since that era is not its
 * to serve here. An answer before any of them is dropped.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import {
  connectModern,
  type DownstreamIdentity,
  type LegacyServer,
  type ListKind,
  type ModernServer,
} from '../downstream/index.ts';
import { hasEnvelopeClaim } from '../shared/index.ts';

/** The servers of each era; the legacy one is made at most once, for a 2025-era connection. */
export interface StdioEraServers {
  legacy(): LegacyServer;
  /** The gateway's 2026-era server, and whom a 2026-era connection's requests are of. */
  modern: ModernServer;
  identity: DownstreamIdentity;
}

/** A served stdio connection. */
export interface StdioEraDoor {
  /** Tells the connection's client that a list changed (a 2026-era one only where it listens for it). */
  listChanged(kind: ListKind): void;
  /** Closes the connection's server (and with it the wire), or the wire when no message has come yet. */
  close(): Promise<void>;
}

/** Whether the opening request or notification is 2025-era traffic that the gateway's own server takes. */
function opensLegacy(message: JSONRPCMessage): boolean {
  return !hasEnvelopeClaim(message);
}

/**
 * The wire as the chosen server sees it: already started, its handlers written through to the wire itself, so no
 * message pays for a hop through the door once the era is chosen.
 */
function startedWire(wire: Transport): Transport {
  return {
    start: () => Promise.resolve(),
    send: (message, options) => wire.send(message, options),
    close: () => wire.close(),
    setProtocolVersion: (version) => wire.setProtocolVersion?.(version),
    get onmessage() {
      return wire.onmessage;
    },
    set onmessage(handler) {
      wire.onmessage = handler;
    },
    get onclose() {
      return wire.onclose;
    },
    set onclose(handler) {
      wire.onclose = handler;
    },
    get onerror() {
      return wire.onerror;
    },
    set onerror(handler) {
      wire.onerror = handler;
    },
  };
}

/** What list changes reach on a connection whose era is chosen. */
interface Served {
  listChanged(kind: ListKind): void;
  close(): Promise<void>;
}

/** A 2025-era server as the door tells it of list changes. */
function legacyServed(server: LegacyServer): Served {
  return {
    listChanged(kind) {
      const sent =
        kind === 'tools'
          ? server.sendToolListChanged()
          : kind === 'prompts'
            ? server.sendPromptListChanged()
            : server.sendResourceListChanged();
      // A client that has gone cannot be told.
      void sent.catch(() => {});
    },
    close: () => server.close(),
  };
}

/** Starts `wire` and serves its connection with the server of the era its first message opens. */
export function serveStdioEras(wire: Transport, servers: StdioEraServers): StdioEraDoor {
  let served: Served | undefined;
  wire.onmessage = (first, extra) => {
    // An answer before any request answers nothing: it is dropped and the era is chosen by what follows.
    if (!('method' in first)) {
      wire.onerror?.(new Error('Discarded a JSON-RPC response received before the connection chose its era'));
      return;
    }
    // Whoever takes the wire installs its own handler; the door's must not run before it.
    wire.onmessage = undefined;
    const handed = startedWire(wire);
    if (opensLegacy(first)) {
      const server = servers.legacy();
      served = legacyServed(server);
      // connect() installs the server's handlers before its first await, so the first message finds them.
      void server.connect(handed).catch((error: unknown) => wire.onerror?.(toError(error)));
    } else {
      served = connectModern(handed, servers.modern, servers.identity);
    }
    handed.onmessage?.(first, extra);
  };
  const started = wire.start().catch((error: unknown) => wire.onerror?.(toError(error)));
  return {
    listChanged: (kind) => served?.listChanged(kind),
    async close() {
      await started;
      await (served ?? wire).close();
    },
  };
}

const toError = (value: unknown) => (value instanceof Error ? value : new Error(String(value)));
