/**
 * The console's sign-in limit over real HTTP on an injected clock: after 10 failed sign-ins from one address its
 * attempts (even with the right key) get 429 SIGN_IN_RATE_LIMITED with Retry-After and one log line, another
 * address still signs in, and the first signs in again once its window has passed.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

const OPERATOR = 'operator-key-0123456789abcdef';
const clock = { now: Date.UTC(2026, 0, 5, 9, 0, 0) };

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['mcp-key-0123456789abcdef'] },
      admin: { keys: [{ name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' }] },
      upstreams: {},
      tools: { bundled: false },
    },
    { env: { OPERATOR_KEY: OPERATOR }, deps: { now: () => clock.now } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

/** One request from `localAddress` (any 127/8 address reaches the gateway on 127.0.0.1). */
function send(localAddress: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; retryAfter: string | undefined; text: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: gateway.port,
        path,
        method: body === undefined ? 'GET' : 'POST',
        localAddress,
        headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Posts the sign-in form from `localAddress`. */
const signIn = (key: string, localAddress = '127.0.0.1') =>
  send(
    localAddress,
    '/console/login',
    { origin: `http://127.0.0.1:${gateway.port}`, 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({ key }).toString(),
  );

const limitedLines = () => gateway.logs.filter((line) => line.includes('console.sign_in_limited'));

describe('console sign-in limit', () => {
  it('limits one address after 10 failures without touching other addresses, until its window ends', async () => {
    for (let i = 0; i < 10; i += 1) {
      clock.now += 1_000;
      expect((await signIn(`wrong-key-${i}-0123456789`)).status).toBe(401);
    }
    expect(limitedLines()).toHaveLength(1);
    expect(limitedLines()[0]).toContain('"client":"127.0.0.1"');

    // The right key is not read while limited: a guesser learns nothing from a hit.
    const limited = await signIn(OPERATOR);
    expect(limited.status).toBe(429);
    expect(limited.retryAfter).toBe(String(15 * 60 - 9));
    expect(limited.text).toContain('SIGN_IN_RATE_LIMITED');
    expect(limited.text).toContain('Wait 15 minute(s)');

    const other = await signIn(OPERATOR, '127.0.0.2');
    expect(other.status).toBe(303);

    clock.now += 10 * 60_000;
    const later = await signIn(OPERATOR);
    expect(later.status).toBe(429);
    expect(Number(later.retryAfter)).toBe(15 * 60 - 9 - 600);

    clock.now += 5 * 60_000;
    expect((await signIn(OPERATOR)).status).toBe(303);
    expect(limitedLines()).toHaveLength(1);
  });
});
