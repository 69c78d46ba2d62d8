/**
 * shared: the few pieces every domain may use — the linear-time regular expression engine, canonical JSON
 * profiles, host patterns, JSON Pointer, the protocol era, Java-compatible text helpers, and the JSON-RPC
 * message shapes, stdio line framing and 2026-era per-request headers both hops use.
 */
export { linearRegExp, NonLinearPatternError } from './linear-regexp.ts';
export {
  escapeJsonPointerToken,
  formatJsonPointer,
  parseJsonPointer,
  resolveJsonPointer,
  unescapeJsonPointerToken,
} from './json-pointer.ts';
export { isHostAllowed, matchesHostPattern } from './host-pattern.ts';
export type { Era } from './era.ts';
export { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION } from './era.ts';
export { JAVA_SPACE, isBlank, javaTrim, lowerKeepingOffsets } from './java-text.ts';
export { canonicalJson, sha256Hex } from './canonical-json.ts';
export { DEFINITION_FIELDS } from './definition-fields.ts';
export type { DefinitionField } from './definition-fields.ts';

export { PORTCULLIS_VERSION } from './version.ts';
export type { JsonSchemaObject, McpMeta, ToolArguments } from './json.ts';
export { isRecord } from './json.ts';
export { hasEnvelopeClaim, plainMessage, readJsonRpcMessage } from './json-rpc-shape.ts';
export type { RequestId } from './json-rpc-shape.ts';
export { corkUntilEndOfTurn, JsonLineReader } from './json-lines.ts';
export {
  argumentAt,
  BASE64_HEADER_CLOSE,
  BASE64_HEADER_OPEN,
  headerAnnotations,
  MCP_NAME_FIELD,
} from './mcp-headers.ts';
