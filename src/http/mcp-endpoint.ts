/**
 * The /mcp door after authentication: content-type and body-size checks, one JSON parse, then the era router —
 * 2025-era traffic to the legacy session table, 2026-era traffic to the gateway's own 2026-era server
 * (modern-exchange.ts), and the validation ladder's refusals answered here.
 */
import {
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  readRequestBody,
  type InboundClassificationOutcome,
  type InboundModernRoute,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import {
  createModernListeners,
  isPlainEnvelope,
  type LegacyServer,
  type ModernServer,
} from '../downstream/index.ts';
import type { Profile } from '../exposure/index.ts';
import type { Principal } from '../identity/index.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import {
  hasEnvelopeClaim,
  isRecord,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  plainMessage,
  type Era,
} from '../shared/index.ts';
import { createLegacySessions, type LegacySessions } from './legacy-sessions.ts';
import { serveModernHttp } from './modern-exchange.ts';
import { paramHeaderProblem } from './param-headers.ts';
import { createRequestQuota, releaseWhenAnswered } from './request-quota.ts';

/** Who a downstream server is for: the caller, the profile it came through, its session and era. */
export interface EndpointIdentity {
  principal: Principal;
  profile: Profile;
  sessionId?: string;
  era: Era;
}

interface Caller {
  principal: Principal;
  profile: Profile;
}

/** Options of the endpoint. */
export interface McpEndpointOptions {
  /** The gateway's 2026-era server, which serves every 2026-era request. */
  modern: ModernServer;
  /** The server of one 2025-era session. */
  createLegacyServer(identity: EndpointIdentity): LegacyServer;
  maxBodyBytes: number;
  sessionIdleTimeoutMs: number;
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  /** 2026-era requests one principal may have running at once (request-quota.ts). */
  maxRequestsPerPrincipal: number;
  /** The inputSchema of the tool `alias` as `profile` exposes it; undefined for a tool it does not expose. */
  toolInputSchema?(alias: string, profile: Profile): unknown;
  log?(event: string, fields: Record<string, unknown>): void;
}

/** The /mcp endpoint. */
export interface McpEndpoint {
  /** Serves one request of `principal`, already admitted to `profile`. */
  handle(request: Request, principal: Principal, profile: Profile): Promise<Response>;
  /** Advertises a list change to every legacy session and modern listener. */
  notify(kind: 'tools' | 'prompts' | 'resources'): void;
  readonly sessions: LegacySessions<Caller>;
  close(): Promise<void>;
}

/**
 * Reads the body under the cap. A declared Content-Length within the cap takes the cheap path (the HTTP parser
 * enforces the framing, so the body cannot exceed it); otherwise the SDK's streaming reader stops at the cap.
 */
async function readBody(
  request: Request,
  maxBytes: number,
): Promise<{ tooLarge: true } | { tooLarge: false; text: string }> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isInteger(declared) && declared >= 0) {
    if (declared > maxBytes) return { tooLarge: true };
    return { tooLarge: false, text: await request.text() };
  }
  return readRequestBody(request, maxBytes);
}

const isJson = (contentType: string | null) => /^application\/json\b/i.test(contentType ?? '');

/**
 * The 400 / -32020 (HEADER_MISMATCH) answer to a 2026-era tools/call whose `Mcp-Param-*` headers disagree with
 * its arguments under the exposed tool's inputSchema; undefined for any other request, or a tool not exposed to
 * the caller (the call then fails as an unknown tool).
 */
function paramHeaderRefusal(
  body: unknown,
  headers: Headers,
  schemaOf: (alias: string) => unknown,
): Response | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: unknown };
  if (method !== 'tools/call' || params === null || typeof params !== 'object') return undefined;
  const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return undefined;
  const schema = schemaOf(name);
  if (schema === undefined) return undefined;
  const problem = paramHeaderProblem(schema, args ?? {}, headers);
  if (problem === undefined) return undefined;
  return jsonRpcError(
    400,
    JSON_RPC.HEADER_MISMATCH,
    'HEADER_MISMATCH',
    `Bad Request: ${problem}`,
    {},
    idOf(body),
  );
}

/** The id of a single JSON-RPC request body, for an answer refusing it; null for anything else. */
function idOf(body: unknown): string | number | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { id } = body as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const LEGACY_ROUTE: InboundClassificationOutcome = { kind: 'legacy', reason: 'no-claim' };

/**
 * The route of a POST of one request of the common shape whose envelope of the common shape claims 2026-07-28,
 * with headers that name that revision and the body's method or none: the SDK classifier's answer for it, without
 * its schemas. Undefined for anything else.
 */
function plainModernRoute(
  message: JSONRPCMessage | undefined,
  headers: Headers,
): InboundModernRoute | undefined {
  if (
    message === undefined ||
    !('id' in message) ||
    !('method' in message) ||
    message.method === 'initialize'
  )
    return undefined;
  const meta = message.params?._meta;
  if (
    !isRecord(meta) ||
    meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION ||
    !isPlainEnvelope(meta)
  )
    return undefined;
  const version = headers.get('mcp-protocol-version');
  const method = headers.get('mcp-method');
  if (
    (version !== null && version !== MODERN_PROTOCOL_VERSION) ||
    (method !== null && method !== message.method)
  )
    return undefined;
  return {
    kind: 'modern',
    messageKind: 'request',
    message,
    classification: { era: 'modern', revision: MODERN_PROTOCOL_VERSION },
  };
}

/**
 * The era router: the SDK's `classifyInboundRequest`, answered without it in the plain cases where its answer is
 * certain (a GET or DELETE; a POST of one request, notification or result of the common shape, with no envelope
 * claim and no MCP-Protocol-Version header other than a 2025-era one; a POST of one request of the common shape
 * whose plain envelope claims 2026-07-28 and whose headers agree).
 */
export function routeOf(request: Request, parsedBody: unknown): InboundClassificationOutcome {
  if (request.method !== 'POST') return LEGACY_ROUTE;
  const headers = request.headers;
  const version = headers.get('mcp-protocol-version');
  const message = plainMessage(parsedBody);
  if (version === null || LEGACY_PROTOCOL_VERSIONS.includes(version)) {
    if (message && !hasEnvelopeClaim(message)) return LEGACY_ROUTE;
  }
  const plain = plainModernRoute(message, headers);
  if (plain !== undefined) return plain;
  const method = headers.get('mcp-method');
  const name = headers.get('mcp-name');
  return classifyInboundRequest({
    httpMethod: request.method,
    body: parsedBody,
    ...(version === null ? {} : { protocolVersionHeader: version }),
    ...(method === null ? {} : { mcpMethodHeader: method }),
    ...(name === null ? {} : { mcpNameHeader: name }),
  });
}

/** Creates the endpoint. */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const sessions = createLegacySessions({
    createServer: (caller: Caller, sessionId) =>
      options.createLegacyServer({ ...caller, sessionId, era: 'legacy' }),
    idleTimeoutMs: options.sessionIdleTimeoutMs,
    maxSessions: options.maxSessions,
    maxSessionsPerPrincipal: options.maxSessionsPerPrincipal,
    ...(options.log ? { log: options.log } : {}),
  });
  const quota = createRequestQuota(options.maxRequestsPerPrincipal);
  const listeners = createModernListeners();
  // Aborted by close(): every 2026-era request still running is aborted and left unanswered.
  const closing = new AbortController();

  return {
    async handle(request, principal, profile) {
      let parsedBody: unknown;
      if (request.method === 'POST') {
        if (!isJson(request.headers.get('content-type'))) {
          return jsonRpcError(
            415,
            JSON_RPC.INVALID_REQUEST,
            'UNSUPPORTED_MEDIA_TYPE',
            'Unsupported Media Type: send Content-Type: application/json',
          );
        }
        const body = await readBody(request, options.maxBodyBytes);
        if (body.tooLarge) {
          return jsonRpcError(
            413,
            JSON_RPC.INVALID_REQUEST,
            'BODY_TOO_LARGE',
            `request body exceeds ${options.maxBodyBytes} bytes`,
          );
        }
        try {
          parsedBody = JSON.parse(body.text);
        } catch {
          // The parser's message quotes the body back; the answer names the failure without echoing it.
          return jsonRpcError(
            400,
            JSON_RPC.PARSE_ERROR,
            'PARSE_ERROR',
            'Parse error: the request body is not valid JSON',
          );
        }
        if (parsedBody === null || typeof parsedBody !== 'object') {
          return jsonRpcError(
            400,
            JSON_RPC.INVALID_REQUEST,
            'INVALID_REQUEST',
            'Invalid Request: expected a JSON-RPC message object or batch',
          );
        }
      } else if (request.method !== 'GET' && request.method !== 'DELETE') {
        return jsonRpcError(405, JSON_RPC.INVALID_REQUEST, 'INVALID_REQUEST', 'Method not allowed', {
          allow: 'GET, POST, DELETE',
        });
      }
      const route = routeOf(request, parsedBody);
      if (route.kind === 'legacy') return sessions.handle(request, parsedBody, { principal, profile });
      if (route.kind === 'reject') {
        const error = {
          code: route.code,
          message: route.message,
          ...(route.data === undefined ? {} : { data: route.data }),
        };
        return new Response(JSON.stringify({ jsonrpc: '2.0', id: idOf(parsedBody), error }), {
          status: route.httpStatus,
          headers: { 'content-type': 'application/json' },
        });
      }
      const schemaOf = options.toolInputSchema;
      const refusal =
        schemaOf && paramHeaderRefusal(parsedBody, request.headers, (alias) => schemaOf(alias, profile));
      if (refusal) return refusal;
      const release = quota.admit(principal.id);
      if (release === undefined) {
        options.log?.('request.quota_reached', {
          principal: principal.id,
          limit: options.maxRequestsPerPrincipal,
        });
        return jsonRpcError(
          429,
          JSON_RPC.INTERNAL_ERROR,
          'TOO_MANY_REQUESTS',
          `this caller already has ${options.maxRequestsPerPrincipal} 2026-era requests running ` +
            '(http.maxRequestsPerPrincipal); wait for answers before sending more',
          { 'retry-after': '1' },
          idOf(parsedBody),
        );
      }
      let response: Response;
      try {
        const identity = { principal, profile, era: 'modern' as const };
        response = await serveModernHttp(route, request, identity, {
          server: options.modern,
          listeners,
          closing: closing.signal,
        });
      } catch (error) {
        release();
        throw error;
      }
      return releaseWhenAnswered(response, release);
    },
    notify(kind) {
      sessions.notify(kind);
      listeners.notify(kind);
    },
    sessions,
    async close() {
      closing.abort(new Error('the gateway is closing'));
      listeners.closeAll();
      await sessions.close();
    },
  };
}
