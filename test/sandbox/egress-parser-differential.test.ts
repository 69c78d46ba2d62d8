/**
 * Issue 15 item 3: URLs that different URL parsers read differently are refused by the egress guard
 * (`SECURITY`, reason `ambiguous-url`), even when every name in them resolves to a public address. The cases are
 * the classic parser-confusion shapes (userinfo, backslashes, `#@`/`?@`, percent-encoded delimiters and dots in
 * the host, control characters, slash-count tricks, Unicode compatibility characters), written for this suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressGuard } from '../../src/sandbox/index.ts';
import type { EgressPolicy, ResolvedAddress } from '../../src/sandbox/index.ts';
import { PortcullisError } from '../../src/errors/index.ts';
import { startLocalServer } from './local-server.ts';
import type { LocalServer } from './local-server.ts';

const PUBLIC = '93.184.216.34';
const lookups: string[] = [];
// Every name is public: a refusal below can only come from the shape of the URL, never from its address.
const publicDns = async (name: string): Promise<ResolvedAddress[]> => {
  lookups.push(name);
  return [{ address: PUBLIC, family: 4 }];
};
const guard = createEgressGuard({ resolve: publicDns });
const anyHost: EgressPolicy = { networkMode: 'allowlist', hostsAllow: ['*'], maxFetchBytes: 1024 };
const goodOnly: EgressPolicy = {
  networkMode: 'allowlist',
  hostsAllow: ['good.example'],
  maxFetchBytes: 1024,
};

async function refusal(promise: Promise<unknown>): Promise<{ code: string; reason: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PortcullisError) return { code: error.code, reason: error.reason };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parser-differential URLs are refused before any lookup', () => {
  it.each([
    ['userinfo naming the allowed host', 'http://good.example@evil.example/'],
    ['userinfo with a password', 'http://user:pass@evil.example/'],
    ['empty userinfo', 'http://@evil.example/'],
    ['userinfo that looks like a port', 'http://good.example:443@evil.example/'],
    ['two @ signs', 'http://a@good.example@evil.example/'],
    ['backslash before @', 'http://evil.example\\@good.example/'],
    ['backslash as a path start', 'http://good.example\\.evil.example/'],
    ['backslashes instead of slashes', 'http:\\\\evil.example/'],
    ['slash then backslash', 'http:/\\evil.example/'],
    ['backslash in the path', 'http://good.example/a\\..\\b'],
    ['fragment then @', 'http://evil.example#@good.example/'],
    ['query then @', 'http://evil.example?@good.example/'],
    ['fragment @ after the path', 'http://evil.example/#@good.example'],
    ['encoded slash before @', 'http://good.example%2f@evil.example/'],
    ['encoded slash in the host', 'http://evil.example%2f.good.example/'],
    ['encoded @ in the host', 'http://good.example%40evil.example/'],
    ['encoded # in the host', 'http://evil.example%23.good.example/'],
    ['encoded dot in the host', 'http://evil%2eexample/'],
    ['encoded upper-case dot', 'http://evil%2Eexample/'],
    ['encoded letter in the host', 'http://%65vil.example/'],
    ['IPv6 zone id', 'http://[fe80::1%25eth0]/'],
    ['tab inside the host', 'http://evil.exa\tmple/'],
    ['newline inside the host', 'http://evil.example\n.good.example/'],
    ['leading space', ' http://evil.example/'],
    ['trailing control character', 'http://evil.example/\u0000'],
    ['no slashes after the scheme', 'http:evil.example/'],
    ['one slash after the scheme', 'http:/evil.example/'],
    ['three slashes after the scheme', 'http:///evil.example/'],
    ['four slashes after the scheme', 'http:////evil.example/'],
    ['ideographic full stop', 'http://evil\u3002example/'],
    ['fullwidth letters', 'http://\uff45\uff56\uff49\uff4c.example/'],
    ['compatibility character that expands to a slash', 'http://evil.example\u2100.good.example/'],
    ['fullwidth number sign then @', 'http://evil.example\uff03@good.example/'],
    ['non-ASCII host', 'http://b\u00fccher.example/'],
  ])('refuses %s: %j', async (_name, url) => {
    const before = lookups.length;
    expect(await refusal(guard.check(url, anyHost))).toEqual({ code: 'SECURITY', reason: 'ambiguous-url' });
    expect(lookups.length).toBe(before);
  });

  it('names the problem in the message', async () => {
    await expect(guard.check('http://good.example@evil.example/', anyHost)).rejects.toThrow(/userinfo/);
    await expect(guard.check('http://evil.example\\@good.example/', anyHost)).rejects.toThrow(/backslash/);
  });

  it('refuses them even where the allowlist names only the host a lenient reader would see', async () => {
    for (const url of ['http://good.example@evil.example/', 'http://evil.example#@good.example/']) {
      expect(await refusal(guard.check(url, goodOnly))).toEqual({
        code: 'SECURITY',
        reason: 'ambiguous-url',
      });
    }
  });

  it.each([
    ['a plain URL', 'http://good.example/'],
    ['port, path, query and fragment', 'https://good.example:8443/a/b?x=1#frag'],
    ['@ inside the path', 'http://good.example/users/@me'],
    ['@ inside a query value', 'http://good.example/?email=a@b.example'],
    ['a query straight after the host', 'http://good.example?q=1'],
    ['an encoded slash in the path', 'http://good.example/a%2Fb'],
    ['a punycode host', 'http://xn--bcher-kva.example/'],
    ['an upper-case scheme and host', 'HTTP://GOOD.EXAMPLE/'],
    ['a public IPv6 literal', 'http://[2606:4700:4700::1111]/'],
  ])('still allows %s', async (_name, url) => {
    await expect(guard.check(url, anyHost)).resolves.toMatchObject({ url: expect.any(URL) });
  });
});

describe('an ambiguous redirect location is refused', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  });
  afterAll(() => server.close());

  it.each([
    ['userinfo', 'http://good.example@evil.example/'],
    ['a backslash that makes the location protocol-relative', '/\\evil.example/'],
    ['a protocol-relative location with userinfo', '//good.example@evil.example/'],
  ])('refuses a redirect to %s', async (_name, location) => {
    const redirecting = createEgressGuard({
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      allowAddresses: ['127.0.0.1'],
    });
    const before = server.seen.length;
    const url = `http://public.test:${server.port}/redirect?to=${encodeURIComponent(location)}`;
    expect(await refusal(redirecting.fetch({ url }, anyHost))).toEqual({
      code: 'SECURITY',
      reason: 'ambiguous-url',
    });
    expect(server.seen.length - before).toBe(1);
  });
});
