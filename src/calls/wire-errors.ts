/**
 * The one mapping from an error to the wire (docs/errors.md, "How a code reaches the caller"): a tool error
 * result the model can act on, or a JSON-RPC error. Every message is masked before it crosses /mcp; unexpected
 * errors are reported as INTERNAL without their internals.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { isPortcullisError, type ErrorCode } from '../errors/index.ts';
import type { Masker } from '../secrets/index.ts';

/** Codes answered as JSON-RPC errors rather than tool results. */
const PROTOCOL_ERROR_CODES: Partial<Record<ErrorCode, ProtocolErrorCode>> = {
  UNKNOWN_TOOL: ProtocolErrorCode.InvalidParams,
  INVALID_REQUEST: ProtocolErrorCode.InvalidRequest,
  PARSE_ERROR: ProtocolErrorCode.ParseError,
  CLIENT_CAPABILITY_REQUIRED: ProtocolErrorCode.MissingRequiredClientCapability,
};

/** The wire form of an error. */
export type WireError =
  { kind: 'tool-error'; result: CallToolResult } | { kind: 'protocol-error'; error: ProtocolError };

/** Maps any error to its wire form, masking every message. */
export function toWireError(error: unknown, masker: Pick<Masker, 'mask'>): WireError {
  if (!isPortcullisError(error)) {
    return {
      kind: 'tool-error',
      result: toolErrorResult(
        'INTERNAL',
        'Portcullis hit an unexpected error running this tool; see the gateway log.',
      ),
    };
  }
  const message = masker.mask(error.message);
  const protocolCode = PROTOCOL_ERROR_CODES[error.code];
  if (protocolCode !== undefined) {
    // The data is the gateway's own: its code, and for -32021 the capabilities it rebuilt from the upstream's.
    const required = error.details?.['requiredCapabilities'];
    const data = { code: error.code, ...(required === undefined ? {} : { requiredCapabilities: required }) };
    return { kind: 'protocol-error', error: new ProtocolError(protocolCode, message, data) };
  }
  return { kind: 'tool-error', result: toolErrorResult(error.code, message, error.reason) };
}

/** A tool result with isError, a readable text and the stable code in structured form. */
export function toolErrorResult(code: ErrorCode | string, message: string, reason?: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: message }],
    _meta: { 'dev.portcullis/error': { code, ...(reason === undefined ? {} : { reason }) } },
  };
}
