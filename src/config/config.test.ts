import { describe, expect, it } from 'vitest';
import { buildConfig } from './index.ts';
import { parseConfigText } from './load-config.ts';
import { isPortcullisError } from '../errors/index.ts';

const env = (vars: Record<string, string>) => (name: string) => vars[name];

function problemsOf(doc: unknown, vars: Record<string, string> = {}): string[] {
  try {
    buildConfig(doc, 'test.yaml', '/tmp', env(vars));
    return [];
  } catch (error) {
    if (!isPortcullisError(error, 'CONFIG_INVALID')) throw error;
    return (error.details?.problems as string[]) ?? [];
  }
}

describe('configuration', () => {
  it('starts from the embedded defaults', () => {
    const config = buildConfig({}, 'embedded default', '/srv', env({}));
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8848 });
    expect(config.auth.apiKeys).toEqual([]);
    expect(config.store.path).toBe('/srv/data/portcullis.db');
    expect(config.exposure).toBe('both');
    expect(config.poisoning).toBe('warn');
    expect(config.approval.elicitationTimeoutMs).toBe(300_000);
    expect(Object.isFrozen(config.listen)).toBe(true);
  });

  it('keeps the documented upstream keys and resolves ${ENV} placeholders into secrets', () => {
    const doc = parseConfigText(
      `
listen: { host: 127.0.0.1, port: 9000 }
auth: { apiKeys: ["\${PORTCULLIS_API_KEY}"] }
upstreams:
  everything:
    transport: stdio
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
    env: { SOME_KEY: "\${SOME_KEY}" }
    tools: { include: ["*"], exclude: [] }
  remote:
    transport: http
    url: http://127.0.0.1:3001/mcp
    headers: { Authorization: "Bearer \${REMOTE_TOKEN}" }
    sampling: true
`,
      'inline',
    );
    const config = buildConfig(
      doc,
      'inline',
      '/tmp',
      env({ PORTCULLIS_API_KEY: 'k-123456', SOME_KEY: 'sk-abcdef', REMOTE_TOKEN: 'tok-xyz1' }),
    );
    expect(config.auth.apiKeys).toEqual([{ key: 'k-123456', groups: [], scopes: [] }]);
    const [everything, remote] = config.upstreams;
    expect(everything).toMatchObject({
      id: 'everything',
      transport: 'stdio',
      env: { SOME_KEY: 'sk-abcdef' },
      sampling: false,
    });
    expect(remote).toMatchObject({
      transport: 'http',
      headers: { Authorization: 'Bearer tok-xyz1' },
      sampling: true,
    });
    expect([...config.secrets].sort()).toEqual(['k-123456', 'sk-abcdef', 'tok-xyz1']);
  });

  it.each([
    [{ listen: { hots: 'x' } }, 'listen.hots: unknown key'],
    [
      { upstreams: { a: { transport: 'stdio', comand: 'x', command: 'y' } } },
      'upstreams.a.comand: unknown key',
    ],
    [{ exposure: 'all' }, 'exposure: must be one of builtin, composed, both'],
    [
      { approval: { autoApproveThreshold: 'L9' } },
      'approval.autoApproveThreshold: must be one of L0, L1, L2, L3, L4, L5',
    ],
    [
      { compositions: { c: { members: [{ upstream: 'a', tool: 't', alias: 'bad name!' }] } } },
      'compositions.c.members[0].alias: does not match ^[A-Za-z0-9_-]{1,64}$ (exposed tool names match',
    ],
    [{ upstreams: { a: { transport: 'stdio' } } }, 'upstreams.a: missing required key "command"'],
    [
      { upstreams: { a: { transport: 'http', url: 'http://x', command: 'y' } } },
      'upstreams.a: has keys that do not belong',
    ],
    [{ callTimeout: '10 minutes' }, 'callTimeout: does not match'],
    [{ upstreams: { 'bad id!': { transport: 'stdio', command: 'x' } } }, 'key "bad id!" does not match'],
  ])('rejects %j naming the path and the rule', (doc, expected) => {
    const problems = problemsOf(doc);
    expect(problems.join('\n')).toContain(expected);
  });

  it('refuses a composition that shadows another (R1), naming both paths', () => {
    const problems = problemsOf({
      upstreams: { a: { transport: 'stdio', command: 'x' }, b: { transport: 'stdio', command: 'y' } },
      compositions: {
        one: { members: [{ upstream: 'a', tool: 'read', alias: 'reader' }] },
        two: { members: [{ upstream: 'b', tool: 'read', alias: 'reader' }] },
      },
    });
    expect(problems).toEqual([
      'compositions.one.members[0].alias: R1_ALIAS_COLLISION: alias "reader" is also used by compositions.two.members[0].alias',
    ]);
  });

  it('keeps prompt overrides, refuses two prompts under one alias and a bad or unknown override key', () => {
    const config = buildConfig(
      {
        upstreams: {
          a: {
            transport: 'stdio',
            command: 'x',
            prompts: { overrides: { review: { alias: 'review', description: 'Review a change' } } },
          },
        },
      },
      'test.yaml',
      '/tmp',
      env({}),
    );
    expect(config.upstreams[0]?.promptOverrides).toEqual({
      review: { alias: 'review', description: 'Review a change' },
    });
    expect(
      problemsOf({
        upstreams: {
          a: { transport: 'stdio', command: 'x', prompts: { overrides: { one: { alias: 'same' } } } },
          b: { transport: 'stdio', command: 'y', prompts: { overrides: { two: { alias: 'same' } } } },
        },
      }),
    ).toEqual([
      'upstreams.a.prompts.overrides.one.alias: prompt alias "same" is also used by upstreams.b.prompts.overrides.two.alias',
    ]);
    const bad = problemsOf({
      upstreams: {
        a: {
          transport: 'stdio',
          command: 'x',
          prompts: { overrides: { one: { alias: 'no spaces', hitl: 'x' } } },
        },
      },
    }).join('\n');
    expect(bad).toContain('upstreams.a.prompts.overrides.one');
    expect(bad).toContain('hitl');
  });

  it('refuses a member of an unknown upstream and an alias on a glob', () => {
    const problems = problemsOf({
      upstreams: { a: { transport: 'stdio', command: 'x' } },
      compositions: { c: { members: [{ upstream: 'ghost', tool: 'read_*', alias: 'r' }] } },
    });
    expect(problems).toEqual([
      'compositions.c.members[0].upstream: "ghost" is not a configured upstream',
      'compositions.c.members[0].alias: an alias needs a single tool, but "read_*" is a glob',
    ]);
  });

  it('loads profiles as written and checks their references', () => {
    const profiles = {
      default: { tools: { include: ['*'] } },
      readonly: {
        tools: {
          include: ['files_read_*', 'everything_echo'],
          upstreams: ['a'],
          tags: ['data'],
          maxRisk: 'L2',
        },
        prompts: { exclude: ['*'] },
        resources: { include: ['a_*'] },
        principals: { keys: ['ci-bot'], groups: ['contractors'], scopes: ['mcp:read'] },
      },
    };
    const upstreams = { a: { transport: 'stdio', command: 'x' } };
    expect(buildConfig({ upstreams, profiles }, 't', '/tmp', env({})).profiles).toEqual(profiles);
    expect(buildConfig({}, 't', '/tmp', env({})).profiles).toEqual({});
    expect(
      problemsOf({
        upstreams,
        profiles: { p: { tools: { upstreams: ['ghost', 'a*'] }, principals: { groups: [] } } },
      }),
    ).toEqual([
      'profiles.p.tools.upstreams[0]: "ghost" is not a configured upstream',
      'profiles.p.principals: names no key, group or scope, so no one could use the profile (leave the block out to let every caller in)',
    ]);
    const bad = problemsOf({ profiles: { p: { tools: { maxRisk: 'L9', only: ['x'] } } } }).join('\n');
    expect(bad).toContain('profiles.p.tools.only: unknown key');
    expect(bad).toContain('profiles.p.tools.maxRisk: must be one of');
  });

  it('names a placeholder that is unset or blank', () => {
    const problems = problemsOf(
      { auth: { apiKeys: ['${MISSING_KEY}', '${BLANK_KEY}'] } },
      { BLANK_KEY: '  ' },
    );
    expect(problems).toEqual([
      'auth.apiKeys[0]: references ${MISSING_KEY}, which is not set (or is blank) in the environment',
      'auth.apiKeys[1]: references ${BLANK_KEY}, which is not set (or is blank) in the environment',
    ]);
  });

  it('fills a uri field from a placeholder', () => {
    const config = buildConfig(
      { upstreams: { r: { transport: 'http', url: '${REMOTE_URL}' } } },
      't',
      '/tmp',
      env({ REMOTE_URL: 'http://127.0.0.1:9/mcp' }),
    );
    expect(config.upstreams[0]).toMatchObject({ url: 'http://127.0.0.1:9/mcp' });
  });

  it('does not require placeholders of a disabled upstream', () => {
    expect(
      problemsOf({
        upstreams: { off: { transport: 'http', enabled: false, url: 'http://x', headers: { A: '${NOPE}' } } },
      }),
    ).toEqual([]);
  });

  it('reports YAML syntax errors with the line', () => {
    expect(() => parseConfigText('listen: {host: [', 'bad.yaml')).toThrow(
      /bad.yaml at line 1: not valid YAML/,
    );
  });
});
