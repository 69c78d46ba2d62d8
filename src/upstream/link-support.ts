/**
 * What both upstream links share, the 2025-era one (legacy-connection.ts) and the 2026-era one
 * (modern-connection.ts): the gateway's identity and capabilities toward upstreams, the notification budget, the
 * reading of a fatal transport error, and the mapping of a failed request to the gateway's error codes (the SDK's
 * error types on both links, so one mapping serves both).
 */
import { ProtocolError, SdkError, SdkErrorCode, type ClientCapabilities } from '@modelcontextprotocol/client';
import { jsonShapeExcess, MAX_JSON_DEPTH } from '../audit/index.ts';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { PORTCULLIS_VERSION } from '../shared/index.ts';
import type { ClientRequestRouter } from './client-request-router.ts';
import { UpstreamMessageTooLarge } from './message-too-large.ts';
import type { UpstreamCallOptions } from './types.ts';
import { createNotificationGuard, FLOOD_SECONDS, NOTIFICATIONS_PER_SECOND } from './notification-guard.ts';

/** The signal of a request that cannot be cancelled. */
const NEVER_ABORTED = new AbortController().signal;

/** The gateway's identity toward upstream servers. */
export const GATEWAY_CLIENT_INFO = { name: 'portcullis', version: PORTCULLIS_VERSION } as const;

/** The capabilities the gateway declares to an upstream: form elicitation, and sampling only where configured. */
export function gatewayCapabilities(config: Pick<UpstreamConfig, 'sampling'>): ClientCapabilities {
  // Sampling is offered only where configured: it lets the server spend the client's model.
  return { elicitation: { form: {} }, ...(config.sampling ? { sampling: {} } : {}) };
}

/**
 * The notification budget of one link: `admit()` says whether a notification may be handled; past the flood
 * limit it calls `cut` once with the error the link's close reports.
 */
function notificationBudget(cut: (error: Error) => void): { admit(): boolean } {
  const guard = createNotificationGuard();
  return {
    admit() {
      const verdict = guard.admit();
      if (verdict === 'disconnect') {
        cut(
          new Error(
            `sent more than ${NOTIFICATIONS_PER_SECOND} notifications a second for ${FLOOD_SECONDS} s ` +
              `(${guard.dropped} dropped) and was disconnected`,
          ),
        );
      }
      return verdict === 'handle';
    },
  };
}

/** How a link of the gateway's own ends: closed by the gateway, or dropped for a reason its close names. */
export interface LinkEnding {
  /** The gateway closed the link (its close is no news to report). */
  closedByUs: boolean;
  /** Whether a notification may be handled (the upstream's notification budget); a flood drops the link. */
  admit(): boolean;
  /** Takes a transport error; a fatal one is kept for the close and for the calls it fails. */
  onError(error: Error): void;
  /** The fatal transport error, if one came. */
  readonly fatal: Error | undefined;
  /** Why the link was dropped on the gateway's side, for its close: the flood, else the fatal transport error. */
  readonly reason: Error | undefined;
}

/** The ending of one link; `drop` closes it (a flood). */
export function createLinkEnding(drop: () => Promise<void>): LinkEnding {
  let fatal: Error | undefined;
  let flood: Error | undefined;
  const budget = notificationBudget((error) => {
    flood = error;
    // The flood error is what the close reports; a failure to close an abandoned link adds nothing.
    void drop().catch(() => {});
  });
  return {
    closedByUs: false,
    admit: () => budget.admit(),
    onError(error) {
      fatal ??= fatalTransportError(error);
    },
    get fatal() {
      return fatal;
    },
    get reason() {
      return flood ?? fatal;
    },
  };
}

/**
 * The error a transport error makes fatal, kept for the close and the calls it fails; undefined for transport
 * noise (a dropped SSE stream, a stray frame), which is reported through the close when it matters. An
 * oversized message is fatal on every link: the stream cannot be re-synchronised.
 */
export function fatalTransportError(error: Error): Error | undefined {
  if (!(error instanceof UpstreamMessageTooLarge)) return undefined;
  return new Error(
    `sent a message larger than ${error.limit} bytes, the most one ${error.link} message may hold; the link was dropped`,
  );
}

/** Registers a tool call with the router, so that the upstream's questions during it reach its caller; returns the unregister. */
export function trackCall(router: ClientRequestRouter, options: UpstreamCallOptions): () => void {
  return router.track({
    askClient: options.askClient,
    askSampling: options.askSampling,
    onLog: options.onLog,
    onDeclined: options.onDeclined,
    signal: options.signal ?? NEVER_ABORTED,
  });
}

/**
 * Runs a prompt, resource or completion request registered with the router as one whose caller cannot be asked:
 * a question the upstream sends meanwhile is declined (alone) or ambiguous (beside a tool call), never routed to
 * a tool call's caller who did not cause it. Its failure is mapped as settledError.
 */
export async function unaskable<T>(
  router: ClientRequestRouter,
  upstreamId: string,
  what: string,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const untrack = router.track({ askClient: undefined, signal: signal ?? NEVER_ABORTED });
  try {
    return await run();
  } catch (error) {
    throw settledError(upstreamId, what, signal, error);
  } finally {
    untrack();
  }
}

/** A short description of a connection or call failure. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** SDK failures of one request on a live link (as opposed to a closed or broken transport). */
const CALL_LEVEL_SDK_ERRORS: ReadonlySet<string> = new Set([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.InputRequiredRoundsExceeded,
  SdkErrorCode.ListPaginationExceeded,
  SdkErrorCode.MethodNotSupportedByProtocolVersion,
  SdkErrorCode.CapabilityNotSupported,
]);

/**
 * The error of a failed tool call: its arguments could not be encoded (INVALID_ARGUMENTS, the link stays up), the
 * link dropped on a fatal transport error (UPSTREAM_UNAVAILABLE naming it), or as toUpstreamError.
 */
export function failedCallError(
  upstreamId: string,
  name: string,
  args: Record<string, unknown>,
  error: unknown,
  fatal: Error | undefined,
  callerError?: PortcullisError,
): PortcullisError {
  return (
    unencodableCall(upstreamId, name, args, error) ??
    callerError ??
    (fatal &&
      new PortcullisError('UPSTREAM_UNAVAILABLE', `upstream "${upstreamId}" ${fatal.message}`, {
        cause: error,
        reason: 'message-too-large',
      })) ??
    toUpstreamError(upstreamId, name, error)
  );
}

/**
 * The call's own failure when its arguments could not be encoded for the wire (nested too deep for the encoder,
 * a cycle, a bigint): the link is fine and stays up. Undefined when the failure came from elsewhere.
 */
function unencodableCall(
  upstreamId: string,
  name: string,
  args: Record<string, unknown>,
  error: unknown,
): PortcullisError | undefined {
  if (error instanceof PortcullisError || error instanceof SdkError || error instanceof ProtocolError)
    return undefined;
  let encodable = jsonShapeExcess(args, MAX_JSON_DEPTH, Number.POSITIVE_INFINITY) !== 'too-deep';
  if (encodable) {
    try {
      JSON.stringify(args);
    } catch {
      // A cycle, a bigint or a throwing toJSON: answered below as INVALID_ARGUMENTS.
      encodable = false;
    }
  }
  if (encodable) return undefined;
  return new PortcullisError(
    'INVALID_ARGUMENTS',
    `arguments of ${name} cannot be encoded as JSON for upstream "${upstreamId}" (nested deeper than ` +
      `${MAX_JSON_DEPTH} levels, a cycle, or a value JSON cannot hold); only this call failed`,
    { reason: 'unencodable', cause: error },
  );
}

/** A request its own client cancelled: not a fault of the upstream, so the connection stays up. */
export function cancelled(upstreamId: string, what: string, error: unknown): PortcullisError {
  return new PortcullisError('UPSTREAM_ERROR', `${what} on upstream "${upstreamId}" was cancelled`, {
    cause: error,
  });
}

/** The error of a failed request: cancelled when its caller's signal aborted, else as toUpstreamError. */
function settledError(
  upstreamId: string,
  what: string,
  signal: AbortSignal | undefined,
  error: unknown,
): PortcullisError {
  return signal?.aborted ? cancelled(upstreamId, what, error) : toUpstreamError(upstreamId, what, error);
}

/**
 * UPSTREAM_TIMEOUT for a timeout; UPSTREAM_ERROR for an upstream that answered (a JSON-RPC error, or an answer
 * it could not use); UPSTREAM_UNAVAILABLE for anything else (the link is no longer usable).
 */
export function toUpstreamError(upstreamId: string, what: string, error: unknown): PortcullisError {
  if (error instanceof PortcullisError) return error;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new PortcullisError(
      'UPSTREAM_TIMEOUT',
      `upstream "${upstreamId}" did not answer ${what} in time`,
      {
        cause: error,
      },
    );
  }
  if (
    error instanceof ProtocolError ||
    (error instanceof SdkError && CALL_LEVEL_SDK_ERRORS.has(error.code))
  ) {
    // The upstream answered (a JSON-RPC error, or an answer the gateway could not use): it is alive, only this
    // call failed, so the connection stays up.
    return new PortcullisError(
      'UPSTREAM_ERROR',
      `upstream "${upstreamId}" failed ${what}: ${describeError(error)}`,
      {
        cause: error,
        details: { upstreamCode: error.code },
      },
    );
  }
  // Anything else (connection closed, HTTP failure, network error) means the connection is no longer usable.
  return new PortcullisError(
    'UPSTREAM_UNAVAILABLE',
    `upstream "${upstreamId}" is unreachable (${describeError(error)}) during ${what}; it will be reconnected`,
    { cause: error },
  );
}
