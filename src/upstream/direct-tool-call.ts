/**
 * A plain tools/call written straight to a connection's transport, skipping the SDK client's per-request
 * machinery (response-cache lookups, result codecs, several promise hops), which costs more than the rest of
 * the relay. The connection uses it only where that machinery adds nothing: a legacy-era link and a listed
 * tool without an outputSchema (the SDK client validates structured content against it).
 *
 * Requests carry ids of their own (`portcullis-N`, strings, so they never meet the SDK client's numeric ids),
 * used as the progress token too. Their answers and progress notifications are taken off the transport before
 * the client sees them, in arrival order, so a last progress sent just before the answer is relayed before it
 * (the SDK client dispatches notifications a microtask late and drops one that trails its answer). Every other
 * message reaches the client unchanged. Failures take the SDK's own error types, so callers map them the same
 * way.
 */
import {
  isCallToolResult,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';

/** A progress notification's payload. */
export interface DirectCallProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Options of one direct call. */
export interface DirectCallOptions {
  signal?: AbortSignal | undefined;
  /** Fails the call when nothing (answer or progress) arrives for this long. */
  timeoutMs: number;
  /** Fails the call after this long in all, progress or not (default: 10 × timeoutMs). */
  maxTotalTimeoutMs?: number | undefined;
  /** Receives the upstream's progress; without it no progress token is sent. */
  onProgress?: ((progress: DirectCallProgress) => void) | undefined;
  /** `_meta` of the request (W3C trace context). */
  meta?: Record<string, unknown> | undefined;
}

/** Sends tools/call requests over a transport the SDK client is connected to. */
export interface DirectToolCaller {
  call(name: string, args: Record<string, unknown>, options: DirectCallOptions): Promise<CallToolResult>;
  /** Calls in flight. */
  readonly pending: number;
}

/** Prefix of the request ids this caller uses. */
export const DIRECT_ID_PREFIX = 'portcullis-';

interface Pending {
  resolve(result: CallToolResult): void;
  reject(error: unknown): void;
  progress?: ((params: Record<string, unknown>) => void) | undefined;
}

/**
 * Hooks into a transport that a connected SDK client already drives (call after `client.connect`): wraps its
 * `onmessage` to take the answers to direct calls, and its `onclose` to fail the calls still waiting.
 */
export function attachDirectToolCalls(transport: Transport): DirectToolCaller {
  const pending = new Map<string, Pending>();
  let nextId = 0;

  const clientOnMessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'notifications/progress') {
      const params = (message.params ?? {}) as Record<string, unknown>;
      const token = params.progressToken;
      const waiting = typeof token === 'string' ? pending.get(token) : undefined;
      if (waiting?.progress) {
        waiting.progress(params);
        return;
      }
    }
    const id = (message as { id?: unknown }).id;
    const waiting = typeof id === 'string' && !('method' in message) ? pending.get(id) : undefined;
    if (!waiting) {
      clientOnMessage?.(message, extra);
      return;
    }
    pending.delete(id as string);
    if ('error' in message) {
      waiting.reject(new ProtocolError(message.error.code, message.error.message, message.error.data));
      return;
    }
    const result = (message as { result?: unknown }).result;
    if (isCallToolResult(result)) {
      waiting.resolve(result);
    } else {
      waiting.reject(
        new ProtocolError(
          -32603,
          'the upstream answered tools/call with something that is not a tool result',
        ),
      );
    }
  };
  const clientOnClose = transport.onclose;
  transport.onclose = () => {
    const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const waiting of pending.values()) waiting.reject(closed);
    pending.clear();
    clientOnClose?.();
  };

  const cancel = (id: string, reason: unknown) =>
    void transport
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: String(reason) },
      } as JSONRPCMessage)
      // Cancelling is a courtesy to the upstream; the caller already has its answer (timeout or abort).
      .catch(() => {});

  return {
    call(name, args, options) {
      const { signal } = options;
      if (signal?.aborted) return Promise.reject(signal.reason);
      const id = `${DIRECT_ID_PREFIX}${nextId++}`;
      return new Promise<CallToolResult>((resolve, reject) => {
        const startedAt = Date.now();
        const maxTotalMs = options.maxTotalTimeoutMs ?? options.timeoutMs * 10;
        let timer: NodeJS.Timeout | undefined;
        const settle = () => {
          pending.delete(id);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const fail = (error: unknown, reason: unknown) => {
          settle();
          cancel(id, reason);
          reject(error);
        };
        const onAbort = () => fail(signal?.reason, signal?.reason);
        // Like the SDK's resetTimeoutOnProgress: each progress restarts the wait, within the total cap.
        const arm = () => {
          clearTimeout(timer);
          const left = maxTotalMs - (Date.now() - startedAt);
          const capped = left <= options.timeoutMs;
          timer = setTimeout(
            () =>
              fail(
                capped
                  ? new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
                      maxTotalTimeout: maxTotalMs,
                    })
                  : new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', {
                      timeout: options.timeoutMs,
                    }),
                'timeout',
              ),
            Math.max(0, capped ? left : options.timeoutMs),
          );
        };
        arm();
        signal?.addEventListener('abort', onAbort, { once: true });
        const onProgress = options.onProgress;
        pending.set(id, {
          resolve: (result) => {
            settle();
            resolve(result);
          },
          reject: (error) => {
            settle();
            reject(error);
          },
          progress: onProgress
            ? (params) => {
                if (typeof params.progress !== 'number') return;
                onProgress({
                  progress: params.progress,
                  total: typeof params.total === 'number' ? params.total : undefined,
                  message: typeof params.message === 'string' ? params.message : undefined,
                });
                arm();
              }
            : undefined,
        });
        const meta = onProgress ? { ...options.meta, progressToken: id } : options.meta;
        transport
          .send({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
          } as JSONRPCMessage)
          .catch((error: unknown) => pending.get(id)?.reject(error));
      });
    },
    get pending() {
      return pending.size;
    },
  };
}
