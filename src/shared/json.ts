/** JSON shapes whose keys are chosen by someone outside Portcullis, named for what they carry. */

/** The arguments of a tool call as the client sent them: a JSON object, checked against the tool's schema. */
export type ToolArguments = { [name: string]: unknown };

/** A JSON Schema object as an upstream or a spec declares it (draft-07 or 2020-12), compiled before use. */
export type JsonSchemaObject = { [keyword: string]: unknown };

/** The `_meta` object of an MCP message: keys namespaced by whoever wrote them. */
export type McpMeta = { [key: string]: unknown };

/** True for a JSON object: neither null nor an array (its keys may be anyone's). */
export function isRecord(value: unknown): value is { [key: string]: unknown } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
