import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressGuard } from '../../src/sandbox/index.ts';
import type { EgressPolicy, ResolvedAddress } from '../../src/sandbox/index.ts';
import { PortcullisError } from '../../src/errors/index.ts';
import { startLocalServer } from './local-server.ts';
import type { LocalServer } from './local-server.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server.close());

const strict: EgressPolicy = { networkMode: 'strict', hostsAllow: [], maxFetchBytes: 1024 * 1024 };
const open: EgressPolicy = { networkMode: 'open', hostsAllow: [], maxFetchBytes: 1024 * 1024 };

async function refusal(promise: Promise<unknown>): Promise<{ code: string; reason: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PortcullisError) return { code: error.code, reason: error.reason };
    throw error;
  }
  throw new Error('expected a refusal');
}

// Test resolver: fixed answers per name, so no real DNS is involved.
function fakeDns(table: Record<string, string[]>): {
  resolve: (name: string) => Promise<ResolvedAddress[]>;
  calls: string[];
} {
  const calls: string[] = [];
  return {
    calls,
    resolve: async (name) => {
      calls.push(name);
      return (table[name] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}

describe('the egress guard refuses private destinations', () => {
  const guard = createEgressGuard();

  it('reaches the local server only in open mode', async () => {
    const response = await guard.fetch({ url: `http://127.0.0.1:${server.port}/ok` }, open);
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(response.body)).toBe('hello world');
    expect(response.headers).toContainEqual(['x-multi', 'a, b']);
    expect(await refusal(guard.fetch({ url: `http://127.0.0.1:${server.port}/ok` }, strict))).toEqual({
      code: 'SECURITY',
      reason: 'literal-private-ip',
    });
    const allowlist: EgressPolicy = {
      networkMode: 'allowlist',
      hostsAllow: ['127.0.0.1', 'localhost'],
      maxFetchBytes: 1024,
    };
    expect(await refusal(guard.fetch({ url: `http://127.0.0.1:${server.port}/ok` }, allowlist))).toEqual({
      code: 'SECURITY',
      reason: 'literal-private-ip',
    });
    expect(await refusal(guard.fetch({ url: `http://localhost:${server.port}/ok` }, allowlist))).toEqual({
      code: 'SECURITY',
      reason: 'resolved-private-ip',
    });
    const wildcard: EgressPolicy = { networkMode: 'allowlist', hostsAllow: ['*'], maxFetchBytes: 1024 };
    expect((await refusal(guard.check(`http://localhost:${server.port}/ok`, wildcard))).reason).toBe(
      'resolved-private-ip',
    );
  });

  it('checks the host allowlist before resolving anything', async () => {
    const dns = fakeDns({ 'api.example.com': ['93.184.216.34'] });
    const checked = createEgressGuard({ resolve: dns.resolve });
    const policy: EgressPolicy = {
      networkMode: 'allowlist',
      hostsAllow: ['*.example.com'],
      maxFetchBytes: 1024,
    };
    expect((await checked.check('https://api.example.com/v1', policy)).address.address).toBe('93.184.216.34');
    expect(await refusal(checked.check('https://notexample.com/', policy))).toEqual({
      code: 'SECURITY',
      reason: 'host-not-in-allowlist',
    });
    expect(dns.calls).toEqual(['api.example.com']);
  });

  it.each([
    'file:///etc/passwd',
    'ftp://example.com/',
    'gopher://example.com/',
    'data:text/plain,hi',
    'javascript:alert(1)',
  ])('refuses the scheme of %s in every mode', async (url) => {
    for (const policy of [strict, open]) {
      expect(await refusal(guard.check(url, policy))).toEqual({
        code: 'SECURITY',
        reason: 'unsupported-scheme',
      });
    }
  });

  it.each([
    ['decimal', 'http://2130706433/'],
    ['hex', 'http://0x7f000001/'],
    ['octal', 'http://0177.0.0.1/'],
    ['short', 'http://127.1/'],
    ['mixed radix', 'http://0x7f.0.0.01/'],
    ['trailing dot', 'http://127.0.0.1./'],
    ['zero', 'http://0/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['this network', 'http://0.1.2.3/'],
    ['private 10/8', 'http://10.1.2.3/'],
    ['private 172.16/12', 'http://172.31.255.255/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT', 'http://100.64.0.1/'],
    ['CGNAT top', 'http://100.127.255.254/'],
    ['IETF 192.0.0/24', 'http://192.0.0.8/'],
    ['TEST-NET-1', 'http://192.0.2.1/'],
    ['TEST-NET-2', 'http://198.51.100.7/'],
    ['TEST-NET-3', 'http://203.0.113.9/'],
    ['benchmarking 198.18/15', 'http://198.19.0.1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['reserved 240/4', 'http://250.1.1.1/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 link-local', 'http://[fe80::1]/'],
    ['IPv6 ULA', 'http://[fd12:3456::1]/'],
    ['IPv6 site-local', 'http://[fec0::1]/'],
    ['IPv6 multicast', 'http://[ff02::1]/'],
    ['IPv6 documentation', 'http://[2001:db8::1]/'],
    ['IPv4-mapped dotted', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped hex', 'http://[::ffff:7f00:1]/'],
    ['IPv4-mapped metadata', 'http://[::ffff:169.254.169.254]/'],
    ['IPv4-compatible', 'http://[::127.0.0.1]/'],
    ['IPv4-compatible private', 'http://[::10.0.0.1]/'],
    ['NAT64', 'http://[64:ff9b::7f00:1]/'],
    ['NAT64 private', 'http://[64:ff9b::192.168.0.1]/'],
    ['NAT64 local-use', 'http://[64:ff9b:1::8.8.8.8]/'],
    ['6to4', 'http://[2002:7f00:1::]/'],
    ['6to4 private', 'http://[2002:c0a8:101::1]/'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/'],
  ])('refuses the %s literal %s', async (_name, url) => {
    expect(await refusal(guard.check(url, strict))).toEqual({
      code: 'SECURITY',
      reason: 'literal-private-ip',
    });
  });

  it.each([
    '127.0.0.53',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.0.10',
    '169.254.1.1',
    '100.100.100.100',
    '0.0.0.0',
    '::1',
    'fe80::abcd',
    'fc00::1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
  ])('refuses a name that resolves to %s, even among public answers', async (address) => {
    const dns = fakeDns({ 'mixed.example': ['93.184.216.34', address] });
    const checked = createEgressGuard({ resolve: dns.resolve });
    expect(await refusal(checked.check('https://mixed.example/', strict))).toEqual({
      code: 'SECURITY',
      reason: 'resolved-private-ip',
    });
  });

  it.each([
    ['a public IPv4 literal', 'http://93.184.216.34/'],
    ['the address just below CGNAT', 'http://100.63.255.255/'],
    ['a public IPv6 literal', 'http://[2606:4700:4700::1111]/'],
    ['NAT64 of a public address', 'http://[64:ff9b::808:808]/'],
    ['IPv4-mapped public address', 'http://[::ffff:8.8.8.8]/'],
  ])('allows %s', async (_name, url) => {
    await expect(guard.check(url, strict)).resolves.toMatchObject({ url: expect.any(URL) });
  });

  it('fails closed when DNS fails or returns nothing', async () => {
    const failing = createEgressGuard({
      resolve: async () => {
        throw new Error('SERVFAIL');
      },
    });
    expect(await refusal(failing.check('https://broken.example/', strict))).toEqual({
      code: 'HELPER_RUNTIME',
      reason: 'dns-resolution-failed',
    });
    const empty = createEgressGuard({ resolve: async () => [] });
    expect(await refusal(empty.check('https://empty.example/', strict))).toEqual({
      code: 'HELPER_RUNTIME',
      reason: 'dns-no-addresses',
    });
  });
});

describe('redirects, pinning and the body cap', () => {
  // public.test stands for a public host: the resolver maps it to 127.0.0.1 and only that address is trusted.
  const trustedDns = (): ReturnType<typeof fakeDns> =>
    fakeDns({ 'public.test': ['127.0.0.1'], 'internal.test': ['10.0.0.5'] });

  it('follows a redirect between allowed hops', async () => {
    const dns = trustedDns();
    const guard = createEgressGuard({ resolve: dns.resolve, allowAddresses: ['127.0.0.1'] });
    const response = await guard.fetch({ url: `http://public.test:${server.port}/redirect?to=/ok` }, strict);
    expect(response).toMatchObject({
      status: 200,
      redirected: true,
      url: `http://public.test:${server.port}/ok`,
    });
  });

  it.each([
    ['a metadata address', 'http://169.254.169.254/latest/meta-data/', 'literal-private-ip'],
    ['a loopback literal', 'http://127.0.0.2/', 'literal-private-ip'],
    ['a name resolving privately', 'http://internal.test/', 'resolved-private-ip'],
    ['a file URL', 'file:///etc/passwd', 'unsupported-scheme'],
  ])('refuses a redirect from an allowed host to %s', async (_name, target, reason) => {
    const dns = trustedDns();
    const guard = createEgressGuard({ resolve: dns.resolve, allowAddresses: ['127.0.0.1'] });
    const before = server.seen.length;
    const url = `http://public.test:${server.port}/redirect?to=${encodeURIComponent(target)}`;
    expect(await refusal(guard.fetch({ url }, strict))).toEqual({ code: 'SECURITY', reason });
    expect(server.seen.length - before).toBe(1);
  });

  it('follows at most 5 redirects and refuses the 6th', async () => {
    const guard = createEgressGuard({ resolve: trustedDns().resolve, allowAddresses: ['127.0.0.1'] });
    const five = await guard.fetch({ url: `http://public.test:${server.port}/hops?left=5` }, strict);
    expect(new TextDecoder().decode(five.body)).toBe('landed');
    expect(
      await refusal(guard.fetch({ url: `http://public.test:${server.port}/hops?left=6` }, strict)),
    ).toEqual({
      code: 'SECURITY',
      reason: 'too-many-redirects',
    });
  });

  it('applies the method and body rules of redirects and drops credentials across origins', async () => {
    const guard = createEgressGuard({ resolve: trustedDns().resolve, allowAddresses: ['127.0.0.1'] });
    const post = {
      method: 'POST',
      body: 'payload',
      headers: [['authorization', 'Bearer t0ken']] as Array<[string, string]>,
    };
    const see = async (
      status: number,
      to: string,
    ): Promise<{ method: string; body: string; headers: Record<string, string> }> => {
      const url = `http://public.test:${server.port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
      const response = await guard.fetch({ url, ...post }, strict);
      return JSON.parse(new TextDecoder().decode(response.body)) as {
        method: string;
        body: string;
        headers: Record<string, string>;
      };
    };
    expect(await see(303, '/echo')).toMatchObject({ method: 'GET', body: '' });
    expect(await see(302, '/echo')).toMatchObject({ method: 'GET', body: '' });
    const kept = await see(307, '/echo');
    expect(kept).toMatchObject({ method: 'POST', body: 'payload' });
    expect(kept.headers.authorization).toBe('Bearer t0ken');
    const crossOrigin = await see(308, `http://127.0.0.1:${server.port}/echo`);
    expect(crossOrigin).toMatchObject({ method: 'POST', body: 'payload' });
    expect(crossOrigin.headers.authorization).toBeUndefined();
  });

  it('pins the connection to the checked address even when DNS changes its answer', async () => {
    let answers = 0;
    const guard = createEgressGuard({
      allowAddresses: ['127.0.0.1'],
      resolve: async () => {
        answers += 1;
        // First answer: the trusted address; any later lookup would get a blocked one.
        return [{ address: answers === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      },
    });
    const response = await guard.fetch({ url: `http://rebind.test:${server.port}/ok` }, strict);
    expect(response.status).toBe(200);
    expect(answers).toBe(1);
    expect(server.seen.at(-1)).toMatchObject({ path: '/ok', host: `rebind.test:${server.port}` });
    expect(await refusal(guard.fetch({ url: `http://rebind.test:${server.port}/ok` }, strict))).toEqual({
      code: 'SECURITY',
      reason: 'resolved-private-ip',
    });
  });

  it('cuts a body over the cap while streaming and closes the socket', async () => {
    const guard = createEgressGuard();
    const policy: EgressPolicy = { networkMode: 'open', hostsAllow: [], maxFetchBytes: 100_000 };
    const response = await guard.fetch({ url: `http://127.0.0.1:${server.port}/stream` }, policy);
    expect(response).toMatchObject({ truncated: true, nextStartIndex: 100_000 });
    expect(response.body.byteLength).toBe(100_000);
    const observed = server.streams.at(-1);
    expect(observed).toBeDefined();
    await observed?.closed;
    expect(observed?.finished).toBe(false);
    expect(observed?.bytesWritten).toBeLessThan(32 * 1024 * 1024);
  });

  it('pages a body with startIndex and maxLength', async () => {
    const guard = createEgressGuard();
    const page = await guard.fetch(
      { url: `http://127.0.0.1:${server.port}/ok`, startIndex: 6, maxLength: 3 },
      open,
    );
    expect(new TextDecoder().decode(page.body)).toBe('wor');
    expect(page).toMatchObject({ truncated: true, nextStartIndex: 9 });
    const rest = await guard.fetch(
      { url: `http://127.0.0.1:${server.port}/ok`, startIndex: 9, maxLength: 100 },
      open,
    );
    expect(new TextDecoder().decode(rest.body)).toBe('ld');
    expect(rest).toMatchObject({ truncated: false, nextStartIndex: null });
  });

  it('times out a connection that never completes', async () => {
    const guard = createEgressGuard({ totalTimeoutMs: 200 });
    const { createServer } = await import('node:net');
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      expect(await refusal(guard.fetch({ url: `http://127.0.0.1:${port}/` }, open))).toEqual({
        code: 'HELPER_RUNTIME',
        reason: 'timeout',
      });
    } finally {
      silent.close();
    }
  });
});
