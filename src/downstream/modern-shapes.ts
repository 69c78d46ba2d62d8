/**
 * The shapes of a 2026-era request read without zod: its per-request `_meta` envelope, the retry material of an
 * input round, the filter of `subscriptions/listen` and the client capabilities an input round needs. Each check
 * walks a fixed, shallow path (never the client's data as a whole, never recursively) and names the first thing
 * wrong, so a bad request costs a few property reads and gets an answer a person can act on.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
} from '@modelcontextprotocol/server';
import { isRecord } from '../shared/index.ts';
import { loggingRank } from './legacy-shapes.ts';

/** One problem of an envelope: which key, what is wrong with it. */
export interface EnvelopeIssue {
  key: string;
  problem: string;
}

/** The reserved envelope keys of a 2026-era request's `_meta`, as the dispatcher reads them. */
export interface Envelope {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  /** The level below which this request's log messages are not sent; none at all when absent. */
  logLevel: string | undefined;
}

const RESERVED_KEYS = [
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
] as const;

/** Whether `meta` names any reserved envelope key (a request without one has no envelope at all). */
export function hasEnvelopeKey(meta: Record<string, unknown>): boolean {
  for (const key of RESERVED_KEYS) if (key in meta) return true;
  return false;
}

const isRequestId = (value: unknown): boolean =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

/** The first problem of a request's `_meta` as a 2026-07-28 envelope, or undefined when it is one. */
export function envelopeIssue(meta: Record<string, unknown>): EnvelopeIssue | undefined {
  const version = meta[PROTOCOL_VERSION_META_KEY];
  if (version === undefined) return { key: PROTOCOL_VERSION_META_KEY, problem: 'missing' };
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (capabilities === undefined) return { key: CLIENT_CAPABILITIES_META_KEY, problem: 'missing' };
  if (typeof version !== 'string') return { key: PROTOCOL_VERSION_META_KEY, problem: 'expected a string' };
  if (!isRecord(capabilities)) return { key: CLIENT_CAPABILITIES_META_KEY, problem: 'expected an object' };
  for (const name of ['elicitation', 'sampling', 'roots', 'experimental']) {
    const declared = capabilities[name];
    if (declared !== undefined && !isRecord(declared))
      return { key: `${CLIENT_CAPABILITIES_META_KEY}.${name}`, problem: 'expected an object' };
  }
  const info = meta[CLIENT_INFO_META_KEY];
  if (info !== undefined) {
    if (!isRecord(info)) return { key: CLIENT_INFO_META_KEY, problem: 'expected an object' };
    for (const field of ['name', 'version']) {
      if (typeof info[field] !== 'string')
        return { key: `${CLIENT_INFO_META_KEY}.${field}`, problem: 'expected a string' };
    }
  }
  const level = meta[LOG_LEVEL_META_KEY];
  if (level !== undefined && loggingRank(level) === undefined)
    return { key: LOG_LEVEL_META_KEY, problem: 'expected a logging level' };
  const token = meta.progressToken;
  if (token !== undefined && !isRequestId(token))
    return { key: 'progressToken', problem: 'expected a string or an integer' };
  return undefined;
}

/** The envelope of a `_meta` that `envelopeIssue` found no problem with. */
export function readEnvelope(meta: Record<string, unknown>): Envelope {
  return {
    protocolVersion: meta[PROTOCOL_VERSION_META_KEY] as string,
    clientCapabilities: meta[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities,
    logLevel: meta[LOG_LEVEL_META_KEY] as string | undefined,
  };
}

/** The protocol version a `_meta` claims (the claim is the presence of the key), or undefined. */
export function claimedVersion(params: unknown): string | undefined {
  const meta = isRecord(params) ? params._meta : undefined;
  if (!isRecord(meta)) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}

/**
 * The answers of a retried input round the call may read: the bare answer objects only. An entry that is no
 * object, or a wrapped `{method, result}` one, is left out, so the round asks for it again.
 */
export function acceptedInputResponses(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  const accepted: Record<string, unknown> = {};
  if (!isRecord(value)) return accepted;
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (isRecord(entry) && !('method' in entry) && !('result' in entry)) accepted[key] = entry;
  }
  return accepted;
}

/** What a `subscriptions/listen` request asks to be told about. */
export interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
}

const LISTEN_FLAGS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;

/**
 * The filter of a `subscriptions/listen` request, or undefined when its `notifications` is not one. Resource
 * subscriptions are read for their shape only: the gateway's 2026-era server does not offer them.
 */
export function readListenFilter(params: unknown): ListenFilter | undefined {
  const filter = isRecord(params) ? params.notifications : undefined;
  if (!isRecord(filter)) return undefined;
  const honored: ListenFilter = {};
  for (const flag of LISTEN_FLAGS) {
    const value = filter[flag];
    if (value !== undefined && typeof value !== 'boolean') return undefined;
    if (value === true) honored[flag] = true;
  }
  const uris = filter.resourceSubscriptions;
  if (uris !== undefined && !(Array.isArray(uris) && uris.every((uri) => typeof uri === 'string')))
    return undefined;
  return honored;
}

/** The client capability an input request needs, as the spec names it; undefined for a kind it does not define. */
function requiredCapability(request: unknown): Record<string, Record<string, object>> | undefined {
  if (!isRecord(request)) return undefined;
  const params = isRecord(request.params) ? request.params : {};
  switch (request.method) {
    case 'elicitation/create':
      return { elicitation: params.mode === 'url' ? { url: {} } : { form: {} } };
    case 'sampling/createMessage':
      return params.tools !== undefined || params.toolChoice !== undefined
        ? { sampling: { tools: {} } }
        : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
    default:
      return undefined;
  }
}

/**
 * The capabilities `request` needs that `declared` lacks (an elicitation capability that names neither form nor
 * url grants form), or undefined when it has them all; `'unknown'` for a request the revision does not define.
 */
export function missingCapabilities(
  request: unknown,
  declared: ClientCapabilities | undefined,
): Record<string, Record<string, object>> | 'unknown' | undefined {
  const required = requiredCapability(request);
  if (required === undefined) return 'unknown';
  const [name, members] = Object.entries(required)[0] as [string, Record<string, object>];
  const have = (declared as Record<string, unknown> | undefined)?.[name];
  if (!isRecord(have)) return { [name]: members };
  const lacking: Record<string, object> = {};
  for (const member of Object.keys(members)) {
    const implied =
      name === 'elicitation' && member === 'form' && have.form === undefined && have.url === undefined;
    if (have[member] === undefined && !implied) lacking[member] = {};
  }
  return Object.keys(lacking).length > 0 ? { [name]: lacking } : undefined;
}

/** The members of each client capability whose shape is read here; anything else leaves the envelope to the SDK. */
const CAPABILITY_MEMBERS: Readonly<Record<string, ReadonlySet<string>>> = {
  elicitation: new Set(['form', 'url']),
  sampling: new Set(['context', 'tools']),
  roots: new Set(['listChanged']),
};
const CLIENT_INFO_KEYS = new Set(['name', 'version', 'title']);

/**
 * Whether a `_meta` is a 2026-07-28 envelope of the common shape, one the SDK's envelope schema surely accepts: no
 * problem `envelopeIssue` finds, client info of name, version and title strings, and capabilities whose members
 * are the known objects (roots' `listChanged` a boolean). Anything else is not judged here.
 */
export function isPlainEnvelope(meta: Record<string, unknown>): boolean {
  if (envelopeIssue(meta) !== undefined) return false;
  const info = meta[CLIENT_INFO_META_KEY];
  if (isRecord(info)) {
    for (const key in info) if (!CLIENT_INFO_KEYS.has(key) || typeof info[key] !== 'string') return false;
  }
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown>;
  for (const name in capabilities) {
    const members = Object.hasOwn(CAPABILITY_MEMBERS, name) ? CAPABILITY_MEMBERS[name] : undefined;
    const declared = capabilities[name];
    if (members === undefined || !isRecord(declared)) return false;
    for (const member in declared) {
      const value = declared[member];
      if (!members.has(member)) return false;
      if (member === 'listChanged' ? typeof value !== 'boolean' : !isRecord(value)) return false;
    }
  }
  return true;
}
