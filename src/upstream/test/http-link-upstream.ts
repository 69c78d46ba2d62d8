/**
 * A real HTTP server on 127.0.0.1 that speaks just enough 2025-era MCP over Streamable HTTP (`/mcp`) or the legacy
 * HTTP+SSE transport (`/sse` and `/messages`) for the links' tests, and misbehaves on cue: each tool's call is
 * answered the way its name says (an oversized event, a stream that never ends, an expired session, an error
 * status, an HTML page, a redirect elsewhere, a stream that drops after its first event id and answers on the
 * GET that resumes it). It records every request it gets.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { UpstreamConfig } from '../../config/index.ts';
import { PortcullisError } from '../../errors/index.ts';
import { connectUpstream } from '../connection.ts';

/** One request the server got. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON-RPC method of a POST, if any. */
  rpc?: string;
}

/** The tools the scripted server lists; each misbehaves as its name says when called. */
export const SCRIPTED_TOOLS = [
  'echo',
  'huge-event',
  'huge-json',
  'endless',
  'expire',
  'fail-500',
  'html',
  'redirect-away',
  'resumable',
] as const;

export interface ScriptedUpstream {
  url: string;
  origin: string;
  seen: SeenRequest[];
  /** Streams the server still holds open (endless answers, SSE streams). */
  openStreams(): number;
  /** How many answer streams the client closed before the server ended them. */
  abandoned(): number;
  /** Sends `frame` raw on the open SSE stream (sse mode). */
  sseWrite(frame: string): void;
  /** Ends the open SSE stream (sse mode). */
  sseEnd(): void;
  close(): Promise<void>;
}

export interface ScriptedOptions {
  /** The cap the test's link uses: `huge-*` answers pass it by one byte. */
  maxBytes: number;
  /** Where `redirect-away` points, and (sse mode) the endpoint event's URL when `endpoint` is given. */
  elsewhere?: string;
  /** sse mode: the endpoint event's data (default `/messages`). */
  endpoint?: string;
}

/** Starts the scripted server; `mode` picks the transport it speaks. */
export async function startScriptedUpstream(
  mode: 'http' | 'sse',
  options: ScriptedOptions,
): Promise<ScriptedUpstream> {
  const seen: SeenRequest[] = [];
  const open = new Set<ServerResponse>();
  let abandoned = 0;
  let sse: ServerResponse | undefined;
  /** The id of the `resumable` call whose answer waits for the GET that resumes its stream. */
  let resumable: unknown;

  /** Sends a JSON-RPC message as the transport does: on the POST's answer, or on the SSE stream. */
  const reply = (response: ServerResponse, message: object) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    if (mode === 'sse') {
      sse?.write(`event: message\ndata: ${body}\n\n`);
      response.writeHead(202).end();
    } else {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
  };
  const answer = (response: ServerResponse, id: unknown, result: unknown) => reply(response, { id, result });

  const hold = (response: ServerResponse) => {
    open.add(response);
    response.on('close', () => {
      if (!response.writableEnded) abandoned++;
      open.delete(response);
    });
  };

  const call = (response: ServerResponse, id: unknown, name: string) => {
    switch (name) {
      case 'huge-event': {
        if (mode === 'sse') {
          sse?.write(`event: message\ndata: "${'x'.repeat(options.maxBytes)}"\n\n`);
          response.writeHead(202).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`event: message\ndata: "${'x'.repeat(options.maxBytes)}"\n\n`);
        return;
      }
      case 'huge-json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id,
            result: { content: [], pad: 'x'.repeat(options.maxBytes) },
          }),
        );
        return;
      case 'endless': {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        hold(response);
        const timer = setInterval(() => response.write(': still thinking\n\n'), 20);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case 'expire':
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
        return;
      case 'fail-500':
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`boom ${'detail '.repeat(5000)}`);
        return;
      case 'html':
        response
          .writeHead(502, { 'content-type': 'text/html' })
          .end(`<html><body><script>${'x'.repeat(10_000)}</script></body></html>`);
        return;
      case 'resumable':
        resumable = id;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end('id: e1\ndata:\n\n');
        return;
      case 'redirect-away':
        response.writeHead(307, { location: `${options.elsewhere ?? 'http://127.0.0.1:9'}/mcp` }).end();
        return;
      default:
        answer(response, id, { content: [{ type: 'text', text: `called ${name}` }] });
    }
  };

  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const record: SeenRequest = { method: request.method ?? '', path, headers: request.headers };
    if (mode === 'sse' && request.method === 'POST' && path !== '/messages') {
      response.writeHead(404).end();
      return;
    }
    seen.push(record);
    if (request.method === 'DELETE') {
      response.writeHead(200).end();
      return;
    }
    if (request.method === 'GET') {
      if (mode === 'http') {
        if (request.headers['last-event-id'] !== 'e1' || resumable === undefined) {
          response.writeHead(405).end();
          return;
        }
        const result = { content: [{ type: 'text', text: 'resumed' }] };
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`id: e2\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: resumable, result })}\n\n`);
        resumable = undefined;
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      sse = response;
      hold(response);
      response.write(`event: endpoint\ndata: ${options.endpoint ?? '/messages?session=1'}\n\n`);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id?: unknown;
        method?: string;
        params?: { name?: string };
      };
      if (message.method !== undefined) record.rpc = message.method;
      if (message.id === undefined || message.method === undefined) {
        response.writeHead(202).end();
        return;
      }
      switch (message.method) {
        case 'initialize':
          if (mode === 'http') response.setHeader('mcp-session-id', 'session-42');
          answer(response, message.id, {
            protocolVersion: '2025-06-18',
            capabilities: { tools: {} },
            serverInfo: { name: 'scripted', version: '1.0.0' },
          });
          return;
        case 'tools/list':
          answer(response, message.id, {
            tools: SCRIPTED_TOOLS.map((name) => ({ name, inputSchema: { type: 'object' } })),
          });
          return;
        case 'tools/call':
          call(response, message.id, message.params?.name ?? '');
          return;
        case 'ping':
          answer(response, message.id, {});
          return;
        default:
          reply(response, { id: message.id, error: { code: -32601, message: 'Method not found' } });
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${mode === 'http' ? '/mcp' : '/sse'}`,
    origin,
    seen,
    openStreams: () => open.size,
    abandoned: () => abandoned,
    sseWrite: (frame) => sse?.write(frame),
    sseEnd: () => sse?.end(),
    close: async () => {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connects the real connection code to `url` over `transport`; the close is added to `cleanups`. */
export async function connectLink(
  transport: 'http' | 'sse',
  url: string,
  protocol: 'legacy' | 'modern' | 'auto',
  cleanups: (() => Promise<unknown>)[],
) {
  const closes: (Error | undefined)[] = [];
  const config = {
    id: transport === 'http' ? 'web' : 'old',
    enabled: true,
    protocol,
    callTimeoutMs: 10_000,
    sampling: false,
    transport,
    url,
    headers: { Authorization: `Bearer ${transport}-token` },
  } as UpstreamConfig;
  const connection = await connectUpstream(
    config,
    { inheritedEnv: {} },
    { onClose: (error) => closes.push(error), onListChanged: () => {} },
  );
  cleanups.push(() => connection.close());
  return { connection, closes };
}

/** Polls `check` until it holds (10 s at most). */
export async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** The PortcullisError a promise rejects with. */
export async function failure(promise: Promise<unknown>): Promise<PortcullisError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PortcullisError);
  return error as PortcullisError;
}
