/**
 * The /mcp door after authentication: content-type and body-size checks, one JSON parse, then the era router —
 * 2025-era traffic to the legacy session table, everything else to the SDK's stateless modern handler.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  readRequestBody,
  type AuthInfo,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import type { LegacyServer } from '../downstream/index.ts';
import type { Profile } from '../exposure/index.ts';
import type { Principal } from '../identity/index.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import { hasEnvelopeClaim, LEGACY_PROTOCOL_VERSIONS, plainMessage, type Era } from '../shared/index.ts';
import { createLegacySessions, type LegacySessions } from './legacy-sessions.ts';
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
  /** The SDK server of one 2026-era request. */
  createServer(identity: EndpointIdentity): Server;
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

/**
 * The era router: the SDK's `isLegacyRequest`, answered without it in the plain cases where its answer is
 * certain (a GET or DELETE; a POST of one request, notification or result of the common shape, with no
 * envelope claim and no MCP-Protocol-Version header other than a 2025-era one).
 */
export function isLegacy(
  request: Request,
  parsedBody: unknown,
  maxRequestBodySize: number,
): Promise<boolean> | boolean {
  if (request.method !== 'POST') return true;
  const version = request.headers.get('mcp-protocol-version');
  if (version === null || LEGACY_PROTOCOL_VERSIONS.includes(version)) {
    const message = plainMessage(parsedBody);
    if (message && !hasEnvelopeClaim(message)) return true;
  }
  return isLegacyRequest(request, parsedBody, { maxRequestBodySize });
}

/** Creates the endpoint. */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  // The modern handler hands its server factory the AuthInfo object given to fetch; each request's caller rides
  // on that object's identity, so nothing about the caller has to be encoded in the SDK's own fields.
  const callers = new WeakMap<AuthInfo, Caller>();
  const sessions = createLegacySessions({
    createServer: (caller: Caller, sessionId) =>
      options.createLegacyServer({ ...caller, sessionId, era: 'legacy' }),
    idleTimeoutMs: options.sessionIdleTimeoutMs,
    maxSessions: options.maxSessions,
    maxSessionsPerPrincipal: options.maxSessionsPerPrincipal,
    ...(options.log ? { log: options.log } : {}),
  });
  const quota = createRequestQuota(options.maxRequestsPerPrincipal);
  const modern: McpHttpHandler = createMcpHandler(
    ({ authInfo }) => {
      const caller = authInfo && callers.get(authInfo);
      // Only this endpoint calls fetch, always with a registered AuthInfo.
      if (!caller) throw new Error('modern request without a caller');
      // Named fields, not `{ ...caller, era }`: a spread followed by a member is V8's slow copy (per request).
      return options.createServer({ principal: caller.principal, profile: caller.profile, era: 'modern' });
    },
    { legacy: 'reject', maxRequestBodySize: options.maxBodyBytes },
  );

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
      if (await isLegacy(request, parsedBody, options.maxBodyBytes)) {
        return sessions.handle(request, parsedBody, { principal, profile });
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
      const authInfo: AuthInfo = { token: 'redacted', clientId: principal.id, scopes: [...principal.scopes] };
      callers.set(authInfo, { principal, profile });
      let response: Response;
      try {
        // Built in place, not `{ ...(…), authInfo }`: a spread followed by a member is V8's slow copy.
        const init: Parameters<McpHttpHandler['fetch']>[1] = { authInfo };
        if (parsedBody !== undefined) init.parsedBody = parsedBody;
        response = await modern.fetch(request, init);
      } catch (error) {
        release();
        throw error;
      }
      return releaseWhenAnswered(response, release);
    },
    notify(kind) {
      sessions.notify(kind);
      if (kind === 'tools') modern.notify.toolsChanged();
      else if (kind === 'prompts') modern.notify.promptsChanged();
      else modern.notify.resourcesChanged();
    },
    sessions,
    async close() {
      await sessions.close();
      await modern.close();
    },
  };
}
