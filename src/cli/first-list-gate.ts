/**
 * Holds a stdio client's list requests until the upstreams have connected or failed once (bounded by the caller's
 * ready promise): a desktop client that lists tools once, right after initialize, would otherwise see only the
 * tools of upstreams that happened to be connected already. Initialize and every other message pass at once,
 * except that messages arriving behind a held list request wait with it, so their order is kept.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** How long the first list requests may wait for the upstreams to settle. */
export const FIRST_LIST_WAIT_MS = 20_000;

const LIST_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

type OnMessage = NonNullable<Transport['onmessage']>;

/** Gates the transport's inbound messages until `ready` settles; call before the server attaches to it. */
export function gateListsUntil(transport: Transport, ready: Promise<unknown>): void {
  let handler: OnMessage | undefined;
  let open = false;
  const held: Parameters<OnMessage>[] = [];
  const gated: OnMessage = (...args) => {
    const message: JSONRPCMessage = args[0];
    const isList = 'method' in message && 'id' in message && LIST_METHODS.has(message.method);
    if (!open && (held.length > 0 || isList)) {
      held.push(args);
      return;
    }
    handler?.(...args);
  };
  // A failed or timed-out first connection still opens the gate: the lists then show what is there.
  void ready
    .catch(() => {})
    .then(() => {
      open = true;
      for (const args of held.splice(0)) handler?.(...args);
    });
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : gated),
    set: (next: OnMessage | undefined) => {
      handler = next;
    },
  });
}
