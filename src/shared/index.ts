/**
 * shared: the few pieces every domain may use — the linear-time regular expression engine, canonical JSON
 * profiles, host patterns, JSON Pointer, the protocol era and Java-compatible text helpers.
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
export { JAVA_SPACE, isBlank, javaTrim, lowerKeepingOffsets } from './java-text.ts';
export { canonicalJson, sha256Hex } from './canonical-json.ts';
export { DEFINITION_FIELDS } from './definition-fields.ts';
export type { DefinitionField } from './definition-fields.ts';

export { PORTCULLIS_VERSION } from './version.ts';
export type { JsonSchemaObject, McpMeta, ToolArguments } from './json.ts';
export { isRecord } from './json.ts';
