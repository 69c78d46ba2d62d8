/**
 * Binding of parameters and static variables as top-level identifiers (docs/rules/sandbox.md#r-sandbox-3-arguments-as-identifiers): names
 * must be valid identifiers that do not shadow the injected globals, values are copied in as JSON, and null or
 * blank-string values are dropped to `undefined` like the reference does.
 */
import { PortcullisError } from '../../errors/index.ts';

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u;

const RESERVED_WORDS = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof new null return super switch this throw true try typeof var void while with ' +
    'yield let static implements interface package private protected public await async arguments eval undefined ' +
    'NaN Infinity globalThis __proto__'
  ).split(' '),
);

// The sandbox's own globals: a parameter may not replace them.
const INJECTED_GLOBALS = new Set([
  'console',
  'fetch',
  'URL',
  'URLSearchParams',
  'atob',
  'btoa',
  'TextEncoder',
  'TextDecoder',
  'crypto',
  'safety',
  'queueMicrotask',
  'Headers',
]);

/** The arguments as they cross into the isolate. */
export interface BoundArguments {
  /** Every name to declare, in order (missing values are declared as undefined). */
  names: string[];
  /** A JSON object with the present values. */
  json: string;
}

/** Why `name` cannot be bound as a top-level identifier of tool code, or undefined when it can. */
export function bindingProblem(name: string): string | undefined {
  if (!IDENTIFIER.test(name)) return `"${name}" is not a JavaScript identifier, so tool code cannot read it`;
  if (RESERVED_WORDS.has(name)) return `"${name}" is a reserved word in JavaScript; pick another name`;
  if (INJECTED_GLOBALS.has(name)) return `"${name}" would shadow the sandbox global of the same name`;
  if (name.startsWith('__pc')) return `"${name}" uses the prefix __pc, which the sandbox keeps for itself`;
  return undefined;
}

/** True when `name` can be bound as a top-level identifier of tool code. */
export function isBindableName(name: string): boolean {
  return bindingProblem(name) === undefined;
}

/** The globals the sandbox injects; a parameter or static variable of the same name is refused. */
export function injectedGlobalNames(): string[] {
  return [...INJECTED_GLOBALS];
}

/** Validates names and serializes values; throws INVALID_INPUT naming the first bad name or value. */
export function bindArguments(args: Record<string, unknown>): BoundArguments {
  const names: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (!isBindableName(name)) {
      throw new PortcullisError('INVALID_INPUT', `"${name}" cannot be bound as a tool parameter name`, {
        reason: 'invalid-parameter-name',
        pointer: `/args/${name}`,
      });
    }
    names.push(name);
    const blank = value === null || (typeof value === 'string' && value.trim() === '');
    if (!blank && value !== undefined) Object.defineProperty(values, name, { value, enumerable: true });
  }
  let json: string;
  try {
    json = JSON.stringify(values);
  } catch (cause) {
    throw new PortcullisError('INVALID_INPUT', 'tool arguments are not JSON-serializable', {
      reason: 'invalid-arguments',
      cause,
    });
  }
  return { names, json };
}
