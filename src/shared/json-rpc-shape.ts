/**
 * The shapes of JSON-RPC messages, read without zod for the common case: what `plainMessage` accepts, the SDK's
 * JSONRPCMessageSchema accepts and returns unchanged; anything else goes to that schema.
 */
import {
  parseJSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { isRecord } from './json.ts';

/** A JSON-RPC request id. */
export type RequestId = string | number;

/**
 * An object the SDK's schema copies key by key (message, params, `_meta`, result): an own `__proto__` key (JSON.parse
 * makes one) would become the copy's prototype there, so such a message is left to the schema.
 */
const copiedAlike = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && !Object.hasOwn(value, '__proto__');
const isRequestId = (value: unknown): value is RequestId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** Request or notification params the SDK's schema accepts unchanged (its `_meta` holds no task key). */
function plainParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!copiedAlike(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!copiedAlike(meta)) return false;
  const token = meta.progressToken;
  return (token === undefined || isRequestId(token)) && !('io.modelcontextprotocol/related-task' in meta);
}

/**
 * A request, notification or result response of the common shapes (no task key in `_meta`, no `_meta` in a
 * result), else undefined; error responses and anything unusual are left to the SDK's schema.
 */
export function plainMessage(value: unknown): JSONRPCMessage | undefined {
  if (!isRecord(value) || value.jsonrpc !== '2.0') return undefined;
  if (typeof value.method === 'string') {
    if (!plainParams(value.params)) return undefined;
    if ('id' in value)
      return isRequestId(value.id) && onlyKeys(value, REQUEST_KEYS) ? (value as JSONRPCMessage) : undefined;
    return onlyKeys(value, NOTIFICATION_KEYS) ? (value as JSONRPCMessage) : undefined;
  }
  const result = value.result;
  if (isRequestId(value.id) && copiedAlike(result) && !('_meta' in result) && onlyKeys(value, RESULT_KEYS)) {
    return value as JSONRPCMessage;
  }
  return undefined;
}

/** The message as the SDK's schema reads it, or undefined when it is not a JSON-RPC message. */
export function readJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  try {
    return parseJSONRPCMessage(value);
  } catch {
    return undefined;
  }
}

/** Whether request or notification params carry the 2026-07-28 per-request envelope claim. */
export function hasEnvelopeClaim(message: JSONRPCMessage): boolean {
  const meta = (message as { params?: { _meta?: unknown } }).params?._meta;
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
}
