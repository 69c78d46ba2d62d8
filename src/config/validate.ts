/** Validates a parsed configuration document against the committed JSON Schema, with path-naming errors. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { unescapeJsonPointerToken } from '../shared/index.ts';
import schema from './portcullis.schema.json' with { type: 'json' };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  strictRequired: false,
  useDefaults: true,
  allowUnionTypes: true,
});
addFormats(ajv);
const validateDocument = ajv.compile(schema);

/** Renders a JSON pointer (`/upstreams/files/args/0`) as a readable path (`upstreams.files.args[0]`). */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '(root)';
  return pointer
    .split('/')
    .slice(1)
    .map(unescapeJsonPointerToken)
    .reduce(
      (path, part) => (/^[0-9]+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
      '',
    );
}

const RULE_HINTS: Record<string, string> = {
  '#/$defs/identifier/pattern': 'ids are 1-32 characters of letters, digits, _ and -, starting alphanumeric',
  '#/$defs/exposedName/pattern': 'exposed tool names match [A-Za-z0-9_-]{1,64}',
  '#/$defs/duration/pattern': 'durations look like 500ms, 30s, 5m or 1h',
};

function describe(error: ErrorObject): string | undefined {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${path === '(root)' ? '' : `${path}.`}${String(params.additionalProperty)}: unknown key (not in the configuration schema)`;
    case 'enum':
      return `${path}: must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'required':
      return `${path}: missing required key "${String(params.missingProperty)}"`;
    case 'pattern': {
      const hint = RULE_HINTS[error.schemaPath];
      return `${path}: does not match ${String(params.pattern)}${hint ? ` (${hint})` : ''}`;
    }
    case 'propertyNames':
      return undefined; // the nested pattern error names the offending key more precisely
    case 'if':
    case 'oneOf':
      return undefined; // reported through the more specific branch errors
    case 'not':
      return `${path}: has keys that do not belong to its transport (stdio takes command/args/env/cwd; http and sse take url/headers)`;
    default:
      return `${path}: ${error.message ?? error.keyword}`;
  }
}

/** Validates and fills defaults in place; returns the list of human-readable problems (empty when valid). */
export function validateConfigDocument(document: unknown): string[] {
  if (validateDocument(document)) return [];
  const problems = (validateDocument.errors ?? [])
    .map((error) => {
      if (error.keyword === 'pattern' && error.propertyName !== undefined) {
        return `${pointerToPath(error.instancePath)}: key "${error.propertyName}" does not match ${String((error.params as { pattern: string }).pattern)}${RULE_HINTS[error.schemaPath] ? ` (${RULE_HINTS[error.schemaPath]})` : ''}`;
      }
      return describe(error);
    })
    .filter((problem): problem is string => problem !== undefined);
  return [...new Set(problems)];
}
