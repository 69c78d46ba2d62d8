import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredHeaders, httpError, linkFetch, readBounded, readMessages } from './http-link-support.ts';

/** Two real servers: `a` answers by path, `b` (another origin) records what reaches it. */
let a: Server;
let b: Server;
let originA: string;
let originB: string;
const reachedB: string[] = [];

beforeAll(async () => {
  a = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/same') response.writeHead(307, { location: '/final' }).end();
    else if (path === '/see-other') response.writeHead(303, { location: '/final' }).end();
    else if (path === '/away') response.writeHead(308, { location: `${originB}/x?token=secret` }).end();
    else if (path === '/loop') response.writeHead(307, { location: '/loop' }).end();
    else if (path === '/final') response.writeHead(200).end(`final ${request.method}`);
    else if (path === '/big') response.writeHead(200).end('y'.repeat(100_000));
    else
      response
        .writeHead(500, { 'content-type': 'text/plain' })
        .end(`line one\n\u0007line two ${'z'.repeat(9000)}`);
  });
  b = createServer((request, response) => {
    reachedB.push(request.url ?? '');
    response.writeHead(200).end('b');
  });
  for (const server of [a, b]) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  originA = `http://127.0.0.1:${(a.address() as AddressInfo).port}`;
  originB = `http://127.0.0.1:${(b.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const server of [a, b]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('linkFetch', () => {
  it('follows a redirect within the origin that keeps the method', async () => {
    const response = await linkFetch(new URL(`${originA}/same`), { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('final POST');
  });

  it('does not follow a redirect that would turn a POST into a GET', async () => {
    const response = await linkFetch(new URL(`${originA}/see-other`), { method: 'POST', body: '{}' });
    expect(response.status).toBe(303);
  });

  it('does not follow a redirect to another origin, and names it without its query', async () => {
    const url = new URL(`${originA}/away`);
    const response = await linkFetch(url, { method: 'GET', headers: { authorization: 'Bearer x' } });
    expect(response.status).toBe(308);
    expect(reachedB).toEqual([]);
    const error = await httpError(SdkErrorCode.ClientHttpNotImplemented, 'the upstream', url, response);
    expect(error.message).toBe(
      `the upstream answered HTTP 308 Permanent Redirect: a redirect to ${originB}/x, not followed (another origin, or the method would change): configure that URL if it is the server's endpoint`,
    );
  });

  it('stops following a redirect loop', async () => {
    const response = await linkFetch(new URL(`${originA}/loop`), { method: 'GET' });
    expect(response.status).toBe(307);
  });
});

describe('httpError', () => {
  it('quotes a short single line of the body and keeps a bounded excerpt for the era probe', async () => {
    const url = new URL(`${originA}/fail`);
    const response = await linkFetch(url, { method: 'POST', body: '{}' });
    const error = await httpError(
      SdkErrorCode.ClientHttpNotImplemented,
      'the upstream (POST ping)',
      url,
      response,
    );
    expect(error).toBeInstanceOf(SdkHttpError);
    expect(error.status).toBe(500);
    expect(error.message).toMatch(
      /^the upstream \(POST ping\) answered HTTP 500 Internal Server Error: line one line two z+…$/,
    );
    expect(error.message.length).toBeLessThan(300);
    expect((error.data as unknown as { text: string }).text.length).toBe(4096);
  });
});

describe('readBounded', () => {
  it('reads a body within the cap and refuses one past it', async () => {
    const url = new URL(`${originA}/big`);
    expect((await readBounded(await linkFetch(url, { method: 'GET' }), 100_000))?.length).toBe(100_000);
    expect(await readBounded(await linkFetch(url, { method: 'GET' }), 99_999)).toBeUndefined();
  });
});

describe('readMessages', () => {
  it('reads one message or a batch, counting what is not JSON-RPC', () => {
    expect(readMessages('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({
      messages: [{ jsonrpc: '2.0', id: 1, result: {} }],
      invalid: 0,
    });
    expect(
      readMessages(
        '[{"jsonrpc":"2.0","method":"notifications/message","params":{}},{"nope":1},{"jsonrpc":"2.0","id":2,"result":{}}]',
      ),
    ).toEqual({
      messages: [
        { jsonrpc: '2.0', method: 'notifications/message', params: {} },
        { jsonrpc: '2.0', id: 2, result: {} },
      ],
      invalid: 1,
    });
  });

  it('throws a SyntaxError that quotes little of a body that is not JSON', () => {
    expect(() => readMessages(`<html>${'x'.repeat(5000)}`)).toThrow(SyntaxError);
    try {
      readMessages(`<html>${'x'.repeat(5000)}`);
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(300);
    }
  });
});

describe('configuredHeaders', () => {
  it('names a header HTTP cannot carry without quoting its value', () => {
    expect(configuredHeaders({ Authorization: 'Bearer abc' }).get('authorization')).toBe('Bearer abc');
    let message = '';
    try {
      configuredHeaders({ Authorization: 'Bearer sec\nret-token' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('the configured header "Authorization" cannot be sent');
    expect(message).not.toContain('ret-token');
  });
});
