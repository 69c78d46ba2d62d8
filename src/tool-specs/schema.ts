/** Validates a raw document against the committed Safe Tool Spec JSON Schema (2020-12), compiled once. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import type { PortcullisError } from '../errors/index.ts';
import schema from './safe-tool-spec.schema.json' with { type: 'json' };
import { createSpecError, joinPointer } from './spec-error.ts';

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validateDocument = ajv.compile(schema);

function toError(error: ErrorObject): PortcullisError | undefined {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  switch (error.keyword) {
    case 'required':
      return createSpecError(
        'SPEC_PARSE',
        at + joinPointer(String(params['missingProperty'])),
        `missing required field "${String(params['missingProperty'])}"`,
      );
    case 'additionalProperties':
      return createSpecError(
        'SPEC_PARSE',
        at + joinPointer(String(params['additionalProperty'])),
        `unknown field "${String(params['additionalProperty'])}" (this block has a closed shape; remove it or move it to a vendor-prefixed top-level field)`,
      );
    case 'enum':
      return createSpecError(
        'SPEC_PARSE',
        at,
        `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'type':
      return createSpecError('SPEC_PARSE', at, `must be of type ${String(params['type'])}`);
    case 'minProperties':
    case 'maxProperties':
      return createSpecError(
        'SPEC_PARSE',
        at,
        'a static variable entry must be an object with exactly one key, e.g. { "apiKey": "${API_KEY}" }',
      );
    case 'pattern':
      return createSpecError('SPEC_PARSE', at, `must match ${String(params['pattern'])}`);
    case 'propertyNames':
      return undefined; // the nested error names the offending key
    default:
      return createSpecError('SPEC_PARSE', at, error.message ?? error.keyword);
  }
}

/** Every schema violation of `document` as SPEC_PARSE errors with JSON pointers; empty when valid. */
export function validateSpecDocument(document: unknown): PortcullisError[] {
  if (validateDocument(document)) return [];
  const seen = new Set<string>();
  const errors: PortcullisError[] = [];
  for (const raw of validateDocument.errors ?? []) {
    const error = toError(raw);
    if (error === undefined) continue;
    const key = `${error.pointer ?? ''}\u0000${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(error);
  }
  return errors;
}
