/**
 * The params shapes of the requests a 2025-era client may send, read without zod: each check walks a fixed,
 * shallow path (never the client's data as a whole, never recursively) and names the first thing wrong, so a
 * bad request costs a few property reads and gets `-32602` with a message a person can act on.
 */
import { isRecord } from '../shared/index.ts';

/** Params as the dispatcher hands them to a check: always an object (absent params read as `{}`). */
export type Params = Record<string, unknown>;

/** Names the first problem of `params`, or undefined when the request may run. */
export type ParamsCheck = (params: Params) => string | undefined;

const LOGGING_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The severity rank of a logging level (debug = 0); undefined for a word that is no level. */
export function loggingRank(level: unknown): number | undefined {
  const rank = typeof level === 'string' ? LOGGING_LEVELS.indexOf(level) : -1;
  return rank < 0 ? undefined : rank;
}

const isRequestId = (value: unknown): boolean =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

function stringAt(params: Params, key: string, where = key): string | undefined {
  return typeof params[key] === 'string' ? undefined : `${where} must be a string`;
}

function optionalStringAt(params: Params, key: string): string | undefined {
  return params[key] === undefined ? undefined : stringAt(params, key);
}

/** An optional object whose values are all strings (prompt arguments, completion context). */
function optionalStringMap(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return `${where} must be an object of strings`;
  for (const key in value) {
    // The key is the client's: an answer names at most its first 64 characters.
    if (typeof value[key] !== 'string') return `${where}.${key.slice(0, 64)} must be a string`;
  }
  return undefined;
}

/** The client capabilities the gateway reads: each, when declared, an object. */
function capabilitiesProblem(capabilities: Record<string, unknown>): string | undefined {
  for (const name of ['elicitation', 'sampling', 'roots']) {
    const declared = capabilities[name];
    if (declared !== undefined && !isRecord(declared)) return `capabilities.${name} must be an object`;
  }
  return undefined;
}

/** The `_meta` every request may carry: an object whose progressToken, when present, is a string or integer. */
export const checkMeta: ParamsCheck = (params) => {
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isRecord(meta)) return '_meta must be an object';
  const token = meta.progressToken;
  return token === undefined || isRequestId(token)
    ? undefined
    : '_meta.progressToken must be a string or an integer';
};

const paginated: ParamsCheck = (params) => optionalStringAt(params, 'cursor');

const byUri: ParamsCheck = (params) => stringAt(params, 'uri');

/** The checks of every method the 2025-era server answers, by method. */
export const LEGACY_PARAMS_CHECKS: Readonly<Record<string, ParamsCheck>> = Object.freeze({
  initialize: (params) => {
    const info = params.clientInfo;
    return (
      stringAt(params, 'protocolVersion') ??
      (isRecord(params.capabilities)
        ? capabilitiesProblem(params.capabilities)
        : 'capabilities must be an object') ??
      (isRecord(info) ? undefined : 'clientInfo must be an object') ??
      (typeof (info as Params).name === 'string' ? undefined : 'clientInfo.name must be a string') ??
      (typeof (info as Params).version === 'string' ? undefined : 'clientInfo.version must be a string')
    );
  },
  ping: () => undefined,
  'tools/list': paginated,
  'tools/call': (params) =>
    stringAt(params, 'name') ??
    (params.arguments === undefined || isRecord(params.arguments)
      ? undefined
      : 'arguments must be an object'),
  'prompts/list': paginated,
  'prompts/get': (params) => stringAt(params, 'name') ?? optionalStringMap(params.arguments, 'arguments'),
  'resources/list': paginated,
  'resources/templates/list': paginated,
  'resources/read': byUri,
  'resources/subscribe': byUri,
  'resources/unsubscribe': byUri,
  'completion/complete': (params) => {
    const { ref, argument, context } = params;
    if (!isRecord(ref)) return 'ref must be an object';
    if (ref.type === 'ref/prompt') {
      if (typeof ref.name !== 'string') return 'ref.name must be a string';
    } else if (ref.type === 'ref/resource') {
      if (typeof ref.uri !== 'string') return 'ref.uri must be a string';
    } else return 'ref.type must be "ref/prompt" or "ref/resource"';
    if (!isRecord(argument)) return 'argument must be an object';
    if (typeof argument.name !== 'string') return 'argument.name must be a string';
    if (typeof argument.value !== 'string') return 'argument.value must be a string';
    if (context === undefined) return undefined;
    if (!isRecord(context)) return 'context must be an object';
    return optionalStringMap(context.arguments, 'context.arguments');
  },
  'logging/setLevel': (params) =>
    loggingRank(params.level) === undefined ? `level must be one of ${LOGGING_LEVELS.join(', ')}` : undefined,
});
