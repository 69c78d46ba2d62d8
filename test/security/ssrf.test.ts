/**
 * Issue 15, must-show 2, SSRF part: the corpus of ssrf-corpus.ts fetched by a published spec through the real
 * gateway and sandbox, with a controlled resolver in the runner's egress guard (no real DNS): private,
 * loopback, link-local, CGNAT, ULA, embedded IPv4, numeric host forms, names resolving privately, parser
 * differentials, schemes, redirects to private hosts and DNS rebinding.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRunner, type ResolvedAddress, type SandboxRunner } from '../../src/sandbox/index.ts';
import { tempDir } from '../helpers/gateway-harness.ts';
import { startAttackBench, type AttackBench } from './attack-gateway.ts';
import { DNS, REDIRECTS, REFUSED, TRUSTED } from './ssrf-corpus.ts';

const FETCH = 'const response = await fetch(url); return response.status + " " + (await response.text());';
const lookups: string[] = [];
const rebinds = new Map<string, number>();

// Fixed answers, except rebind.test: its first answer is the trusted address, every later one is private.
async function resolve(name: string): Promise<ResolvedAddress[]> {
  lookups.push(name);
  if (name === 'rebind.test') {
    const count = (rebinds.get(name) ?? 0) + 1;
    rebinds.set(name, count);
    return [{ address: count === 1 ? TRUSTED : '10.0.0.1', family: 4 }];
  }
  return (DNS[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

let server: Server;
let port: number;
const served: string[] = [];
let runner: SandboxRunner;
let bench: AttackBench;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    served.push(`${req.headers.host ?? ''}${url.pathname}`);
    if (url.pathname === '/redirect') {
      res.writeHead(Number(url.searchParams.get('status') ?? '302'), {
        location: url.searchParams.get('to') ?? '/ok',
      });
      res.end();
      return;
    }
    res.writeHead(url.pathname === '/ok' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(url.pathname === '/ok' ? 'reached' : 'missing');
  });
  await new Promise<void>((done) => server.listen(0, TRUSTED, done));
  port = (server.address() as AddressInfo).port;
  runner = createToolRunner({ egressOptions: { resolve, allowAddresses: [TRUSTED] } });
  bench = await startAttackBench(
    [
      { name: 'fetchStrict', params: ['url'], code: FETCH, overrides: { networkMode: 'strict' } },
      {
        name: 'fetchAllowlist',
        params: ['url'],
        code: FETCH,
        overrides: { networkMode: 'allowlist', hostsAllow: ['good.example', '*.good.example'] },
      },
    ],
    { workspace: tempDir('portcullis-ssrf-ws-'), deps: { runner } },
  );
}, 120_000);

afterAll(async () => {
  await bench?.close();
  await runner?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

async function expectRefused(tool: string, url: string, reason: string): Promise<void> {
  const seen = await bench.call(tool, { url });
  expect(seen, seen.text).toMatchObject({ isError: true, code: 'SECURITY', reason });
}

describe.each(Object.entries(REFUSED))('strict mode refuses %s', (_category, cases) => {
  it.each(cases)('%s: %s', async (_label, url, reason) => {
    const before = served.length;
    await expectRefused('fetchStrict', url, reason);
    expect(served.length).toBe(before);
  });
});

describe('the trusted stand-in for a public host', () => {
  it('is reached by name, so the refusals above come from the destination alone', async () => {
    const seen = await bench.call('fetchStrict', { url: `http://public.test:${port}/ok` });
    expect(seen).toMatchObject({ isError: false, text: '200 reached' });
  });
});

describe('redirects from an allowed host', () => {
  it.each(REDIRECTS)('to %s (%s) are refused before the next hop', async (_label, target, reason) => {
    for (const status of [301, 302, 303, 307, 308]) {
      const before = served.length;
      const url = `http://public.test:${port}/redirect?status=${status}&to=${encodeURIComponent(target)}`;
      await expectRefused('fetchStrict', url, reason);
      expect(served.length - before).toBe(1);
    }
  });

  it('refuses a private hop at the end of a chain of allowed ones', async () => {
    const last = `http://internal.test:${port}/ok`;
    const middle = `http://public.test:${port}/redirect?to=${encodeURIComponent(last)}`;
    const before = served.length;
    await expectRefused(
      'fetchStrict',
      `http://public.test:${port}/redirect?to=${encodeURIComponent(middle)}`,
      'resolved-private-ip',
    );
    expect(served.length - before).toBe(2);
  });
});

describe('DNS rebinding', () => {
  it('connects to the address it checked, and re-checks the name on every hop', async () => {
    const first = lookups.length;
    const seen = await bench.call('fetchStrict', { url: `http://rebind.test:${port}/ok` });
    expect(seen).toMatchObject({ isError: false, text: '200 reached' });
    // One lookup for one hop: no second answer is asked for between the check and the connection.
    expect(lookups.slice(first)).toEqual(['rebind.test']);
    const before = served.length;
    const again = `http://rebind.test:${port}/redirect?to=${encodeURIComponent(`http://rebind.test:${port}/ok`)}`;
    rebinds.clear();
    await expectRefused('fetchStrict', again, 'resolved-private-ip');
    expect(served.length - before).toBe(1);
    await expectRefused('fetchStrict', `http://rebind.test:${port}/ok`, 'resolved-private-ip');
  });
});

describe('allowlist mode', () => {
  it.each([
    ['a suffix look-alike', 'http://good.example.internal.test/', 'host-not-in-allowlist'],
    ['a prefix look-alike', 'http://evilgood.example/', 'host-not-in-allowlist'],
    ['the allowed name as userinfo', 'http://good.example@internal.test/', 'ambiguous-url'],
    ['a literal address of the allowed host', `http://${TRUSTED}/ok`, 'host-not-in-allowlist'],
  ])('refuses %s', async (_label, url, reason) => {
    await expectRefused('fetchAllowlist', url, reason);
  });

  it('allows the named host and its subdomains, still behind the IP checks', async () => {
    expect(await bench.call('fetchAllowlist', { url: `http://good.example:${port}/ok` })).toMatchObject({
      isError: false,
      text: '200 reached',
    });
    expect(await bench.call('fetchAllowlist', { url: `http://API.Good.Example:${port}/ok` })).toMatchObject({
      isError: false,
      text: '200 reached',
    });
  });
});
