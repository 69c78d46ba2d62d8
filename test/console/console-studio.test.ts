/**
 * The tool studio over real HTTP against a real gateway with a watched tools directory: validation errors point
 * at their fields, the Local Pass runs in the real sandbox with the gateway's env lookup and reports toolSafety
 * and the risk level (secret values masked), a viewer cannot publish, a published spec is picked up without
 * restart and called by an SDK client through /mcp, and an existing spec opens in the form, round-trips
 * unchanged, and is edited in place.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
const MCP_KEY = 'mcp-key-0123456789abcdef';
/** Only in the gateway's env lookup: the studio must resolve it and never show it. */
const STUDIO_TOKEN = 'studio-token-5f3a9c0e1b7d';

let gateway: RunningGateway;
let origin: string;
let toolsDir: string;
let browser: Browser | undefined;
const SHOTS = path.join(ROOT, 'test-results/console');
const cspViolations: string[] = [];

beforeAll(async () => {
  toolsDir = tempDir('portcullis-studio-');
  gateway = await startGateway(
    {
      auth: { apiKeys: [MCP_KEY] },
      admin: {
        keys: [
          { name: 'watcher', key: '${VIEWER_KEY}', role: 'viewer' },
          { name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' },
        ],
      },
      upstreams: {},
      tools: { bundled: false, dir: toolsDir },
    },
    { env: { VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR, STUDIO_TOKEN } },
  );
  origin = `http://127.0.0.1:${gateway.port}`;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  expect(cspViolations).toEqual([]);
});

async function signedIn(key: string): Promise<Page> {
  if (browser === undefined) {
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox'],
    });
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(`${origin}/console/login`);
  await page.getByLabel('Admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/console`);
  return page;
}

const spec = (name: string, code: string, testValue = 'hello') => ({
  toolId: name.replace(/_/g, '-'),
  name,
  description: `Shouts the given text back in capitals (Returns { shout }).`,
  category: 'OTHER',
  tags: [],
  params: [{ name: 'text', type: 'STRING', required: true, testValue, description: 'the text' }],
  staticVariables: [],
  code,
  codeType: 'Javascript',
  sandboxOverrides: {},
  draft: true,
});

interface Problem {
  code: string;
  pointer: string;
}
/** The studio answers, loosely: the tests read the fields they check. */
interface Answer {
  ok?: boolean;
  draft?: boolean;
  toolId?: string;
  errors: Problem[];
  tests: Array<{ ok: boolean; output?: unknown }>;
  risk: { level: string };
  toolSafety: unknown;
  error: { code: string };
}

async function post(route: string, key: string, body: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${origin}/admin/api${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

describe('tool studio admin API', () => {
  it('answers validation errors at their fields', async () => {
    const broken = { ...spec('shout', 'return { shout: text.toUpperCase() };'), params: [{ name: 'text' }] };
    const { status, json } = await post('/specs/validate', VIEWER, { spec: broken });
    expect(status).toBe(200);
    expect(json.ok).toBe(false);
    expect(json.errors.length).toBeGreaterThan(0);
    expect(json.errors.some((e) => e.pointer.startsWith('/params/0'))).toBe(true);

    const good = await post('/specs/validate', VIEWER, {
      spec: JSON.stringify(spec('shout', 'return { shout: text.toUpperCase() };')),
    });
    expect(good.json).toMatchObject({ ok: true, risk: { level: expect.any(String) } });
    expect(good.json.toolSafety).toBeTruthy();
  });

  it('runs the Local Pass in the sandbox and reports its output, toolSafety and risk', async () => {
    const pass = await post('/specs/test', OPERATOR, {
      spec: spec('shout', 'return { shout: text.toUpperCase() };'),
    });
    expect(pass.json.ok).toBe(true);
    expect(pass.json.tests[0]).toMatchObject({ ok: true, output: { shout: 'HELLO' } });
    expect(pass.json.risk.level).toEqual(expect.any(String));
    expect(pass.json.toolSafety).toBeTruthy();

    const fail = await post('/specs/test', OPERATOR, { spec: spec('shout', 'throw new Error("nope");') });
    expect(fail.json.ok).toBe(false);
    expect(fail.json.tests[0]?.ok).toBe(false);
    expect(fail.json.errors[0]?.code).toBe('LOCAL_PASS_FAILED');
  });

  it('refuses a viewer publishing (403) and writes nothing', async () => {
    const { status, json } = await post('/specs/publish', VIEWER, {
      spec: spec('viewer_tool', 'return { shout: text };'),
    });
    expect(status).toBe(403);
    expect(json.error.code).toBe('FORBIDDEN');
    expect(existsSync(path.join(toolsDir, 'viewer-tool.json'))).toBe(false);
  });

  it('refuses a tool id that would leave the tools directory', async () => {
    const escape = { ...spec('escape', 'return { shout: text };'), toolId: '../escaped' };
    const { status, json } = await post('/specs/publish', OPERATOR, { spec: escape });
    expect(status).toBe(400);
    expect(json.error.code).toBe('INVALID_INPUT');
    expect(existsSync(path.join(toolsDir, '..', 'escaped.json'))).toBe(false);
  });

  it('saves a draft, and publishes a spec the gateway serves without restart', async () => {
    const draft = await post('/specs/publish', OPERATOR, {
      spec: spec('draft_tool', 'return { shout: text };'),
      draft: true,
    });
    expect(draft.json).toMatchObject({ ok: true, draft: true });
    expect(JSON.parse(readFileSync(path.join(toolsDir, 'draft-tool.json'), 'utf8')).draft).toBe(true);

    const published = await post('/specs/publish', OPERATOR, {
      spec: spec('api_shout', 'return { shout: text.toUpperCase() };'),
    });
    expect(published.json).toMatchObject({ ok: true, draft: false, toolId: 'api-shout' });
    expect(JSON.parse(readFileSync(path.join(toolsDir, 'api-shout.json'), 'utf8')).draft).toBe(false);

    const client = await connectClient(gateway.url, { era: 'legacy', apiKey: MCP_KEY });
    try {
      const tool = await listedTool(client, 'api_shout', 'the published tool');
      const result = await client.callTool({ name: tool.name, arguments: { text: 'hi' } });
      expect(JSON.stringify(result.content)).toContain('HI');

      // A new version that fails its Local Pass leaves the published one in place and serving.
      const broken = await post('/specs/publish', OPERATOR, {
        spec: spec('api_shout', 'throw new Error("broken");'),
      });
      expect(broken.json.ok).toBe(false);
      expect(broken.json.errors[0]?.code).toBe('LOCAL_PASS_FAILED');
      const kept = JSON.parse(readFileSync(path.join(toolsDir, 'api-shout.json'), 'utf8')) as {
        draft: boolean;
        code: string;
      };
      expect(kept).toMatchObject({ draft: false, code: 'return { shout: text.toUpperCase() };' });
      expect(readdirSync(toolsDir).filter((name) => name.startsWith('.'))).toEqual([]);
      const again = await client.callTool({ name: tool.name, arguments: { text: 'hi' } });
      expect(JSON.stringify(again.content)).toContain('HI');
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** The client's tool whose name ends with `suffix`, once the watched directory has published it. */
const listedTool = (client: Awaited<ReturnType<typeof connectClient>>, suffix: string, what: string) =>
  waitFor(async () => (await client.listTools()).tools.find((t) => t.name.endsWith(suffix)), 20_000, what);

async function get(route: string, key: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${origin}${route}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, text: await response.text() };
}

/** A spec whose static variable needs STUDIO_TOKEN from the gateway's env. */
const tokenSpec = (name: string, suffix: string) => ({
  ...spec(name, `return { shout: text.toUpperCase() + '${suffix}', token, tokenLength: token.length };`),
  staticVariables: [{ token: '${STUDIO_TOKEN}' }],
  sandboxOverrides: { secretsInCode: true },
});

describe('tool studio admin API: env, reading and editing specs', () => {
  it('runs the Local Pass with the gateway env lookup, the resolved value masked', async () => {
    const pass = await post('/specs/test', OPERATOR, { spec: tokenSpec('token_shout', '!') });
    expect(pass.json.ok).toBe(true);
    expect(pass.json.tests[0]?.output).toMatchObject({ shout: 'HELLO!', tokenLength: STUDIO_TOKEN.length });
    expect(JSON.stringify(pass.json)).not.toContain(STUDIO_TOKEN);

    const missing = await post('/specs/test', OPERATOR, {
      spec: { ...tokenSpec('token_shout', '!'), staticVariables: [{ token: '${STUDIO_UNSET_TOKEN}' }] },
    });
    expect(missing.json.ok).toBe(false);
    expect(missing.json.errors[0]).toMatchObject({
      code: 'LOCAL_PASS_FAILED',
      pointer: '/staticVariables/0/token',
    });
  });

  it('reads a spec of tools.dir by toolId (viewer may), masked, and refuses hostile or unknown ids', async () => {
    const published = await post('/specs/publish', OPERATOR, { spec: tokenSpec('read_me', '!') });
    expect(published.json).toMatchObject({ ok: true, draft: false, toolId: 'read-me' });
    const read = await get('/admin/api/specs/read-me', VIEWER);
    expect(read.status).toBe(200);
    const body = JSON.parse(read.text) as { toolId: string; draft: boolean; spec: Record<string, unknown> };
    expect(body).toMatchObject({ toolId: 'read-me', draft: false });
    expect(body.spec).toMatchObject({
      name: 'read_me',
      staticVariables: [{ token: '${STUDIO_TOKEN}' }],
      sandboxOverrides: { secretsInCode: true },
    });
    expect(read.text).not.toContain(STUDIO_TOKEN);

    for (const hostile of [
      '..%2F..%2Fetc%2Fpasswd',
      '..%5C..%5Cwin',
      '.hidden',
      'a%00b',
      'x'.repeat(129),
      'a%20b',
    ]) {
      const refused = await get(`/admin/api/specs/${hostile}`, OPERATOR);
      expect(refused.status, hostile).toBe(400);
      expect(JSON.parse(refused.text).error.code, hostile).toBe('INVALID_INPUT');
    }
    const unknown = await get('/admin/api/specs/no-such-tool', OPERATOR);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).error.code).toBe('NOT_FOUND');
    const anonymous = await fetch(`${origin}/admin/api/specs/read-me`);
    expect(anonymous.status).toBe(401);
  });

  it('publishes an edit over the file that holds the toolId, keeping its createTimestamp', async () => {
    const hand = {
      ...spec('hand_tool', 'return { shout: text };'),
      toolId: 'hand-tool',
      createTimestamp: 1_700_000_000_000,
      'x-note': 'kept',
    };
    writeFileSync(path.join(toolsDir, 'handwritten.json'), JSON.stringify(hand, null, 2));
    const read = JSON.parse((await get('/admin/api/specs/hand-tool', OPERATOR)).text) as {
      spec: Record<string, unknown>;
    };
    // Sent without its createTimestamp: the file's own is kept.
    const edited: Record<string, unknown> = { ...read.spec, code: 'return { shout: text + "?" };' };
    delete edited['createTimestamp'];
    const published = await post('/specs/publish', OPERATOR, { spec: edited });
    expect(published.json).toMatchObject({ ok: true, draft: false, toolId: 'hand-tool' });
    expect(existsSync(path.join(toolsDir, 'hand-tool.json'))).toBe(false);
    const file = JSON.parse(readFileSync(path.join(toolsDir, 'handwritten.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(file).toMatchObject({
      code: 'return { shout: text + "?" };',
      draft: false,
      createTimestamp: 1_700_000_000_000,
      'x-note': 'kept',
    });

    // A new tool whose toolId names another tool's file does not overwrite it.
    const squatter = { ...spec('squatter', 'return 1;'), toolId: 'handwritten' };
    const refused = await post('/specs/publish', OPERATOR, { spec: squatter });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('INVALID_INPUT');
    expect(JSON.parse(readFileSync(path.join(toolsDir, 'handwritten.json'), 'utf8')).name).toBe('hand_tool');
  });
});

describe('tool studio in the browser', () => {
  it('lets an operator write, Local-Pass and publish a tool that an MCP client then calls', async () => {
    const page = await signedIn(OPERATOR);
    await page.getByRole('link', { name: 'Tool studio' }).click();
    await page.waitForURL(`${origin}/console/studio`);
    await page.locator('#studio-name').fill('studio_reverse');
    await page.locator('#studio-description').fill('Reverses the given text (Returns { reversed }).');
    await page
      .locator('#studio-params')
      .fill(
        JSON.stringify([
          { name: 'text', type: 'STRING', required: true, description: 'text', testValue: 'abc' },
        ]),
      );
    await page.locator('#studio-code').fill("return { reversed: text.split('').reverse().join('') };");

    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.locator('#studio-result h2').textContent()).resolves.toContain('Validate: ok');

    await page.getByRole('button', { name: 'Run Local Pass' }).click();
    await expect(page.locator('#studio-result h2').textContent()).resolves.toContain('Local Pass: ok');
    await expect(page.locator('.studio-output').textContent()).resolves.toContain('"reversed": "cba"');
    await expect(page.locator('#studio-tool-safety').count()).resolves.toBe(1);
    await expect(page.locator('#studio-result .level').textContent()).resolves.toMatch(/risk \S+/);
    await page.screenshot({ path: path.join(SHOTS, 'operator-studio-local-pass.png'), fullPage: true });

    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.locator('#studio-result').textContent()).resolves.toContain('Published to');
    await page.screenshot({ path: path.join(SHOTS, 'operator-studio-published.png'), fullPage: true });

    const client = await connectClient(gateway.url, { era: 'modern', apiKey: MCP_KEY });
    try {
      const tool = await listedTool(client, 'studio_reverse', 'the studio tool');
      const result = await client.callTool({ name: tool.name, arguments: { text: 'portcullis' } });
      expect(JSON.stringify(result.content)).toContain('silluctrop');
    } finally {
      await client.close();
    }
  }, 90_000);

  it('opens a published tool from the tools page, round-trips it unchanged, and publishes an edit a client calls', async () => {
    const original = {
      ...spec('studio_edit', "return { shout: text.toUpperCase() + '!', tokenType: typeof token };"),
      category: 'TEXT',
      tags: ['text'],
      staticVariables: [{ token: '${STUDIO_TOKEN}' }],
      sandboxOverrides: { networkMode: 'blocked' },
      'x-owner': 'team-a',
    };
    const first = await post('/specs/publish', OPERATOR, { spec: original });
    expect(first.json).toMatchObject({ ok: true, draft: false, toolId: 'studio-edit' });
    const file = path.join(toolsDir, 'studio-edit.json');
    const comparable = () => {
      const {
        updateTimestamp: _u,
        toolSafety: _t,
        ...rest
      } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return rest;
    };
    const before = comparable();

    // Publishing answers once the file is written; the watched directory publishes the tool a moment later.
    await waitFor(
      async () => (await get('/admin/api/tools', OPERATOR)).text.includes('"localToolId":"studio-edit"'),
      20_000,
      'studio-edit listed by the gateway',
    );
    const page = await signedIn(OPERATOR);
    await page.goto(`${origin}/console/tools?q=studio_edit`);
    await page.getByRole('link', { name: 'Edit in studio' }).click();
    await page.waitForURL(`${origin}/console/studio?from=studio-edit`);
    await expect(page.locator('#studio-editing').textContent()).resolves.toContain('studio-edit');
    await expect(page.locator('#studio-code').inputValue()).resolves.toContain("'!'");
    await expect(page.locator('#studio-category').inputValue()).resolves.toBe('TEXT');
    await expect(page.locator('#studio-staticVariables').inputValue()).resolves.toContain('${STUDIO_TOKEN}');
    await expect(page.locator('#studio-extensions').inputValue()).resolves.toContain('team-a');
    await expect(page.content()).resolves.not.toContain(STUDIO_TOKEN);

    // Unchanged, the form publishes an equivalent file.
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.locator('#studio-result').textContent()).resolves.toContain('Published to');
    expect(comparable()).toEqual(before);

    await page
      .locator('#studio-code')
      .fill("return { shout: text.toUpperCase() + '?', tokenType: typeof token };");
    await page.locator('#studio-tags').fill('text, edited');
    await page.getByRole('button', { name: 'Run Local Pass' }).click();
    await expect(page.locator('#studio-result h2').textContent()).resolves.toContain('Local Pass: ok');
    await expect(page.locator('.studio-output').textContent()).resolves.toContain('"shout": "HELLO?"');
    await expect(page.content()).resolves.not.toContain(STUDIO_TOKEN);
    await page.screenshot({ path: path.join(SHOTS, 'operator-studio-edit-local-pass.png'), fullPage: true });
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page.locator('#studio-result').textContent()).resolves.toContain('Published to');
    await page.screenshot({ path: path.join(SHOTS, 'operator-studio-edit-published.png'), fullPage: true });
    expect(comparable()).toMatchObject({
      ...before,
      tags: ['text', 'edited'],
      code: expect.stringContaining("'?'"),
    });
    expect(
      readdirSync(toolsDir).filter((name) => name.includes('studio-edit') || name.includes('studio_edit')),
    ).toEqual(['studio-edit.json']);

    const client = await connectClient(gateway.url, { era: 'modern', apiKey: MCP_KEY });
    try {
      const tool = await listedTool(client, 'studio_edit', 'the edited tool');
      const text = await waitFor(
        async () => {
          const result = await client.callTool({ name: tool.name, arguments: { text: 'hi' } });
          const seen = JSON.stringify(result.content);
          return seen.includes('HI?') ? seen : undefined;
        },
        20_000,
        'the edited version',
      );
      expect(text).not.toContain(STUDIO_TOKEN);
    } finally {
      await client.close();
    }
  }, 90_000);

  it('shows errors beside their fields', async () => {
    const page = await signedIn(OPERATOR);
    await page.goto(`${origin}/console/studio`);
    await page.locator('#studio-name').fill('');
    await page.locator('#studio-params').fill('[{"name": "text"}]');
    await page.locator('#studio-name').evaluate((input) => input.removeAttribute('required'));
    await page.locator('#studio-tags').fill('one, two, three');
    await page.locator('#studio-sandboxOverrides').fill('{"networkMode": "open", "fileRaed": true}');
    await page.locator('#studio-hitlMode').selectOption('REQUIRED');
    await page.locator('#studio-extensions').fill('{"x-owner": 7}');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.locator('#params-errors').count()).resolves.toBe(1);
    await expect(page.locator('#tags-errors').textContent()).resolves.toContain('/tags');
    await expect(page.locator('#sandboxOverrides-errors').textContent()).resolves.toContain(
      '/sandboxOverrides',
    );
    await expect(page.locator('#studio-hitlMode').inputValue()).resolves.toBe('REQUIRED');
    await page.screenshot({ path: path.join(SHOTS, 'operator-studio-errors.png'), fullPage: true });

    // The JSON fields are checked before anything is sent, each at its own field.
    await page.locator('#studio-name').fill('fields');
    await page.locator('#studio-staticVariables').fill('[{"token": ');
    await page.locator('#studio-hitlMode').selectOption('');
    await page.locator('#studio-hitlPrompt').fill('Run it?');
    await page.getByRole('button', { name: 'Validate' }).click();
    await expect(page.locator('#staticVariables-errors').textContent()).resolves.toContain('not valid JSON');
    await expect(page.locator('#hitlPrompt-errors').textContent()).resolves.toContain(
      'needs an approval mode',
    );
  }, 60_000);

  it('gives a viewer no button, and a forged post is refused', async () => {
    const page = await signedIn(VIEWER);
    await page.goto(`${origin}/console/studio`);
    await expect(page.getByRole('button', { name: 'Publish' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Run Local Pass' }).count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'viewer-studio.png'), fullPage: true });
    const seen = await post('/specs/publish', OPERATOR, {
      spec: spec('viewer_seen', 'return { shout: text };'),
    });
    expect(seen.json).toMatchObject({ ok: true, toolId: 'viewer-seen' });
    await waitFor(
      async () => {
        await page.goto(`${origin}/console/tools?q=viewer_seen`);
        return (await page.locator('article.tool').count()) > 0 ? true : undefined;
      },
      20_000,
      'the local tool on the tools page',
    );
    await expect(page.getByRole('link', { name: 'Edit in studio' }).count()).resolves.toBe(0);
    await page.goto(`${origin}/console/studio?from=viewer-seen`);
    await expect(page.locator('#studio-name').inputValue()).resolves.toBe('viewer_seen');
    await expect(page.getByRole('button', { name: 'Publish' }).count()).resolves.toBe(0);
    const published = readFileSync(path.join(toolsDir, 'viewer-seen.json'), 'utf8');
    const csrf = await page.locator('input[name=csrf]').first().getAttribute('value');
    const status = await page.evaluate(async (token) => {
      const body = new URLSearchParams({
        csrf: token ?? '',
        op: 'publish',
        name: 'forged',
        params: '[]',
        code: 'return 1;',
      });
      const edit = new URLSearchParams({
        csrf: token ?? '',
        op: 'publish',
        from: 'viewer-seen',
        toolId: 'viewer-seen',
        name: 'viewer_seen',
        params: '[]',
        code: 'return "forged";',
      });
      // A spec of 40 KiB passes the studio's form cap (and is refused for the role); 200 KiB does not.
      const large = new URLSearchParams(edit);
      large.set('code', `return ${JSON.stringify('x'.repeat(40 * 1024))};`);
      const huge = new URLSearchParams(edit);
      huge.set('code', 'x'.repeat(200 * 1024));
      const statuses = [];
      for (const form of [body, edit, large, huge])
        statuses.push((await fetch('/console/studio', { method: 'POST', body: form })).status);
      return statuses;
    }, csrf);
    expect(status).toEqual([403, 403, 403, 413]);
    expect(existsSync(path.join(toolsDir, 'forged.json'))).toBe(false);
    expect(readFileSync(path.join(toolsDir, 'viewer-seen.json'), 'utf8')).toBe(published);
  }, 60_000);
});
