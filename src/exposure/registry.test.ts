import type { Tool } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../config/index.ts';
import type { UpstreamSnapshot, UpstreamState } from '../upstream/index.ts';
import { createToolRegistry, type RegistryDeps } from './registry.ts';
import type { LocalTool, LocalToolProvider } from './types.ts';

const tool = (name: string, description = `Does ${name}.`): Tool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

const snapshot = (id: string, tools: Tool[], state: UpstreamState = 'connected'): UpstreamSnapshot => ({
  id,
  transport: 'stdio',
  state,
  tools,
  prompts: [],
  resources: [],
  resourceTemplates: [],
  attempts: 0,
});

const localProvider = (tools: LocalTool[]): LocalToolProvider => ({
  list: () => tools,
  run: () => Promise.reject(new Error('not run in these tests')),
  onChange: () => () => undefined,
});

const hashText: LocalTool = {
  toolId: 'hash-text',
  source: 'bundled',
  definition: tool('hash_text'),
  active: true,
  hitl: 'DISABLED',
  governance: {},
};

const files = { transport: 'stdio', command: 'files-server' };

function registry(
  doc: Record<string, unknown>,
  snapshots: UpstreamSnapshot[],
  over: Partial<RegistryDeps> = {},
) {
  const config = buildConfig(doc, 'test.yaml', '/tmp', () => undefined);
  let current = snapshots;
  const built = createToolRegistry({ config, snapshots: () => current, ...over });
  built.rebuild();
  return { registry: built, set: (next: UpstreamSnapshot[]) => (current = next) };
}

/** alias → exposed, or the withheld reason. */
const states = (r: ReturnType<typeof registry>['registry']) =>
  Object.fromEntries(r.all().map((t) => [t.alias, t.exposed ? 'exposed' : t.withheldReason]));

describe('createToolRegistry', () => {
  it.each([
    [
      'an upstream no composition names: every tool, default aliases',
      { upstreams: { files } },
      { files_read: 'exposed', files_write: 'exposed' },
    ],
    [
      'include and exclude globs',
      { upstreams: { files: { ...files, tools: { include: ['re*', 'write'], exclude: ['write'] } } } },
      { files_read: 'exposed' },
    ],
    [
      'an override alias',
      { upstreams: { files: { ...files, tools: { overrides: { read: { alias: 'cat' } } } } } },
      { cat: 'exposed', files_write: 'exposed' },
    ],
    [
      'an upstream a composition names has no implicit composition',
      {
        upstreams: { files },
        compositions: { c: { members: [{ upstream: 'files', tool: 'read', alias: 'c_read' }] } },
      },
      { c_read: 'exposed' },
    ],
    [
      'a disabled composition withholds its members',
      {
        upstreams: { files },
        compositions: {
          c: { enabled: false, members: [{ upstream: 'files', tool: 'read', alias: 'c_read' }] },
        },
      },
      { c_read: 'composition-disabled' },
    ],
    [
      'exposure builtin withholds upstream tools',
      { upstreams: { files }, exposure: 'builtin' },
      { files_read: 'exposure-mode', files_write: 'exposure-mode' },
    ],
  ] as const)('%s', (_name, doc, expected) => {
    const { registry: r } = registry(doc, [snapshot('files', [tool('read'), tool('write')])]);
    expect(states(r)).toEqual(expected);
  });

  it('builds the union: upstream tools carry upstream, tool and composition; local tools their id', () => {
    const { registry: r } = registry({ upstreams: { files } }, [snapshot('files', [tool('read')])], {
      local: localProvider([hashText]),
    });
    const [upstream, local] = r.all();
    expect(local).toMatchObject({ origin: 'local', localToolId: 'hash-text', alias: 'hash_text' });
    expect(upstream).toMatchObject({
      origin: 'upstream',
      upstream: 'files',
      upstreamTool: 'read',
      composition: 'upstream:files',
      definition: { name: 'files_read' },
      source: { name: 'read' },
    });
  });

  it.each([
    ['composed withholds local tools', 'composed', 'exposure-mode'],
    ['both exposes them', 'both', 'exposed'],
  ] as const)('exposure %s', (_name, exposure, expected) => {
    const { registry: r } = registry({ exposure }, [], { local: localProvider([hashText]) });
    expect(states(r)).toEqual({ hash_text: expected });
  });

  it('withholds a local tool that is not ACTIVE', () => {
    const { registry: r } = registry({}, [], { local: localProvider([{ ...hashText, active: false }]) });
    expect(states(r)).toEqual({ hash_text: 'local-not-active' });
  });

  it('keeps the last known tools of an upstream that went down, withheld', () => {
    const { registry: r, set } = registry({ upstreams: { files } }, [snapshot('files', [tool('read')])]);
    set([snapshot('files', [], 'down')]);
    expect(r.rebuild()).toBe(true);
    expect(states(r)).toEqual({ files_read: 'upstream-down' });
    expect(r.resolve('files_read')).toBeUndefined();
    expect(r.find('files_read')?.upstream).toBe('files');
  });

  it('withholds a tool whose input schema can never be checked, and logs it once per problem', () => {
    const logs: unknown[] = [];
    const { registry: r } = registry({ upstreams: { files } }, [snapshot('files', [tool('read')])], {
      inputSchemaProblem: () => 'needs backtracking',
      log: (event, fields) => logs.push({ event, ...fields }),
    });
    r.rebuild();
    expect(r.find('files_read')).toMatchObject({
      withheldReason: 'input-schema-unusable',
      withheldDetail: 'needs backtracking',
    });
    expect(logs).toEqual([
      {
        event: 'gateway.tool_withheld',
        alias: 'files_read',
        upstream: 'files',
        tool: 'read',
        reason: 'input-schema-unusable',
        detail: 'needs backtracking',
      },
    ]);
  });

  it('passes the candidates through govern before advertising them', () => {
    const { registry: r } = registry(
      { upstreams: { files } },
      [snapshot('files', [tool('read'), tool('write')])],
      {
        govern: (tools) =>
          tools.map((t) =>
            t.alias === 'files_write' ? { ...t, exposed: false, withheldReason: 'poisoning-blocked' } : t,
          ),
      },
    );
    expect(r.advertised().map((t) => t.name)).toEqual(['files_read']);
    expect(states(r)).toEqual({ files_read: 'exposed', files_write: 'poisoning-blocked' });
  });

  it('tells listeners only when the advertised list changes', () => {
    const { registry: r, set } = registry({ upstreams: { files } }, [snapshot('files', [tool('read')])]);
    let told = 0;
    r.onChange(() => (told += 1));
    expect(r.rebuild()).toBe(false);
    set([snapshot('files', [tool('read', 'Now reads differently.')])]);
    expect(r.rebuild()).toBe(true);
    expect(told).toBe(1);
  });

  it('after invalidate(), rebuilds once on the next read or settle(), however many changes came first', () => {
    let governed = 0;
    const { registry: r, set } = registry({ upstreams: { files } }, [snapshot('files', [tool('read')])], {
      govern: (tools) => {
        governed += 1;
        return tools;
      },
    });
    expect(governed).toBe(1);
    set([snapshot('files', [tool('read'), tool('write')])]);
    r.invalidate();
    r.invalidate();
    r.invalidate();
    expect(governed).toBe(1);
    expect(r.advertised().map((t) => t.name)).toEqual(['files_read', 'files_write']);
    expect(r.resolve('files_write')?.alias).toBe('files_write');
    r.settle();
    expect(governed).toBe(2);
    set([snapshot('files', [tool('read')])]);
    r.invalidate();
    r.settle();
    r.settle();
    expect(governed).toBe(3);
    expect(r.find('files_write')).toBeUndefined();
  });
});
