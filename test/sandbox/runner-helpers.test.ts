import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRunner } from '../../src/sandbox/index.ts';
import type { SandboxPolicy, ToolRunResult } from '../../src/sandbox/index.ts';
import { startLocalServer } from './local-server.ts';
import type { LocalServer } from './local-server.ts';
import { testPolicy } from './policy-fixture.ts';

let server: LocalServer;
const runner = createToolRunner({
  egressOptions: {
    allowAddresses: ['127.0.0.1'],
    resolve: async (name) => (name === 'public.test' ? [{ address: '127.0.0.1', family: 4 }] : []),
  },
});
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await runner.close();
  await server.close();
});

async function value(
  code: string,
  args: Record<string, unknown> = {},
  policy: SandboxPolicy = testPolicy(),
): Promise<unknown> {
  const result = await runner.run({
    toolId: 'helpers',
    toolName: 'helpers',
    code,
    args,
    secrets: [],
    policy,
  });
  if (!result.ok) throw new Error(`${result.code}/${result.reason ?? ''}: ${result.message}`);
  return result.value;
}

function failureOf(result: ToolRunResult): { code: string; reason?: string; message: string } {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result;
}

describe('tool code contract', () => {
  it('binds parameters as top-level identifiers and drops null and blank values', async () => {
    expect(
      await value('return [text, count, typeof missing, typeof blank, nested.k];', {
        text: 'hi',
        count: 2,
        missing: null,
        blank: '  ',
        nested: { k: [1] },
      }),
    ).toEqual(['hi', 2, 'undefined', 'undefined', [1]]);
  });

  it('runs the body as an async function and copies the result out as JSON', async () => {
    expect(await value('await null; return { d: new Date(0), u: undefined, f() {}, n: null };')).toEqual({
      d: '1970-01-01T00:00:00.000Z',
      n: null,
    });
    expect(await value('return undefined;')).toBeNull();
  });

  it('gives each call a fresh context', async () => {
    await value('globalThis.leftover = 1; Object.prototype.marker = 2; return 0;');
    expect(await value('return [typeof leftover, ({}).marker === undefined];')).toEqual(['undefined', true]);
  });

  it('reports a syntax error as a tool error', async () => {
    const result = await runner.run({
      toolId: 'helpers',
      toolName: 'helpers',
      code: 'return (;',
      args: {},
      secrets: [],
      policy: testPolicy(),
    });
    expect(failureOf(result)).toMatchObject({ code: 'SANDBOX_ERROR' });
    expect(failureOf(result).message).toMatch(/SyntaxError|Unexpected/);
  });
});

describe('encoding and URL globals', () => {
  it('round-trips UTF-8 and base64 like the catalog base64 tool', async () => {
    const out = await value(
      `
      const bytes = new TextEncoder().encode(text);
      let bin = '';
      for (const b of bytes) bin += String.fromCharCode(b);
      const b64 = btoa(bin);
      const back = atob(b64);
      const raw = new Uint8Array(back.length);
      for (let i = 0; i < back.length; i++) raw[i] = back.charCodeAt(i);
      return [b64, new TextDecoder('utf-8', { fatal: false }).decode(raw), bytes.length];`,
      { text: 'héllo wörld €😀' },
    );
    expect(out).toEqual([Buffer.from('héllo wörld €😀').toString('base64'), 'héllo wörld €😀', 21]);
  });

  it('follows the WHATWG rules for invalid input', async () => {
    expect(
      await value(`
      const errors = [];
      try { btoa('€'); } catch (e) { errors.push(e.name); }
      try { atob('abc*'); } catch (e) { errors.push(e.name); }
      try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])); } catch (e) { errors.push(e.name); }
      return [errors, atob(' aGk= '), new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0x41]))];`),
    ).toEqual([['InvalidCharacterError', 'InvalidCharacterError', 'TypeError'], 'hi', '\ufffdA']);
  });

  it('parses URLs with the WHATWG parser and keeps searchParams in sync', async () => {
    expect(
      await value(`
      const url = new URL('../b?x=1&y=a+b#h', 'https://user@Example.COM:443/a/c');
      url.searchParams.append('z', 'é&=');
      const params = new URLSearchParams({ q: 'spring ai', n: 5 });
      params.sort();
      let invalid = false;
      try { new URL('not a url'); } catch (e) { invalid = e instanceof TypeError; }
      return [url.href, url.hostname, url.searchParams.get('y'), params.toString(), invalid, URL.canParse('http://x')];`),
    ).toEqual([
      'https://user@example.com/b?x=1&y=a+b&z=%C3%A9%26%3D#h',
      'example.com',
      'a b',
      'n=5&q=spring+ai',
      true,
      true,
    ]);
  });
});

describe('crypto', () => {
  it('digests, signs and draws random values through the host', async () => {
    const [sha1, sha256, sha512, hmac, verified, randomLength, uuid] = (await value(`
      const hex = (bytes) => Array.from(bytes).map((b) => b.toString(16).padStart(2, '0')).join('');
      const data = new TextEncoder().encode('hello world');
      const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('k3y'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const signature = await crypto.subtle.sign('HMAC', key, data);
      return [
        hex(await crypto.subtle.digest('SHA-1', data)),
        hex(new Uint8Array(await crypto.subtle.digest({ name: 'SHA-256' }, data.buffer))),
        hex(await crypto.subtle.digest('SHA-512', data)),
        hex(signature),
        await crypto.subtle.verify('HMAC', key, signature, data),
        crypto.getRandomValues(new Uint32Array(16)).length,
        crypto.randomUUID(),
      ];`)) as [string, string, string, string, boolean, number, string];
    expect(sha1).toBe(createHash('sha1').update('hello world').digest('hex'));
    expect(sha256).toBe(createHash('sha256').update('hello world').digest('hex'));
    expect(sha512).toBe(createHash('sha512').update('hello world').digest('hex'));
    expect(hmac).toBe(createHmac('sha256', 'k3y').update('hello world').digest('hex'));
    expect(verified).toBe(true);
    expect(randomLength).toBe(16);
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('caps getRandomValues at 65 536 bytes and rejects unknown digests', async () => {
    expect(
      await value(`
      const out = [];
      try { crypto.getRandomValues(new Uint8Array(65537)); } catch (e) { out.push(e.name); }
      try { await crypto.subtle.digest('MD5', new Uint8Array(1)); } catch (e) { out.push(e.code + '/' + e.reason); }
      out.push(crypto.getRandomValues(new Uint8Array(65536)).length);
      return out;`),
    ).toEqual(['QuotaExceededError', 'INVALID_INPUT/unsupported-algorithm', 65536]);
  });
});

describe('safety.parser', () => {
  it('returns a plain HTML tree with a jsoup-like surface', async () => {
    expect(
      await value(`
      const doc = safety.parser.html('<html><head><title>Hi &amp; bye</title><script>var x = "<p>";</script></head>' +
        '<body><p class="a">one</p><p class="a b" id="two">two <a href="/x">link</a></p><div><span>deep</span></div></body></html>');
      const links = doc.select('p.b > a[href^="/"]');
      doc.select('script').remove();
      return [doc.title(), doc.select('p.a').size(), doc.body().text(), links.attr('href'), doc.selectFirst('#two').ownText(),
        doc.select('div span, title').eachText(), doc.select('p:contains(TWO)').size(), doc.html().includes('<script'),
        JSON.parse(JSON.stringify(doc.selectFirst('span')))];`),
    ).toEqual([
      'Hi & bye',
      2,
      'one two link deep',
      '/x',
      'two',
      ['Hi & bye', 'deep'],
      1,
      false,
      { tag: 'span', attrs: {}, text: 'deep', children: [] },
    ]);
  });

  it('reports an unparseable selector as INVALID_INPUT', async () => {
    expect(
      await value(`
      try { safety.parser.html('<p>x</p>').select('p[unclosed'); return 'parsed'; }
      catch (e) { return [e.code, e.reason]; }`),
    ).toEqual(['INVALID_INPUT', 'invalid-selector']);
  });

  it('parses XML, YAML and CSV into plain data', async () => {
    expect(
      await value(`
      return [
        safety.parser.xml('<?xml version="1.0"?><root id="r"><child n="1">hi &amp; <![CDATA[<raw>]]></child><child/></root>'),
        safety.parser.yaml('name: demo\\nlist: [1, 2.5, true, null, "x"]\\nmap: {a: b}\\n'),
        safety.parser.csv('a,b\\n"x, y","say ""hi"""\\n\\n1,2\\n', { header: true }),
        safety.parser.csv('1;2;3\\n4;5;6', { delimiter: ';' }),
      ];`),
    ).toEqual([
      {
        tag: 'root',
        attrs: { id: 'r' },
        text: '',
        children: [
          { tag: 'child', attrs: { n: '1' }, text: 'hi & <raw>', children: [] },
          { tag: 'child', attrs: {}, text: '', children: [] },
        ],
      },
      { name: 'demo', list: [1, 2.5, true, null, 'x'], map: { a: 'b' } },
      [
        { a: 'x, y', b: 'say "hi"' },
        { a: '1', b: '2' },
      ],
      [
        ['1', '2', '3'],
        ['4', '5', '6'],
      ],
    ]);
  });

  it.each([
    [
      'an external entity (XXE)',
      'xml',
      '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
      'SECURITY',
      'xml-dtd-forbidden',
    ],
    [
      'entity expansion (billion laughs)',
      'xml',
      '<!DOCTYPE l [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><l>&b;</l>',
      'SECURITY',
      'xml-dtd-forbidden',
    ],
    ['a bare entity declaration', 'xml', '<r><!ENTITY x "y"></r>', 'SECURITY', 'xml-dtd-forbidden'],
    [
      'a YAML language tag',
      'yaml',
      'x: !!python/object:os.system "id"',
      'INVALID_INPUT',
      'yaml-unsupported-tag',
    ],
    ['a YAML local tag', 'yaml', 'x: !custom value', 'INVALID_INPUT', 'yaml-unsupported-tag'],
    ['a YAML 1.1 binary tag', 'yaml', 'x: !!binary aGVsbG8=', 'INVALID_INPUT', 'yaml-unsupported-tag'],
  ])('refuses %s', async (_name, parser, input, code, reason) => {
    expect(
      await value(
        `try { safety.parser.${parser}(input); return 'parsed'; } catch (e) { return [e.code, e.reason]; }`,
        { input },
      ),
    ).toEqual([code, reason]);
  });

  it('stops a YAML alias bomb fast', async () => {
    const rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [name, previous] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
      ['h', 'g'],
      ['i', 'h'],
    ]) {
      rows.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    expect(
      await value(
        "try { safety.parser.yaml(input); return 'parsed'; } catch (e) { return [e.code, e.reason]; }",
        {
          input: rows.join('\n'),
        },
      ),
    ).toEqual(['HELPER_RUNTIME', 'yaml-alias-limit']);
  });
});

describe('fetch inside the sandbox', () => {
  const allowlist = (): SandboxPolicy =>
    testPolicy({ networkMode: 'allowlist', hostsAllow: ['public.test'] });

  it('returns the reference response object with synchronous body readers', async () => {
    expect(
      await value(
        `
      const res = await fetch('http://public.test:' + port + '/json', { headers: { Accept: 'application/json' } });
      const text = res.text();
      return [res.status, res.ok, res.statusText, res.url, res.truncated, res.nextStartIndex, res.contentType,
        res.headers.get('Content-Type'), res.json().greeting, text.length, new Uint8Array(res.arrayBuffer()).length];`,
        { port: server.port },
        allowlist(),
      ),
    ).toEqual([
      200,
      true,
      'OK',
      `http://public.test:${server.port}/json`,
      false,
      null,
      'application/json',
      'application/json',
      'hi',
      23,
      23,
    ]);
  });

  it('sends method, headers and body', async () => {
    const echoed = (await value(
      `
      const res = await fetch('http://public.test:' + port + '/echo', {
        method: 'post', headers: [['X-Trace', 't1']], body: new URLSearchParams({ a: '1 2' }) });
      return res.json();`,
      { port: server.port },
      allowlist(),
    )) as { method: string; headers: Record<string, string>; body: string };
    expect(echoed).toMatchObject({ method: 'POST', body: 'a=1+2' });
    expect(echoed.headers['x-trace']).toBe('t1');
    expect(echoed.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8');
  });

  it('shows egress refusals to tool code as errors with code and reason', async () => {
    expect(
      await value(
        `
      const out = [];
      for (const url of ['http://127.0.0.1:' + port + '/ok', 'http://other.test/', 'file:///etc/passwd']) {
        try { await fetch(url); out.push('fetched'); } catch (e) { out.push(e.code + '/' + e.reason); }
      }
      return out;`,
        { port: server.port },
        allowlist(),
      ),
    ).toEqual([
      'SECURITY/host-not-in-allowlist',
      'SECURITY/host-not-in-allowlist',
      'SECURITY/unsupported-scheme',
    ]);
  });

  it('keeps the helper error code when tool code does not catch it', async () => {
    const result = await runner.run({
      toolId: 'helpers',
      toolName: 'helpers',
      code: "await fetch('http://169.254.169.254/latest/meta-data/');",
      args: {},
      secrets: [],
      policy: testPolicy({ networkMode: 'strict' }),
    });
    expect(failureOf(result)).toMatchObject({ code: 'SECURITY', reason: 'literal-private-ip' });
  });

  it('cuts a streamed body at the policy cap', async () => {
    expect(
      await value(
        `
      const res = await fetch('http://public.test:' + port + '/stream');
      return [res.truncated, res.nextStartIndex, res.arrayBuffer().byteLength];`,
        { port: server.port },
        testPolicy({ networkMode: 'allowlist', hostsAllow: ['public.test'] }, { maxFetchBytes: 50_000 }),
      ),
    ).toEqual([true, 50_000, 50_000]);
  });
});
