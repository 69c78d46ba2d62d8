/**
 * The egress guard with a run's secret handles (docs/security.md, "Secrets"): where a handle becomes its value,
 * where it never does, and that nothing the server sends back or any error message hands code the value.
 * A real HTTP server on 127.0.0.1 and a fixed resolver (`localhost` and `other.test` both answer 127.0.0.1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressGuard } from '../../src/sandbox/index.ts';
import type { EgressPolicy } from '../../src/sandbox/index.ts';
import { createSecretVault } from '../../src/sandbox/egress/secret-vault.ts';
import { startLocalServer } from './local-server.ts';
import type { LocalServer } from './local-server.ts';

const SECRET = 'tok/en?#@&value-7731';
let server: LocalServer;
const guard = createEgressGuard({
  resolve: async () => [{ address: '127.0.0.1', family: 4 }],
  allowAddresses: ['127.0.0.1'],
});

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => server.close());

const policy = (networkMode: EgressPolicy['networkMode'], hostsAllow: string[]): EgressPolicy => ({
  networkMode,
  hostsAllow,
  maxFetchBytes: 1024 * 1024,
});
const named = policy('allowlist', ['localhost', 'other.test']);

async function refusal(run: () => Promise<unknown>): Promise<{ reason?: string; message: string }> {
  try {
    await run();
  } catch (error) {
    return error as { reason?: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('secret handles at the egress guard', () => {
  it('reveals in header, query and JSON body for a named host, escaped for each place', async () => {
    const vault = createSecretVault([SECRET]);
    const handle = vault.handleFor(SECRET);
    const response = await guard.fetch(
      {
        url: `http://localhost:${server.port}/echo?k=${handle}`,
        method: 'POST',
        headers: [
          ['x-key', handle],
          ['content-type', 'application/json'],
        ],
        body: JSON.stringify({ key: handle }),
        secrets: vault,
      },
      named,
    );
    const wire = new TextDecoder().decode(response.body);
    // What the code reads back is concealed: the server echoed the value, the code sees the handle.
    expect(wire).not.toContain('value-7731');
    const echoed = JSON.parse(wire) as { headers: Record<string, string>; body: string };
    expect(echoed.headers['x-key']).toBe(handle);
    expect(JSON.parse(echoed.body)).toEqual({ key: handle });
    expect(response.url).toBe(`http://localhost:${server.port}/echo?k=${handle}`);
    expect(server.seen.at(-1)?.path).toBe('/echo');
  });

  it.each<[string, EgressPolicy]>([
    ['a bare "*" allowlist', policy('allowlist', ['*'])],
    ['strict mode', policy('strict', [])],
    ['open mode', policy('open', [])],
  ])('refuses to send a secret under %s, before any connection', async (_label, egress) => {
    const vault = createSecretVault([SECRET]);
    const before = server.seen.length;
    const error = await refusal(() =>
      guard.fetch(
        {
          url: `http://localhost:${server.port}/echo`,
          headers: [['x-key', vault.handleFor(SECRET)]],
          secrets: vault,
        },
        egress,
      ),
    );
    expect(error.reason).toBe('secret-host-not-allowed');
    expect(server.seen.length).toBe(before);
  });

  it('does not follow a redirect with the secret to a host only "*" allows', async () => {
    const vault = createSecretVault([SECRET]);
    const before = server.seen.length;
    const to = encodeURIComponent(`http://other.test:${server.port}/echo`);
    const error = await refusal(() =>
      guard.fetch(
        {
          url: `http://localhost:${server.port}/redirect?to=${to}`,
          headers: [['x-key', vault.handleFor(SECRET)]],
          secrets: vault,
        },
        policy('allowlist', ['localhost', '*']),
      ),
    );
    expect(error.reason).toBe('secret-host-not-allowed');
    expect(server.seen.slice(before).map((s) => s.path)).toEqual(['/redirect']);
  });

  it.each([
    ['the host', (h: string) => `http://${h}.localhost/`],
    ['userinfo', (h: string) => `http://${h}@localhost/`],
    ['the host, upper-cased', (h: string) => `http://${h.toUpperCase()}.localhost/`],
  ])('refuses a handle in %s', async (_label, build) => {
    const vault = createSecretVault([SECRET]);
    const error = await refusal(() =>
      guard.fetch({ url: build(vault.handleFor(SECRET)), secrets: vault }, policy('allowlist', ['*'])),
    );
    expect(error.reason).toBe('secret-in-host');
  });

  it('a value cannot move the host: it is percent-encoded in the URL', async () => {
    const vault = createSecretVault([SECRET]);
    await guard.fetch(
      { url: `http://localhost:${server.port}/echo/${vault.handleFor(SECRET)}`, secrets: vault },
      named,
    );
    expect(server.seen.at(-1)?.path).toBe(`/echo/${encodeURIComponent(SECRET)}`);
  });

  it('an error message never shows the value', async () => {
    const bad = 'line\nbreak-secret';
    const vault = createSecretVault([bad]);
    const error = await refusal(() =>
      guard.fetch(
        {
          url: `http://localhost:${server.port}/echo`,
          headers: [['x-key', vault.handleFor(bad)]],
          secrets: vault,
        },
        named,
      ),
    );
    expect(error.message).toContain('x-key');
    expect(error.message).not.toContain('break-secret');
  });
});

describe('the vault', () => {
  it('conceals raw, URL-encoded and JSON-escaped forms, longest value first', () => {
    const vault = createSecretVault(['abcd', 'abcdefgh', 'a"b/c']);
    const long = vault.handleFor('abcdefgh');
    const short = vault.handleFor('abcd');
    const odd = vault.handleFor('a"b/c');
    expect(vault.conceal('x abcdefgh y abcd')).toBe(`x ${long} y ${short}`);
    expect(vault.conceal(`${encodeURIComponent('a"b/c')} ${JSON.stringify('a"b/c')}`)).toBe(
      `${odd} "${odd}"`,
    );
    const bytes = new TextEncoder().encode('<abcdefgh>');
    expect(new TextDecoder().decode(vault.concealBytes(bytes))).toBe(`<${long}>`);
    expect(vault.reveal(`${long}|${short}`)).toBe('abcdefgh|abcd');
  });

  it('reveals a value as JSON string content or percent-encoded where asked', () => {
    const value = 'q"uo\\te/&=';
    const vault = createSecretVault([value]);
    const handle = vault.handleFor(value);
    expect(JSON.parse(vault.reveal(`{"k":"${handle}"}`, 'json'))).toEqual({ k: value });
    expect(new URLSearchParams(vault.reveal(`k=${handle}&x=1`, 'url')).get('k')).toBe(value);
  });

  it('mints a fresh handle per run and leaves values under four characters alone', () => {
    expect(createSecretVault(['abcd']).handleFor('abcd')).not.toBe(
      createSecretVault(['abcd']).handleFor('abcd'),
    );
    const vault = createSecretVault(['abc']);
    expect(vault.empty).toBe(true);
    expect(vault.conceal('abc')).toBe('abc');
  });
});

describe('paging through an echo', () => {
  it('no slice of an echoed secret survives, whatever startIndex and maxLength cut', async () => {
    const vault = createSecretVault([SECRET]);
    const handle = vault.handleFor(SECRET);
    const request = (startIndex: number, maxLength: number) =>
      guard.fetch(
        {
          url: `http://localhost:${server.port}/echo`,
          headers: [['x-key', handle]],
          secrets: vault,
          startIndex,
          maxLength,
        },
        named,
      );
    const pieces: string[] = [];
    for (const width of [1, 3, 7, 11]) {
      for (let start = 0; start < 120; start += 1) {
        const response = await request(start, width);
        pieces.push(new TextDecoder().decode(response.body));
      }
    }
    const shown = pieces.join('\n');
    // Any three consecutive characters of the value would be a readable piece of it.
    for (let i = 0; i + 3 <= SECRET.length; i += 1) expect(shown).not.toContain(SECRET.slice(i, i + 3));
    // Paging forward by nextStartIndex with pages wider than the value still reads the whole body, with the
    // handle in place of the value (a page narrower than the value shows none of it).
    let text = '';
    let next: number | null = 0;
    while (next !== null) {
      const response = await request(next, 48);
      text += new TextDecoder().decode(response.body);
      next = response.truncated ? response.nextStartIndex : null;
    }
    expect(text).toContain(`"x-key":"${handle}"`);
  }, 60_000);
});
