/**
 * The door check of a tools/call (docs/security.md, "Hostile input"): arguments nested deeper than
 * MAX_JSON_DEPTH levels or holding more than MAX_JSON_NODES values are refused before validation, approval or
 * execution, so no later stage (schema check, masking, digests, the upstream's encoder) walks an unbounded value.
 * A result nested deeper than MAX_RESULT_DEPTH is refused on the way back for the same reason.
 */
import { jsonShapeExcess, MAX_JSON_DEPTH, MAX_JSON_NODES, MAX_RESULT_DEPTH } from '../audit/index.ts';
import { PortcullisError } from '../errors/index.ts';

const PROBLEMS = {
  'too-deep': `are nested deeper than ${MAX_JSON_DEPTH} levels`,
  'too-many-nodes': `hold more than ${MAX_JSON_NODES} values`,
  'not-json': 'are not plain JSON data',
} as const;

/** The refusal of arguments beyond the bounds (INVALID_ARGUMENTS, reason too-deep|too-many-nodes|not-json), or undefined. */
export function argumentLimitError(alias: string, args: unknown): PortcullisError | undefined {
  const excess = jsonShapeExcess(args);
  if (excess === undefined) return undefined;
  return new PortcullisError(
    'INVALID_ARGUMENTS',
    `arguments of ${alias} ${PROBLEMS[excess]}; Portcullis refuses such calls before they run ` +
      `(at most ${MAX_JSON_DEPTH} levels and ${MAX_JSON_NODES} values): flatten the arguments or send the ` +
      'nested part as a string',
    { reason: excess },
  );
}

/** What the audit record keeps of refused arguments: a note, never the unbounded value itself. */
export function refusedArgumentsNote(error: PortcullisError): string {
  return `[not recorded: ${error.message.split(';')[0]}]`;
}

/** The refusal of a result nested deeper than MAX_RESULT_DEPTH (UPSTREAM_ERROR, reason result-too-deep), or undefined. */
export function resultLimitError(alias: string, result: unknown): PortcullisError | undefined {
  if (jsonShapeExcess(result, MAX_RESULT_DEPTH, Number.POSITIVE_INFINITY) !== 'too-deep') return undefined;
  return new PortcullisError(
    'UPSTREAM_ERROR',
    `the result of ${alias} is nested deeper than ${MAX_RESULT_DEPTH} levels, more than Portcullis passes on; ` +
      'the tool ran, but its result was dropped: ask the tool for a flatter answer',
    { reason: 'result-too-deep' },
  );
}
