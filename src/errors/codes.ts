/**
 * Every stable error code Portcullis emits, with the one-line meaning that docs/errors.md repeats.
 * A test keeps this table and docs/errors.md in sync: add a code here and a row there.
 */
export const ERROR_CODES = {
  // Safe Tool Spec (spec/)
  SPEC_PARSE: 'The spec document is not valid JSON/YAML or does not match the Safe Tool Spec schema.',
  SPEC_INVARIANT: 'The spec breaks a cross-field rule (e.g. a required param without a testValue).',
  RESOLVER_REJECT:
    'The sandbox policy could not be resolved (profile cycle, unknown profile, allow/deny overlap).',
  LOCAL_PASS_FAILED: 'Running the spec with its testValues in the sandbox failed.',
  // Sandbox helpers (sandbox/)
  INVALID_INPUT: 'A helper was called with an argument it cannot use (missing path, bad URL, bad option).',
  HELPER_RUNTIME:
    'A helper failed while doing legitimate work (I/O error, upstream HTTP failure, parse error).',
  SECURITY:
    'A helper refused an operation that the sandbox policy forbids (egress, path escape, destructive op).',
  SANDBOX_LIMIT: 'The tool exceeded its memory, CPU-time, wall-clock or result-size limit.',
  SANDBOX_ERROR: 'The tool code threw an error.',
  // Configuration (config/)
  CONFIG_INVALID:
    'The configuration file does not match the schema; the message names the path and the rule.',
  CONFIG_NOT_FOUND: 'The configuration file named with --config does not exist.',
  // Store (store/)
  STORE_NEWER_SCHEMA: 'The database was written by a newer Portcullis; refuse to downgrade it.',
  STORE_MIGRATION_FAILED: 'A migration failed and was rolled back; the database is unchanged.',
  STORE_CORRUPT: 'The database file is damaged or is not a SQLite database; it is refused, never repaired.',
  // Gateway and upstreams (gateway/, upstream/)
  UNKNOWN_TOOL: 'No exposed tool has that name (unknown, withheld or hidden tools all answer this).',
  INVALID_ARGUMENTS:
    'Tool arguments do not match the inputSchema, exceed the nesting/size limits or cannot be encoded.',
  UNKNOWN_PROMPT: 'No prompt the caller may read has that name (unknown, withheld or outside the profile).',
  UNKNOWN_RESOURCE:
    'No resource the caller may read has that URI (unknown, withheld or outside the profile).',
  UPSTREAM_UNAVAILABLE: 'The upstream server that owns the tool is not connected right now.',
  UPSTREAM_TIMEOUT: 'The upstream did not answer within the per-call timeout.',
  UPSTREAM_ERROR: 'The upstream answered the call with an error.',
  CLIENT_CAPABILITY_REQUIRED:
    'The upstream needs a client capability the 2026-era request did not declare (JSON-RPC -32021, HTTP 400).',
  UPSTREAM_TOOL_ERROR:
    'The upstream tool ran and returned a result with isError (its own failure, passed through).',
  TOOL_DENIED: 'The approval policy or the human approver denied the call.',
  RATE_LIMITED: 'A rate-limit rule denied the call; retry after the time given.',
  APPROVAL_STATE_INVALID: 'A requestState was tampered with, replayed, expired or bound to other arguments.',
  REQUEST_STATE_INVALID:
    "A relayed upstream round's requestState did not open (tampered, replayed, expired, another caller's or call's).",
  APPROVAL_TIMEOUT: 'No operator answered the call in the approval inbox before it expired.',
  APPROVAL_INBOX_FULL: "The approval inbox (or the caller's share of it) is full; retry later.",
  RESPONSE_WITHHELD:
    'The response scan withheld an answer: it holds instructions aimed at the model, or could not be scanned.',
  INTERNAL: 'An unexpected internal error; details are in the gateway log.',
  // HTTP front door (http/)
  UNAUTHORIZED: 'Missing or wrong API key or access token (Authorization: Bearer).',
  INSUFFICIENT_SCOPE: 'The access token is valid but lacks a scope the gateway requires.',
  AUTH_UNAVAILABLE: "The authorization server's keys or introspection endpoint could not be reached.",
  FORBIDDEN:
    'The credential is valid, but its role (or, without admin keys, the place it comes from) does not allow this.',
  FORBIDDEN_ORIGIN: 'The Origin or Host header is not allowed (DNS-rebinding protection).',
  BODY_TOO_LARGE: 'The request body exceeds the configured cap.',
  UNSUPPORTED_MEDIA_TYPE: 'The request Content-Type is not application/json.',
  HEADER_MISMATCH:
    'An Mcp-Param-* header of a 2026-era tools/call is missing, not canonical Base64, or differs from the argument it mirrors.',
  PARSE_ERROR: 'The request body is not valid JSON.',
  INVALID_REQUEST: 'The request is not a valid JSON-RPC 2.0 message.',
  TOO_MANY_SESSIONS:
    'No new 2025-era session: the gateway (503) or this caller (429) holds as many as configured.',
  TOO_MANY_REQUESTS:
    'As many requests are running as allowed: on this 2025-era session or stdio connection, or for this caller in the 2026 era.',
  SESSION_NOT_FOUND: 'The Mcp-Session-Id is unknown or expired; start a new session.',
  PROFILE_NOT_FOUND: 'No profile of that name is configured (/mcp/<profile>).',
  PROFILE_FORBIDDEN: "The caller is authenticated but not among the profile's principals.",
  NOT_FOUND: 'The requested admin resource does not exist.',
  SIGN_IN_RATE_LIMITED:
    'Too many failed sign-ins or admin credentials from this address; wait the Retry-After time, then try again.',
  LISTEN_FAILED: 'The gateway could not listen on the configured host and port (in use, no permission).',
} as const;

/** A stable error code. */
export type ErrorCode = keyof typeof ERROR_CODES;
