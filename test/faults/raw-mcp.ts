/** Raw /mcp requests in the modern (2026-07-28, stateless) era, for tests that must control every byte or bound every wait. */

/** The `_meta` every modern-era request carries. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The headers of a modern-era POST of `method` (and `name` for tools/call). */
export function modernHeaders(method: string, name?: string, apiKey?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
    ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
  };
}

/** A modern-era tools/call body. */
export function modernCall(id: number | string, name: string, args: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, _meta: MODERN_META },
  });
}

/** What a bounded call saw. */
export interface CallOutcome {
  status: number;
  ms: number;
  /** The body, or its first and last 2 KB when it was large. */
  text: string;
  bytes: number;
}

/**
 * Calls a tool in the modern era and reads the answer as a stream (counting bytes, keeping only its ends), so
 * that a huge answer does not cost the test process memory; rejects when no full answer came in `timeoutMs`.
 */
export async function callToolRaw(
  url: string,
  name: string,
  args: unknown,
  options: { apiKey?: string; timeoutMs: number },
): Promise<CallOutcome> {
  const started = Date.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: modernHeaders('tools/call', name, options.apiKey),
    body: modernCall(1, name, args),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  let whole = '';
  let head = '';
  let tail = '';
  let bytes = 0;
  const decoder = new TextDecoder();
  for await (const chunk of response.body ?? []) {
    bytes += chunk.byteLength;
    const text = decoder.decode(chunk as Uint8Array, { stream: true });
    if (whole.length <= 4096) whole += text;
    if (head.length < 2048) head += text.slice(0, 2048 - head.length);
    tail = (tail + text).slice(-2048);
  }
  return {
    status: response.status,
    ms: Date.now() - started,
    text: whole.length <= 4096 ? whole : `${head}…${tail}`,
    bytes,
  };
}

/** A modern-era JSON answer: the HTTP status and the parsed JSON-RPC response. */
export interface ModernAnswer {
  status: number;
  body: {
    id?: unknown;
    result?: Record<string, unknown> & {
      content?: unknown;
      isError?: boolean;
      _meta?: Record<string, unknown>;
    };
    error?: { code: number; message: string; data?: Record<string, unknown> };
  };
}

/**
 * Posts one modern-era request (id 7) with the standard headers plus `headers`, declaring `capabilities` as the
 * request's client capabilities, and parses the JSON answer.
 */
export async function postModern(
  url: string,
  method: string,
  params: Record<string, unknown>,
  options: { apiKey?: string; headers?: Record<string, string>; capabilities?: Record<string, unknown> } = {},
): Promise<ModernAnswer> {
  const name = typeof params['name'] === 'string' ? params['name'] : undefined;
  const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {} };
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(method, name, options.apiKey), ...options.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } }),
  });
  return { status: response.status, body: (await response.json()) as ModernAnswer['body'] };
}
