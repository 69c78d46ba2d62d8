/**
 * The fields any ledger fingerprint covers, in review order: a tool's six keep their order, and the fields of
 * prompts, resources, resource templates and server instructions sit among them (a definition lacks the fields
 * of other kinds). Shared so the ledger's diff and the console's side-by-side view read one list.
 */
export const DEFINITION_FIELDS = [
  'name',
  'title',
  'description',
  'instructions',
  'uri',
  'uriTemplate',
  'mimeType',
  'arguments',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;

/** One fingerprinted field. */
export type DefinitionField = (typeof DEFINITION_FIELDS)[number];
