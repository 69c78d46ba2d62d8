/**
 * The last gate of every JSON-RPC error a downstream server sends (docs/security.md, "Masking"): whoever built
 * the error (a handler, the gateway's wire mapping, the dispatcher itself), its message and data pass the masker on
 * the way to the transport, so no path can skip it.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** What masks the text of an outgoing error. */
export interface ErrorMasker {
  mask(text: string): string;
  maskDeep<T>(value: T): T;
}

/** Masks the `error` of a JSON-RPC error response; every other message passes unchanged. */
export function maskErrorResponse(message: JSONRPCMessage, masker: ErrorMasker): JSONRPCMessage {
  const error = (message as { error?: unknown }).error;
  if (error === null || typeof error !== 'object') return message;
  const { message: text, data, ...rest } = error as { message?: unknown; data?: unknown };
  return {
    ...message,
    error: {
      ...rest,
      message: typeof text === 'string' ? masker.mask(text) : text,
      ...(data === undefined ? {} : { data: masker.maskDeep(data) }),
    },
  } as JSONRPCMessage;
}
