/**
 * Routes the requests an upstream sends to "its client" during a call (elicitation/create, and
 * sampling/createMessage where relayed) to the downstream client whose call caused them. JSON-RPC gives no
 * reliable link from an upstream's server-to-client request to the client request that triggered it (stdio
 * carries none), so the route is certain only while exactly one call is in flight on that upstream; otherwise
 * the request is declined upstream (route to the caller and no one else; decline when unsure). Prompt, resource
 * and completion requests are registered without an asker, so a question during one is never routed elsewhere.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type {
  DeclinedRequest,
  ElicitationAsker,
  SamplingAsker,
  UpstreamElicitation,
  UpstreamSampling,
} from './types.ts';

/** One in-flight call registered with the router. */
export interface InFlightCall {
  askClient: ElicitationAsker | undefined;
  /** Absent when sampling is not relayed for this upstream or the caller's client cannot sample. */
  askSampling?: SamplingAsker | undefined;
  /** Receives the upstream's log messages (notifications/message) while this call is the only one in flight. */
  onLog?: ((message: UpstreamLogMessage) => void) | undefined;
  /** Told when a request of the upstream that belongs to this call was declined: its client cannot answer it. */
  onDeclined?: ((request: DeclinedRequest) => void) | undefined;
  signal: AbortSignal;
}

/** An upstream log message (notifications/message params). */
export interface UpstreamLogMessage {
  level: string;
  logger?: string | undefined;
  data: unknown;
}

/** Tracks in-flight calls of one upstream and routes its requests to their caller. */
export interface ClientRequestRouter {
  /** Registers a call; the returned function unregisters it. */
  track(call: InFlightCall): () => void;
  /** Answers an upstream elicitation by asking the single in-flight caller, or declines. */
  route(params: UpstreamElicitation): Promise<ElicitResult>;
  /** Relays a sampling request to the single in-flight caller; rejects (a JSON-RPC error upstream) otherwise. */
  routeSampling(params: UpstreamSampling): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** Relays an upstream log message to the single in-flight caller; returns false when it was dropped. */
  routeLog(message: UpstreamLogMessage): boolean;
  /** How many calls are in flight. */
  readonly inFlight: number;
}

/** Why a request from the upstream could not be routed to a caller, for logs. */
export type DeclineReason =
  'no-call-in-flight' | 'ambiguous-caller' | 'caller-cannot-elicit' | 'caller-cannot-sample';

const SAMPLING_REFUSALS: Record<Exclude<DeclineReason, 'caller-cannot-elicit'>, string> = {
  'no-call-in-flight': 'no tool call of this client is in flight to attribute it to',
  'ambiguous-caller': 'several tool calls are in flight on this upstream, so its caller is not certain',
  'caller-cannot-sample': 'the client that made the call does not offer sampling',
};

/** Creates a router; `onDecline` is told what was declined and why. */
export function createClientRequestRouter(
  onDecline: (reason: DeclineReason, request: DeclinedRequest) => void = () => {},
): ClientRequestRouter {
  const calls = new Set<InFlightCall>();
  const single = (): InFlightCall | undefined =>
    calls.size === 1 ? (calls.values().next().value as InFlightCall) : undefined;
  const unroutable = (): DeclineReason => (calls.size === 0 ? 'no-call-in-flight' : 'ambiguous-caller');
  return {
    track(call) {
      calls.add(call);
      return () => calls.delete(call);
    },
    async route(params) {
      const call = single();
      if (!call?.askClient) {
        onDecline(call ? 'caller-cannot-elicit' : unroutable(), 'elicitation');
        call?.onDeclined?.('elicitation');
        return { action: 'decline' };
      }
      return call.askClient(params, call.signal);
    },
    async routeSampling(params) {
      const call = single();
      if (!call?.askSampling) {
        const reason = call ? 'caller-cannot-sample' : unroutable();
        onDecline(reason, 'sampling');
        call?.onDeclined?.('sampling');
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          `Portcullis declined this sampling request: ${SAMPLING_REFUSALS[reason as keyof typeof SAMPLING_REFUSALS]}`,
        );
      }
      return call.askSampling(params, call.signal);
    },
    routeLog(message) {
      // Same certainty rule as elicitation: a log line goes to the one caller it can belong to, or nowhere.
      const call = single();
      if (!call?.onLog) return false;
      call.onLog(message);
      return true;
    },
    get inFlight() {
      return calls.size;
    },
  };
}
