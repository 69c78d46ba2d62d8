/**
 * JSON Schema engines for schemas an upstream wrote (tool input and output schemas, elicitation forms): ajv
 * with every regular expression on the linear-time engine (docs/security.md), so no upstream schema can
 * freeze the event loop, whoever supplies the value it checks.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { linearRegExp } from '../shared/index.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

/** The JSON Schema dialects foreign schemas come in. */
export type ForeignDialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * A fresh ajv engine for foreign schemas: strict mode off (they carry unknown keywords; strict mode would
 * also test property names against patternProperties on the native engine), formats registered.
 */
export function foreignSchemaEngine(dialect: ForeignDialect): Ajv {
  const options = { strict: false, allErrors: true, validateSchema: false, code: { regExp: linearRegExp } };
  const engine =
    dialect === '2020-12'
      ? new Ajv2020(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv(options);
  addFormats(engine as Ajv);
  return engine as Ajv;
}

/** The dialect a schema declares, `fallback` when it declares none; throws for one no engine here speaks. */
export function declaredDialect(schema: object, fallback: ForeignDialect): ForeignDialect {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return fallback;
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  if (/draft-0[67]/.test(declared)) return 'draft-07';
  throw new Error(`unsupported JSON Schema dialect ${JSON.stringify(declared.slice(0, 200))}`);
}

/**
 * The MCP SDK's validator provider (Client: tool outputSchema; Server: elicitation requestedSchema) on the
 * linear-time engines; a schema without `$schema` is 2020-12, as in the SDK's own provider.
 */
export function linearJsonSchemaValidator(): jsonSchemaValidator {
  const engines = new Map<ForeignDialect, Ajv>();
  const engineFor = (dialect: ForeignDialect) => {
    let engine = engines.get(dialect);
    if (!engine) engines.set(dialect, (engine = foreignSchemaEngine(dialect)));
    return engine;
  };
  return {
    getValidator<T>(schema: object) {
      const engine = engineFor(declaredDialect(schema, '2020-12'));
      const id = (schema as { $id?: unknown }).$id;
      const validate = (typeof id === 'string' ? engine.getSchema(id) : undefined) ?? engine.compile(schema);
      return (input: unknown) =>
        validate(input)
          ? { valid: true as const, data: input as T, errorMessage: undefined }
          : { valid: false as const, data: undefined, errorMessage: engine.errorsText(validate.errors) };
    },
  };
}
