/**
 * Routes an elicitation/create an upstream sends to the downstream client whose call caused it. JSON-RPC gives
 * no reliable link from an upstream's server-to-client request to the client request that triggered it (stdio
 * carries none), so the route is certain only while exactly one call is in flight on that upstream; otherwise
 * the elicitation is declined upstream (DESIGN.md §1: route to the caller and no one else, decline when unsure).
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ElicitationAsker, UpstreamElicitation } from './types.ts';

/** One in-flight call registered with the router. */
export interface InFlightCall {
  askClient: ElicitationAsker | undefined;
  /** Receives the upstream's log messages (notifications/message) while this call is the only one in flight. */
  onLog?: ((message: UpstreamLogMessage) => void) | undefined;
  signal: AbortSignal;
}

/** An upstream log message (notifications/message params). */
export interface UpstreamLogMessage {
  level: string;
  logger?: string | undefined;
  data: unknown;
}

/** Tracks in-flight calls of one upstream and routes its elicitations. */
export interface ElicitationRouter {
  /** Registers a call; the returned function unregisters it. */
  track(call: InFlightCall): () => void;
  /** Answers an upstream elicitation by asking the single in-flight caller, or declines. */
  route(params: UpstreamElicitation): Promise<ElicitResult>;
  /** Relays an upstream log message to the single in-flight caller; returns false when it was dropped. */
  routeLog(message: UpstreamLogMessage): boolean;
  /** How many calls are in flight. */
  readonly inFlight: number;
}

/** Why an elicitation was declined, for logs. */
export type DeclineReason = 'no-call-in-flight' | 'ambiguous-caller' | 'caller-cannot-elicit';

/** Creates a router; `onDecline` is told why an elicitation could not be routed. */
export function createElicitationRouter(
  onDecline: (reason: DeclineReason) => void = () => {},
): ElicitationRouter {
  const calls = new Set<InFlightCall>();
  return {
    track(call) {
      calls.add(call);
      return () => calls.delete(call);
    },
    async route(params) {
      if (calls.size !== 1) {
        onDecline(calls.size === 0 ? 'no-call-in-flight' : 'ambiguous-caller');
        return { action: 'decline' };
      }
      const [call] = calls as unknown as [InFlightCall];
      if (!call.askClient) {
        onDecline('caller-cannot-elicit');
        return { action: 'decline' };
      }
      return call.askClient(params, call.signal);
    },
    routeLog(message) {
      // Same certainty rule as elicitation: a log line goes to the one caller it can belong to, or nowhere.
      if (calls.size !== 1) return false;
      const [call] = calls as unknown as [InFlightCall];
      if (!call.onLog) return false;
      call.onLog(message);
      return true;
    },
    get inFlight() {
      return calls.size;
    },
  };
}
