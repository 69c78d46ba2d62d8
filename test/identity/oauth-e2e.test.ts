/**
 * Portcullis as an OAuth 2.1 resource server against a real OpenID Provider (`oidc-provider` on 127.0.0.1): the
 * SDK client finds the authorization server through the 401 and the RFC 9728 metadata, gets a token by client
 * credentials (both eras) and as a scripted person by authorization code with PKCE, lists and calls tools; expired, other-audience, unknown-key and scope-less tokens are
 * refused with the right status and challenge; a key rotation at the provider is followed without a restart; the
 * client's token never reaches the upstream; OAuth groups grant admin roles.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/app/index.ts';
import { buildConfig } from '../../src/config/index.ts';
import { listenGateway, type Listening } from '../../src/http/index.ts';
import { freePort, startEverythingHttp, tempDir } from '../helpers/gateway-harness.ts';
import {
  CLIENT,
  createTestKey,
  NO_SCOPE_CLIENT,
  PKCE_CLIENT,
  startProvider,
  type RunningProvider,
  type TestKey,
} from './oidc-fixture.ts';
import { signInAndConsent } from './scripted-user.ts';

let provider: RunningProvider;
let firstKey: TestKey;
let everything: Awaited<ReturnType<typeof startEverythingHttp>>;
let recorder: Server;
const upstreamHeaders: IncomingHttpHeaders[] = [];
let gateway: Gateway;
let listening: Listening;
let base: string;
let audience: string;

/** A pass-through proxy in front of the HTTP upstream that records the headers the gateway sends it. */
async function startRecorder(target: URL): Promise<string> {
  recorder = createServer((req, res) => {
    upstreamHeaders.push(req.headers);
    const forward = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const address = recorder.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
}

beforeAll(async () => {
  firstKey = await createTestKey('first');
  provider = await startProvider(firstKey, ['platform']);
  everything = await startEverythingHttp();
  const upstreamUrl = await startRecorder(new URL(everything.url));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  audience = `${base}/mcp`;
  const dir = tempDir();
  const config = buildConfig(
    {
      store: { path: path.join(dir, 'portcullis.db') },
      auth: {
        oauth: {
          issuer: provider.issuer,
          audience,
          requiredScopes: ['mcp'],
          // The test rotates keys at once; production keeps the default cooldown.
          jwksCooldown: '0s',
        },
      },
      admin: { oauth: { roles: { viewer: { groups: ['platform'] }, operator: { scopes: ['admin'] } } } },
      upstreams: { every: { transport: 'http', url: upstreamUrl } },
      tools: { bundled: false },
    },
    'test',
    dir,
    () => undefined,
  );
  gateway = createGateway(config, { inheritedEnv: { PATH: process.env.PATH }, writeLog: () => {} });
  listening = await listenGateway(gateway.app, '127.0.0.1', port);
  await gateway.ready(60_000);
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await listening?.close();
  await provider?.close();
  recorder?.close();
  await everything?.stop();
});

const clientCredentials = (client = CLIENT) =>
  new ClientCredentialsProvider({
    clientId: client.id,
    clientSecret: client.secret,
    expectedIssuer: provider.issuer,
  });

async function connect(era: 'legacy' | 'modern', authProvider: ClientCredentialsProvider): Promise<Client> {
  const client = new Client(
    { name: `oauth-${era}`, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(audience), { authProvider }));
  return client;
}

async function postMcp(token?: string) {
  const response = await fetch(audience, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const body = (await response.json()) as { error: { message: string; data: { code: string } } };
  return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '', body };
}

async function tokenFor(client: { id: string; secret: string }, scope: string): Promise<string> {
  const response = await fetch(`${provider.issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource: audience }).toString(),
  });
  const answer = (await response.json()) as { access_token: string };
  return answer.access_token;
}

const now = () => Math.floor(Date.now() / 1000);
const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: provider.issuer,
  aud: audience,
  sub: 'minted-caller',
  scope: 'mcp',
  iat: now(),
  exp: now() + 300,
  ...overrides,
});

describe('discovery', () => {
  it('answers a request without a token with 401 and a challenge naming the metadata and scope', async () => {
    const refused = await postMcp();
    expect(refused.status).toBe(401);
    expect(refused.body.error.data.code).toBe('UNAUTHORIZED');
    expect(refused.challenge).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp"`,
    );
  });

  it('serves RFC 9728 metadata at the root, per /mcp path and per profile path, readable cross-origin', async () => {
    for (const suffix of ['', '/mcp', '/mcp/readonly']) {
      const response = await fetch(`${base}/.well-known/oauth-protected-resource${suffix}`, {
        headers: { origin: 'https://inspector.example' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: audience,
        authorization_servers: [provider.issuer],
        scopes_supported: ['mcp'],
        bearer_methods_supported: ['header'],
        resource_name: 'Portcullis MCP gateway',
      });
    }
  });
});

describe('a client with credentials at the provider', () => {
  it.each(['legacy', 'modern'] as const)(
    'discovers, gets a token, lists and calls (%s era), and its token never reaches the upstream',
    async (era) => {
      const auth = clientCredentials();
      const client = await connect(era, auth);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('every_echo');
      upstreamHeaders.length = 0;
      const result = await client.callTool({ name: 'every_echo', arguments: { message: `hello ${era}` } });
      expect(JSON.stringify(result.content)).toContain(`hello ${era}`);
      const token = auth.tokens()?.access_token as string;
      expect(token.split('.')).toHaveLength(3);
      expect(upstreamHeaders.length).toBeGreaterThan(0);
      for (const headers of upstreamHeaders) {
        expect(headers.authorization).toBeUndefined();
        expect(JSON.stringify(headers)).not.toContain(token);
      }
      await client.close();
    },
  );
});

describe('refused tokens', () => {
  it('refuses an expired token with 401 invalid_token', async () => {
    const refused = await postMcp(await firstKey.sign(claims({ iat: now() - 7200, exp: now() - 3600 })));
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(refused.challenge).toContain('error_description="Unauthorized: the token has expired"');
    expect(refused.challenge).toContain('resource_metadata=');
  });

  it('refuses a token for another audience with 401 invalid_token', async () => {
    const refused = await postMcp(await firstKey.sign(claims({ aud: 'https://other.example/mcp' })));
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(refused.body.error.message).toContain('not for this resource');
  });

  it('refuses a token signed by a key the provider does not publish with 401 invalid_token', async () => {
    const rogue = await createTestKey('rogue');
    const refused = await postMcp(await rogue.sign(claims()));
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    expect(refused.body.error.message).toContain('key the issuer does not publish');
  });

  it('refuses a provider token that lacks the required scope with 403 insufficient_scope', async () => {
    const refused = await postMcp(await tokenFor(NO_SCOPE_CLIENT, 'other'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.challenge).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp", ` +
        'error="insufficient_scope", error_description="Forbidden: the token lacks the scope mcp"',
    );
  });
});

describe('key rotation at the provider', () => {
  it('accepts tokens signed by the new key without restarting the gateway', async () => {
    const before = await tokenFor(CLIENT, 'mcp');
    expect(decodeProtectedHeader(before).kid).toBe('first');
    expect((await postMcp(before)).status).not.toBe(401);

    provider.rotate(await createTestKey('second'));
    const auth = clientCredentials();
    const client = await connect('legacy', auth);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('every_echo');
    expect(decodeProtectedHeader(auth.tokens()?.access_token as string).kid).toBe('second');
    await client.close();
  });
});

describe('a person signing in with authorization code and PKCE', () => {
  it('discovers, signs in as a scripted user, and lists and calls as that person', async () => {
    const verifier: { value?: string } = {};
    let tokens: OAuthTokens | undefined;
    let callback: Promise<URLSearchParams> | undefined;
    const authProvider: OAuthClientProvider = {
      redirectUrl: PKCE_CLIENT.redirectUri,
      clientMetadata: {
        client_name: 'scripted user',
        redirect_uris: [PKCE_CLIENT.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      clientInformation: () => ({ client_id: PKCE_CLIENT.id, issuer: provider.issuer }),
      tokens: () => tokens,
      saveTokens: (saved) => {
        tokens = saved;
      },
      redirectToAuthorization: (url) => {
        expect(url.searchParams.get('code_challenge_method')).toBe('S256');
        expect(url.searchParams.get('resource')).toBe(audience);
        callback = signInAndConsent(url, 'alice', PKCE_CLIENT.redirectUri);
      },
      saveCodeVerifier: (value) => {
        verifier.value = value;
      },
      codeVerifier: () => verifier.value as string,
    };
    const transport = new StreamableHTTPClientTransport(new URL(audience), { authProvider });
    const first = new Client({ name: 'pkce', version: '1.0.0' });
    await expect(first.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await transport.finishAuth((await callback) as URLSearchParams);
    expect(decodeJwt(tokens?.access_token as string)).toMatchObject({
      sub: 'alice',
      aud: audience,
      scope: 'mcp',
    });

    const client = new Client({ name: 'pkce', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(audience), { authProvider }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('every_echo');
    const result = await client.callTool({ name: 'every_echo', arguments: { message: 'from alice' } });
    expect(JSON.stringify(result.content)).toContain('from alice');
    await client.close();
  });
});

// Runs last: it revokes the echo tool the other tests call.
describe('admin roles by OAuth group and scope', () => {
  const adminFetch = (route: string, token: string, body?: unknown) =>
    fetch(`${base}/admin/api${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('lets a group member read as viewer, refuses an operator action, and grants operator by scope', async () => {
    const viewer = await tokenFor(CLIENT, 'mcp');
    expect((await adminFetch('/ledger', viewer)).status).toBe(200);
    const revoke = await adminFetch('/ledger/revoke', viewer, {
      upstream: 'every',
      tool: 'echo',
      reason: 'x',
    });
    expect(revoke.status).toBe(403);
    expect(await revoke.text()).toContain('portcullis-test has the viewer role');

    const operator = await tokenFor(CLIENT, 'mcp admin');
    const allowed = await adminFetch('/ledger/revoke', operator, {
      upstream: 'every',
      tool: 'echo',
      reason: 'x',
    });
    expect(allowed.status).toBe(200);
    const audit = (await (await adminFetch('/audit?limit=50', operator)).json()) as {
      entries: { record: { alias: string; principal: string; approval: { decision: string } } }[];
    };
    const revokes = audit.entries
      .map((e) => e.record)
      .filter((r) => r.alias === 'admin.ledger.revoke')
      .map((r) => [r.principal, r.approval.decision]);
    expect(revokes).toEqual([
      ['portcullis-test', 'allow'],
      ['portcullis-test', 'deny'],
    ]);
    // The earlier calls are audited under the principals that made them: the service and the person.
    const callers = audit.entries
      .filter((e) => e.record.alias === 'every_echo')
      .map((e) => e.record.principal);
    expect(new Set(callers)).toEqual(new Set(['portcullis-test', 'alice']));
  });

  it('refuses an admin request without a token with 401', async () => {
    const response = await fetch(`${base}/admin/api/ledger`);
    expect(response.status).toBe(401);
  });
});
