/** The console's write check (same-origin pages only) and the headers it sends. */
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, CONSOLE_HEADERS, crossOriginWrite } from './policy.ts';

const post = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:8080/console/tools/ledger', {
    method: 'POST',
    headers: { host: '127.0.0.1:8080', ...headers },
  });

describe('crossOriginWrite', () => {
  it.each([
    [{ origin: 'http://127.0.0.1:8080' }, undefined],
    [{ origin: 'http://127.0.0.1:8080', 'sec-fetch-site': 'same-origin' }, undefined],
    [{ 'sec-fetch-site': 'same-origin' }, undefined],
    [{ origin: 'http://evil.example' }, 'the form was sent from another origin'],
    [{ origin: 'http://127.0.0.1:8081' }, 'the form was sent from another origin'],
    [{ origin: 'null' }, 'the request shows no same-origin Origin or Sec-Fetch-Site'],
    [{ origin: 'null', 'sec-fetch-site': 'same-origin' }, undefined],
    [
      { origin: 'http://127.0.0.1:8080', 'sec-fetch-site': 'same-site' },
      'the form was sent from another site',
    ],
    [{ 'sec-fetch-site': 'cross-site' }, 'the request shows no same-origin Origin or Sec-Fetch-Site'],
    [{}, 'the request shows no same-origin Origin or Sec-Fetch-Site'],
  ])('%j → %s', (headers, expected) => {
    expect(crossOriginWrite(post(headers))).toBe(expected);
  });
});

describe('console headers', () => {
  it('allow only the console’s own scripts, styles and forms, and no framing, sniffing, cache or referrer outside the origin', () => {
    const directives = new Map(
      CONSOLE_CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(Object.fromEntries(directives)).toEqual({
      'default-src': "'self'",
      'script-src': "'self'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'frame-ancestors': "'none'",
      'form-action': "'self'",
      'base-uri': "'none'",
    });
    expect(CONSOLE_HEADERS).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
    });
  });
});
