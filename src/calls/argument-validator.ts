/** Validates tool arguments against the tool's inputSchema, compiling each schema once (the validate stage, docs/architecture.md). */
import { PortcullisError } from '../errors/index.ts';
import { foreignSchemaEngine } from '../upstream/index.ts';
import { NonLinearPatternError } from '../shared/index.ts';
import type { JsonSchemaObject, ToolArguments } from '../shared/index.ts';

type Validate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

interface Compiled {
  validate: Validate;
  /** Why arguments cannot be checked against the schema; set when it did not compile. */
  problem?: string;
}

/** Validates arguments; throws INVALID_ARGUMENTS naming the first problems. */
export interface ArgumentValidator {
  validate(alias: string, schema: JsonSchemaObject | undefined, args: unknown): ToolArguments;
  /** Why no call to a tool with this schema could be checked (the tool is withheld), or undefined. */
  schemaProblem(schema: JsonSchemaObject | undefined): string | undefined;
}

// Bounded in count and in size: an upstream chooses its schemas, and a cached text keeps its compiled validator
// alive after the tool is gone. Larger schemas are shared by object identity only.
const MAX_COMPILED_TEXTS = 512;
const MAX_SHARED_SCHEMA_CHARS = 16_384;

/** Creates a validator with a compile cache keyed by schema object identity and by schema text. */
export function createArgumentValidator(): ArgumentValidator {
  // Upstream schemas use drafts 07 and 2020-12; their regular expressions run in linear time (docs/security.md).
  const draft7 = foreignSchemaEngine('draft-07');
  const draft2020 = foreignSchemaEngine('2020-12');
  const cache = new WeakMap<object, Compiled>();
  // Many tools share one schema shape, and a reconnecting upstream sends equal schemas as new objects: compile
  // each text once (ajv's own cache is keyed by object).
  const byText = new Map<string, Compiled>();

  const compile = (schema: JsonSchemaObject): Compiled => {
    let compiled = cache.get(schema);
    if (compiled) return compiled;
    const json = JSON.stringify(schema);
    const text = json.length <= MAX_SHARED_SCHEMA_CHARS ? json : undefined;
    compiled = text === undefined ? undefined : byText.get(text);
    if (!compiled) {
      const uses2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
      try {
        const { $id: _id, ...withoutId } = schema;
        compiled = { validate: (uses2020 ? draft2020 : draft7).compile(withoutId) as Validate };
      } catch (error) {
        // Fail closed: arguments that cannot be checked are not forwarded.
        const problem =
          error instanceof NonLinearPatternError
            ? error.message
            : `input schema cannot be compiled: ${(error as Error).message}`;
        const message = `the tool's ${problem}; calls are refused`;
        const validate = Object.assign(() => false, { errors: [{ instancePath: '', message }] }) as Validate;
        compiled = { validate, problem };
      }
      // Cleared when full rather than evicted one by one: bounded, and as cheap as a miss.
      if (text !== undefined) {
        if (byText.size >= MAX_COMPILED_TEXTS) byText.clear();
        byText.set(text, compiled);
      }
    }
    cache.set(schema, compiled);
    return compiled;
  };

  return {
    validate(alias, schema, args) {
      const value = args ?? {};
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new PortcullisError('INVALID_ARGUMENTS', `arguments of ${alias} must be a JSON object`);
      }
      if (schema) {
        const { validate } = compile(schema);
        if (!validate(value)) {
          const problems = (validate.errors ?? [])
            .slice(0, 5)
            .map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}`);
          throw new PortcullisError(
            'INVALID_ARGUMENTS',
            `invalid arguments for ${alias}: ${problems.join('; ')}`,
            {
              details: { problems },
            },
          );
        }
      }
      return value as ToolArguments;
    },
    schemaProblem: (schema) => (schema ? compile(schema).problem : undefined),
  };
}
