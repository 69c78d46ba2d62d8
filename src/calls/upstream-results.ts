/**
 * Upstream results cannot speak for the gateway (docs/security.md, "Call guards"): Portcullis's own `_meta`
 * namespace is stripped from what an upstream returns, and a tool result that asks the client for input
 * (`input_required`, `inputRequests`, `requestState`) is refused, because only the gateway's own sealed relay
 * may ask a client anything during a call.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PortcullisError } from '../errors/index.ts';

/** The `_meta` key prefix that belongs to the gateway alone. */
export const GATEWAY_META_PREFIX = 'dev.portcullis/';

/** Item lists of tool, prompt and resource results whose entries (and their `content`) may carry `_meta`. */
const ITEM_LISTS = ['content', 'contents', 'messages'] as const;

/**
 * Checks an upstream tool result: throws UPSTREAM_ERROR (reason `upstream-input-required`) when it asks the
 * client for input, else returns it with the gateway's `_meta` keys stripped.
 */
export function acceptUpstreamToolResult(result: CallToolResult, upstreamId: string): CallToolResult {
  const raw = result as CallToolResult & Record<string, unknown>;
  if (raw['resultType'] === 'input_required' || 'inputRequests' in raw || 'requestState' in raw) {
    throw new PortcullisError(
      'UPSTREAM_ERROR',
      `upstream "${upstreamId}" asked for input in a way the gateway does not relay yet (an input_required ` +
        'tool result); its request was not shown to anyone and the tool was not run again',
      { reason: 'upstream-input-required' },
    );
  }
  return stripGatewayMeta(result);
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
