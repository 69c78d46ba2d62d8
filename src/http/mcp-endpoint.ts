/**
 * The /mcp door after authentication: content-type and body-size checks, one JSON parse, then the era router —
 * 2025-era traffic to the legacy session table, everything else to the SDK's stateless modern handler.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  readRequestBody,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import { ANONYMOUS_PRINCIPAL } from '../approval/index.ts';
import { jsonRpcError, JSON_RPC } from './json-rpc-response.ts';
import { createLegacySessions, type LegacySessions } from './legacy-sessions.ts';
import type { Era } from '../shared/index.ts';

/** Options of the endpoint. */
export interface McpEndpointOptions {
  createServer(identity: { principal: string; sessionId?: string; era: Era }): Server;
  maxBodyBytes: number;
  sessionIdleTimeoutMs: number;
  maxSessions: number;
  maxSessionsPerPrincipal: number;
  log?(event: string, fields: Record<string, unknown>): void;
}

/** The /mcp endpoint. */
export interface McpEndpoint {
  handle(request: Request, principal: string): Promise<Response>;
  /** Advertises a list change to every legacy session and modern listener. */
  notify(kind: 'tools' | 'prompts' | 'resources'): void;
  readonly sessions: LegacySessions;
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

/** Creates the endpoint. */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const sessions = createLegacySessions({
    createServer: (principal, sessionId) => options.createServer({ principal, sessionId, era: 'legacy' }),
    idleTimeoutMs: options.sessionIdleTimeoutMs,
    maxSessions: options.maxSessions,
    maxSessionsPerPrincipal: options.maxSessionsPerPrincipal,
    ...(options.log ? { log: options.log } : {}),
  });
  const modern: McpHttpHandler = createMcpHandler(
    ({ authInfo }) =>
      options.createServer({ principal: authInfo?.clientId ?? ANONYMOUS_PRINCIPAL, era: 'modern' }),
    { legacy: 'reject', maxRequestBodySize: options.maxBodyBytes },
  );

  return {
    async handle(request, principal) {
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
      if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: options.maxBodyBytes })) {
        return sessions.handle(request, parsedBody, principal);
      }
      return modern.fetch(request, {
        ...(parsedBody === undefined ? {} : { parsedBody }),
        authInfo: { token: 'redacted', clientId: principal, scopes: [] },
      });
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
