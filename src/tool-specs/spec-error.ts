/** Spec-layer errors (R-SPEC-7): PortcullisError with a spec code, a JSON pointer and a message a person can act on. */
import { PortcullisError } from '../errors/index.ts';
import { formatJsonPointer } from '../shared/index.ts';

/** The four codes the spec layer adds (docs/rules/tool-specs.md#r-spec-7-errors). */
export type SpecErrorCode = 'SPEC_PARSE' | 'SPEC_INVARIANT' | 'RESOLVER_REJECT' | 'LOCAL_PASS_FAILED';

/** A value, or every problem found while producing it. */
export type SpecResult<T> = { ok: true; value: T } | { ok: false; errors: PortcullisError[] };

/** Builds one spec error; `pointer` is a JSON pointer into the spec document ('' is the whole document). */
export function createSpecError(
  code: SpecErrorCode,
  pointer: string,
  message: string,
  extra: { reason?: string; details?: Record<string, unknown> } = {},
): PortcullisError {
  return new PortcullisError(code, message, { pointer, ...extra });
}

/** Joins reference tokens into a JSON pointer, escaping `~` and `/` (RFC 6901). */
export function joinPointer(...tokens: readonly (string | number)[]): string {
  return formatJsonPointer(tokens);
}

/** One line for people: `CODE /pointer: message`. */
export function formatSpecError(error: PortcullisError): string {
  return `${error.code} ${error.pointer === undefined || error.pointer === '' ? '/' : error.pointer}: ${error.message}`;
}
