/**
 * The era probe's reading of HTTP answers (a real HTTP server, the SDK's Streamable HTTP transport): a
 * 2025-era server's error answer or unknown path is a 2025-era verdict, while an authorization refusal, a server
 * failure, silence, or a server that speaks only another 2026-era revision fails the connect instead of being
 * mistaken for a 2025-era server. A probe that was answered keeps its connection for the link.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { probeEra } from './era-probe.ts';

let server: Server;
let base = '';
let correctiveProbes = 0;

const readJson = async (request: IncomingMessage): Promise<{ id?: unknown }> => {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return JSON.parse(body) as { id?: unknown };
};

beforeAll(async () => {
  server = createServer((request, response) => {
    void readJson(request).then((message) => {
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      switch (request.url) {
        case '/unauthorized':
          response.writeHead(401, { 'www-authenticate': 'Bearer' }).end('no');
          return;
        case '/down':
          response.writeHead(503).end('down');
          return;
        case '/missing':
          response.writeHead(404).end('not here');
          return;
        case '/rpc-error':
          json(400, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
          return;
        case '/other-modern':
          json(200, {
            jsonrpc: '2.0',
            id: message.id,
            error: {
              code: -32022,
              message: 'Unsupported protocol version',
              data: { supported: ['2027-01-01'] },
            },
          });
          return;
        case '/corrective':
          // Refuses the first probe while listing 2026-07-28, then answers the second.
          correctiveProbes += 1;
          json(
            200,
            correctiveProbes === 1
              ? {
                  jsonrpc: '2.0',
                  id: message.id,
                  error: { code: -32022, message: 'Unsupported', data: { supported: ['2026-07-28'] } },
                }
              : {
                  jsonrpc: '2.0',
                  id: message.id,
                  result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} },
                },
          );
          return;
        case '/refuses-listed':
          json(200, {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32022, message: 'Unsupported', data: { supported: ['2026-07-28'] } },
          });
          return;
        case '/old-discover':
          json(200, {
            jsonrpc: '2.0',
            id: message.id,
            result: { supportedVersions: ['2025-11-25'], capabilities: {} },
          });
          return;
        default:
        // '/silent': never answers.
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const http = (path: string): UpstreamConfig => ({
  id: 'probe',
  enabled: true,
  protocol: 'auto',
  callTimeoutMs: 5_000,
  sampling: false,
  transport: 'http',
  url: `${base}${path}`,
  headers: {},
});

const probe = (path: string) => probeEra(http(path), { inheritedEnv: {} }, 500, new AbortController().signal);

describe('the era probe over HTTP', () => {
  it.each([
    ['/missing', false],
    ['/rpc-error', true],
    ['/old-discover', true],
  ])('takes %s for a 2025-era server (keeping an answered connection: %s)', async (path, kept) => {
    const verdict = await probe(path);
    expect(verdict.era).toBe('legacy');
    expect(verdict.open !== undefined).toBe(kept);
    await verdict.open?.close();
  });

  it.each([
    ['/unauthorized', /401/],
    ['/down', /503/],
    ['/other-modern', /supports 2027-01-01, not 2026-07-28/],
    ['/silent', /timed out/],
    ['/refuses-listed', /refused 2026-07-28 twice while listing it as supported/],
  ])('fails the connect on %s instead of falling back', async (path, message) => {
    await expect(probe(path)).rejects.toThrow(message);
  });

  it('asks once more when the server refused 2026-07-28 while listing it, as the SDK client did', async () => {
    const verdict = await probe('/corrective');
    expect(verdict.era).toBe('modern');
    expect(correctiveProbes).toBe(2);
    await verdict.open?.close();
  });
});
