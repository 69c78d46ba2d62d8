/** JSON-RPC error responses the HTTP front door answers before a request reaches an MCP server instance. */
import type { ErrorCode } from '../errors/index.ts';

/** JSON-RPC error codes used at the door. */
export const JSON_RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  INTERNAL_ERROR: -32603,
  HEADER_MISMATCH: -32020,
} as const;

/**
 * A JSON-RPC error response with the given HTTP status; `data.code` carries the stable Portcullis code, `id` the
 * request's id when the door read one.
 */
export function jsonRpcError(
  status: number,
  rpcCode: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): Response {
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', id, error: { code: rpcCode, message, data: { code } } }),
    {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    },
  );
}
