/**
 * The tool studio over real HTTP against a real gateway with a watched tools directory: validation errors point
 * at their fields, the Local Pass runs in the real sandbox and reports toolSafety and the risk level, a viewer
 * cannot publish, and a published spec is picked up without restart and called by an SDK client through /mcp.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectClient,
  startGateway,
  tempDir,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const VIEWER = 'viewer-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
const MCP_KEY = 'mcp-key-0123456789abcdef';

let gateway: RunningGateway;
let origin: string;
let toolsDir: string;

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
    { env: { VIEWER_KEY: VIEWER, OPERATOR_KEY: OPERATOR } },
  );
  origin = `http://127.0.0.1:${gateway.port}`;
}, 120_000);
afterAll(async () => gateway?.close());

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
      const tool = await waitFor(
        async () => (await client.listTools()).tools.find((t) => t.name.endsWith('api_shout')),
        20_000,
        'the published tool',
      );
      const result = await client.callTool({ name: tool.name, arguments: { text: 'hi' } });
      expect(JSON.stringify(result.content)).toContain('HI');
    } finally {
      await client.close();
    }
  }, 60_000);
});
