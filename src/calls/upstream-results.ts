/**
 * Upstream results cannot speak for the gateway (docs/security.md, "Call guards"): Portcullis's own `_meta`
 * namespace is stripped from what an upstream returns, and a result that asks the client for input
 * (`input_required`, `inputRequests`, `requestState`) reaches the client only through the gateway's own sealed
 * relay (`downstream/upstream-relay.ts`): checked and bounded here, it becomes `UpstreamInputRequired`, or is
 * refused where the call cannot relay it.
 */
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { PortcullisError } from '../errors/index.ts';
import type { UpstreamElicitation, UpstreamSampling } from '../upstream/index.ts';
import { isRecord } from '../shared/index.ts';

/** The `_meta` key prefix that belongs to the gateway alone. */
export const GATEWAY_META_PREFIX = 'dev.portcullis/';

/** Item lists of tool, prompt and resource results whose entries (and their `content`) may carry `_meta`. */
const ITEM_LISTS = ['content', 'contents', 'messages'] as const;

/** Bounds of one relayed round: they keep the sealed state the gateway hands the client small. */
const MAX_INPUT_REQUESTS = 16;
const MAX_INPUT_KEY_CHARS = 64;
/** The upstream's own requestState travels sealed inside the gateway's; past this it is not relayed. */
export const MAX_UPSTREAM_STATE_CHARS = 8_192;

/** One request of an upstream's `input_required` round, as the gateway relays it. */
export type RelayedInputRequest =
  | { method: 'elicitation/create'; params: UpstreamElicitation }
  | { method: 'sampling/createMessage'; params: UpstreamSampling }
  | { method: 'roots/list' };

/** An upstream's `input_required` round: its requests by the upstream's own keys, and its opaque state. */
export interface UpstreamInputAsk {
  upstream: string;
  inputRequests: Record<string, RelayedInputRequest>;
  requestState?: string;
}

/**
 * Thrown by the execute stage when a modern caller's upstream asks for input; `relayed` is the gateway's own
 * round for the client, once the caller's relay has built it (the pipeline then records the round).
 */
export class UpstreamInputRequired extends Error {
  constructor(
    readonly ask: UpstreamInputAsk,
    readonly relayed?: InputRequiredResult,
  ) {
    super('upstream input required');
    this.name = 'UpstreamInputRequired';
  }
}

/** True when an upstream result asks the client for input. */
function asksForInput(raw: Record<string, unknown>): boolean {
  return raw['resultType'] === 'input_required' || 'inputRequests' in raw || 'requestState' in raw;
}

/**
 * Checks an upstream tool result: returns it with the gateway's `_meta` keys stripped when it is a result. When
 * it asks for input, throws `UpstreamInputRequired` if the call relays input rounds (`relay`), else
 * UPSTREAM_ERROR (reason `upstream-input-required`).
 */
export function acceptUpstreamToolResult(
  result: CallToolResult,
  upstreamId: string,
  relay = false,
): CallToolResult {
  const raw = result as CallToolResult & Record<string, unknown>;
  if (asksForInput(raw)) {
    const ask = relay ? readUpstreamInputAsk(raw, upstreamId) : undefined;
    if (ask) throw new UpstreamInputRequired(ask);
    throw new PortcullisError(
      'UPSTREAM_ERROR',
      `upstream "${upstreamId}" asked for input in a way the gateway does not relay to this client (an ` +
        'input_required result); its request was not shown to anyone and the tool was not run again',
      { reason: 'upstream-input-required' },
    );
  }
  return stripGatewayMeta(result);
}

/**
 * The input round of an upstream result that asks for input (`undefined` when it does not), checked: at most
 * 16 requests under keys of at most 64 characters, each an elicitation, sampling or roots request, and a string
 * state of at most 8 KiB. Anything else is UPSTREAM_ERROR (reason `upstream-input-malformed`).
 */
export function readUpstreamInputAsk(result: unknown, upstreamId: string): UpstreamInputAsk | undefined {
  if (!isRecord(result) || !asksForInput(result)) return undefined;
  const raw = result;
  const malformed = (why: string) =>
    new PortcullisError(
      'UPSTREAM_ERROR',
      `upstream "${upstreamId}" asked for input with a round the gateway does not relay: ${why}`,
      { reason: 'upstream-input-malformed' },
    );
  const { inputRequests, requestState } = raw;
  if (raw['resultType'] !== 'input_required') throw malformed('resultType is not "input_required"');
  if (requestState !== undefined && typeof requestState !== 'string')
    throw malformed('requestState is not a string');
  if (typeof requestState === 'string' && requestState.length > MAX_UPSTREAM_STATE_CHARS)
    throw malformed(`requestState is longer than ${MAX_UPSTREAM_STATE_CHARS} characters`);
  if (!isRecord(inputRequests)) throw malformed('inputRequests is not an object');
  const entries = Object.entries(inputRequests);
  if (entries.length === 0) throw malformed('inputRequests is empty');
  if (entries.length > MAX_INPUT_REQUESTS) throw malformed(`more than ${MAX_INPUT_REQUESTS} inputRequests`);
  const relayed: Record<string, RelayedInputRequest> = {};
  for (const [key, entry] of entries) {
    if (key.length === 0 || key.length > MAX_INPUT_KEY_CHARS)
      throw malformed(`an inputRequests key is empty or longer than ${MAX_INPUT_KEY_CHARS} characters`);
    const request = relayedRequest(entry);
    if (request === undefined) throw malformed(`inputRequests["${key}"] is not a request the gateway relays`);
    relayed[key] = request;
  }
  return {
    upstream: upstreamId,
    inputRequests: relayed,
    ...(typeof requestState === 'string' ? { requestState } : {}),
  };
}

/** One upstream input request, when it is one of the three kinds the gateway relays (shape checked, not deep). */
function relayedRequest(entry: unknown): RelayedInputRequest | undefined {
  if (!isRecord(entry)) return undefined;
  const params = entry['params'];
  switch (entry['method']) {
    case 'elicitation/create':
      return isRecord(params) && typeof params['message'] === 'string'
        ? { method: 'elicitation/create', params: params as unknown as UpstreamElicitation }
        : undefined;
    case 'sampling/createMessage':
      return isRecord(params) && Array.isArray(params['messages']) && typeof params['maxTokens'] === 'number'
        ? { method: 'sampling/createMessage', params: params as unknown as UpstreamSampling }
        : undefined;
    case 'roots/list':
      return { method: 'roots/list' };
    default:
      return undefined;
  }
}

/** A copy of an upstream result (tool, prompt, resource, completion) without the gateway's `_meta` keys. */
export function stripGatewayMeta<T>(result: T): T {
  if (!isRecord(result)) return result;
  const out: Record<string, unknown> = withoutGatewayMeta(result);
  for (const list of ITEM_LISTS) {
    const items = out[list];
    if (!Array.isArray(items)) continue;
    // One level of items and their `content`: a flat loop, no recursion into upstream data.
    out[list] = items.map((item: unknown) => {
      if (!isRecord(item)) return item;
      const copy = withoutGatewayMeta(item);
      if (isRecord(copy['content'])) copy['content'] = withoutGatewayMeta(copy['content']);
      return copy;
    });
  }
  return out as T;
}

function withoutGatewayMeta(value: Record<string, unknown>): Record<string, unknown> {
  const meta = value['_meta'];
  if (!isRecord(meta) || !Object.keys(meta).some((key) => key.startsWith(GATEWAY_META_PREFIX))) {
    return { ...value };
  }
  const kept = Object.fromEntries(
    Object.entries(meta).filter(([key]) => !key.startsWith(GATEWAY_META_PREFIX)),
  );
  return { ...value, _meta: kept };
}
