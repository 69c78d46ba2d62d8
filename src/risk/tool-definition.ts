// The shape of an MCP tool definition as the risk scorers and the scanner read it (plain JSON data).

/** The MCP tool annotations the scorers read; every hint is optional and absent means "not specified". */
export interface ToolAnnotations {
  readonly title?: string | undefined;
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
  readonly [key: string]: unknown;
}

/** A tool definition as listed by an upstream (`tools/list`) or written in a catalog; JSON values only. */
export interface McpToolDefinition {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: ToolAnnotations | undefined;
}
